import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

/// Synthetic frames drawn here in plain Swift, independently of the encoder.
enum Synthetic {
    /// Stores a straight colour with coverage `alpha` as Cairo's premultiplied ARGB32 word.
    static func put(_ image: inout PixelImage, _ x: Int, _ y: Int,
                    r: Double, g: Double, b: Double, a: Double) {
        func q(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        let word = q(a) << 24 | q(r * a) << 16 | q(g * a) << 8 | q(b * a)
        image.bytes.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: y * image.stride + x * 4, as: UInt32.self) }
    }

    /// A smooth diagonal gradient with an antialiased disc moving left to right;
    /// `transparent` leaves the background clear.
    static func frame(_ index: Int, width: Int = 64, height: Int = 48, transparent: Bool = false) -> PixelImage {
        var image = PixelImage(width: width, height: height)
        let cx = 12 + Double(index) * 4.5, cy = Double(height) / 2, radius = 9.5
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width - 1), v = Double(y) / Double(height - 1)
                // Background colour (straight) and disc coverage.
                var (r, g, b, a) = transparent ? (0.0, 0.0, 0.0, 0.0) : (0.1 + 0.6 * u, 0.3 + 0.5 * v, 0.9 - 0.5 * u, 1.0)
                let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot()
                let coverage = min(max(radius + 0.5 - d, 0), 1)
                let disc = (r: 1.0, g: 0.55, b: 0.1)
                // Source-over in premultiplied terms, then back to straight for `put`.
                let outA = coverage + a * (1 - coverage)
                if outA > 0 {
                    r = (disc.r * coverage + r * a * (1 - coverage)) / outA
                    g = (disc.g * coverage + g * a * (1 - coverage)) / outA
                    b = (disc.b * coverage + b * a * (1 - coverage)) / outA
                }
                a = outA
                put(&image, x, y, r: r, g: g, b: b, a: a)
            }
        }
        return image
    }

    static func frames(_ count: Int, transparent: Bool = false) -> [PixelImage] {
        (0..<count).map { frame($0, transparent: transparent) }
    }
}

// GIFs are decoded with the package's DecodedGIF (Sources/KineticEncode/DecodedGIF.swift).

/// A fresh empty folder, removed by the caller.
func makeTemporaryFolder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-encode-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

func folderContents(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// Encodes `frames` as a GIF at `path` through the public pipeline.
@discardableResult
func encodeGIF(_ frames: [PixelImage], to path: String, options: GIFOptions = GIFOptions(),
               delays: [Int]? = nil) throws -> [PreparedGIFFrame] {
    let writer = try GIFWriter(path: path, width: frames[0].width, height: frames[0].height, options: options)
    var prepared: [PreparedGIFFrame] = []
    for (i, frame) in frames.enumerated() {
        let p = try GIFFramePreparer.prepare(frame, previous: i > 0 ? frames[i - 1] : nil, options: options)
        try writer.write(p, delayCentiseconds: delays?[i] ?? 2)
        prepared.append(p)
    }
    try writer.finish()
    return prepared
}

struct FFmpegMissing: Error, CustomStringConvertible {
    var description: String { "ffmpeg is not installed (run `make deps`): tests use it as an independent decoder" }
}

/// Runs ffmpeg with `arguments`; its exit status and standard error. Throws (failing the
/// test, never skipping it) when ffmpeg is missing.
func runFFmpeg(_ arguments: [String]) throws -> (status: Int32, errors: String) {
    let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/ffmpeg" }
    guard let ffmpeg = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
        throw FFmpegMissing()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = arguments
    // Standard error goes to a file, not a Pipe: reading a pipe while parallel tests
    // spawn processes can fail with EINTR inside Foundation.
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("ffmpeg-\(UUID().uuidString).log").path
    FileManager.default.createFile(atPath: log, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: log) }
    let errors = try #require(FileHandle(forWritingAtPath: log))
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try errors.close()
    let message = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
    return (process.terminationStatus, message)
}
