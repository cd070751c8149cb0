import Foundation
@testable import KineticFiles
import KineticCairo
import KineticGeometry
import Testing
@testable import KineticEncode

@Suite struct PNGTests {
    /// Valid premultiplied pixels at many alphas, including 0, 1 and 255.
    static func sample() -> PixelImage {
        var image = PixelImage(width: 37, height: 11)
        for y in 0..<11 {
            for x in 0..<37 {
                let a = Double((x * 7 + y * 13) % 256) / 255
                Synthetic.put(&image, x, y, r: Double(x) / 36, g: Double(y) / 10, b: 0.5, a: a)
            }
        }
        return image
    }

    @Test func roundTripKeepsPremultipliedPixels() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = Self.sample()
        let path = folder + "/sample.png"
        try PNGWriter.write(image, to: path)
        let read = try PNGReader.read(path)
        #expect(read.width == image.width && read.height == image.height)
        // Un-premultiplying to 8 bits and premultiplying back is exact for c ≤ a.
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = image.bytes[(y * image.stride + x * 4)..<(y * image.stride + x * 4 + 4)]
                let b = read.bytes[(y * read.stride + x * 4)..<(y * read.stride + x * 4 + 4)]
                #expect(Array(a) == Array(b), "pixel \(x), \(y)")
            }
        }
        #expect(folderContents(folder) == ["sample.png"])
    }

    @Test func bytesAreDeterministicAndCarryNoTimestamp() throws {
        let a = try PNGWriter.encode(Self.sample())
        let b = try PNGWriter.encode(Self.sample())
        #expect(a == b)
        #expect(Array(a.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let text = String(decoding: a, as: UTF8.self)
        #expect(!text.contains("tIME"))
    }

    @Test func oddStrideIsRepacked() throws {
        let packed = Self.sample()
        var padded = PixelImage(width: packed.width, height: packed.height, stride: packed.width * 4 + 3,
                                bytes: [UInt8](repeating: 0xEE, count: (packed.width * 4 + 3) * packed.height))
        for y in 0..<packed.height {
            padded.bytes[(y * padded.stride)..<(y * padded.stride + packed.width * 4)] =
                packed.bytes[(y * packed.stride)..<(y * packed.stride + packed.width * 4)]
        }
        #expect(try PNGWriter.encode(padded) == PNGWriter.encode(packed))
    }

    /// PNGs of other colour types (made by ffmpeg from raw pixels) come back as opaque
    /// ARGB32 with the same colours.
    @Test(arguments: ["gray", "rgb24"])
    func otherColourTypesBecomeARGB32(pixelFormat: String) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Pixel (x, y): grey x·40 + y·20, or RGB (x·40, y·80, 200).
        func rgb(_ x: Int, _ y: Int) -> [UInt8] {
            pixelFormat == "gray" ? Array(repeating: UInt8(x * 40 + y * 20), count: 3)
                                  : [UInt8(x * 40), UInt8(y * 80), 200]
        }
        var raw: [UInt8] = []
        for y in 0..<3 { for x in 0..<5 { raw += pixelFormat == "gray" ? [rgb(x, y)[0]] : rgb(x, y) } }
        FileManager.default.createFile(atPath: folder + "/c.raw", contents: Data(raw))
        let (status, message) = try runFFmpeg(["-v", "error", "-f", "rawvideo", "-pix_fmt", pixelFormat,
                                               "-s", "5x3", "-i", folder + "/c.raw",
                                               "-frames:v", "1", "-pix_fmt", pixelFormat, folder + "/c.png"])
        #expect(status == 0, "ffmpeg: \(message)")
        let image = try PNGReader.read(folder + "/c.png")
        try #require(image.width == 5 && image.height == 3)
        for y in 0..<3 { for x in 0..<5 {
            let i = y * image.stride + x * 4
            let c = rgb(x, y)
            #expect(Array(image.bytes[i..<(i + 4)]) == [c[2], c[1], c[0], 255], "pixel \(x), \(y)")
        } }
    }

    @Test func missingFileIsCannotRead() {
        #expect {
            _ = try PNGReader.read("/nonexistent-kinetic/none.png")
        } throws: { error in
            guard case .cannotRead(let path, _) = error as? EncodeError else { return false }
            return path == "/nonexistent-kinetic/none.png"
        }
    }

    @Test func unwritableDestinationIsCannotWrite() {
        #expect {
            try PNGWriter.write(Self.sample(), to: "/nonexistent-kinetic/out.png")
        } throws: { error in
            guard case .cannotWrite(let path, _) = error as? EncodeError else { return false }
            return path == "/nonexistent-kinetic/out.png"
        }
    }

    /// Our writer (Up filter, libdeflate) and Cairo's writer, which wrote every
    /// PNG before (issue 42), decode to the same pixels: opaque frames (written as RGB,
    /// as Cairo writes them) and translucent ones (RGBA, un-premultiplied alike).
    @Test(arguments: [false, true])
    func decodesToCairoWritersPixels(translucent: Bool) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = translucent ? Self.sample() : Synthetic.frame(3, width: 120, height: 70)
        try PNGWriter.write(image, to: folder + "/ours.png")
        let cairo = try CairoSurface.encodePNG(image)
        try Data(cairo).write(to: URL(fileURLWithPath: folder + "/cairo.png"))
        let ours = try PNGReader.read(folder + "/ours.png"), theirs = try PNGReader.read(folder + "/cairo.png")
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        #expect(ours.bytes == theirs.bytes)
        // IHDR's colour type (byte 25): 2 = RGB, 6 = RGBA.
        let written = try Data(contentsOf: URL(fileURLWithPath: folder + "/ours.png"))
        #expect(written[25] == (translucent ? 6 : 2))
        #expect(written[25] == cairo[25])
    }

    /// A frame `render` writes to a folder carries the `tEXt` chunk with its origin
    /// (inserted after IHDR) and still decodes to its pixels.
    @Test func framesKeepTheirOriginText() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = Synthetic.frame(5, width: 64, height: 48)
        let text = "scene=0123456789abcdef fps=25.0 frames=40"
        let bytes = PNGHeader.inserting(text: text, into: try PNGWriter.encode(image))
        let path = folder + "/frame-0000.png"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let header = try PNGHeader(checking: GuardedFile(path: path, maxBytes: 1 << 20), maxPixels: 1 << 20)
        #expect(header.kineticText == text)
        #expect(try PNGReader.read(path).bytes == image.bytes)
    }

    /// What each round trip below encodes.
    enum Picture: String, CaseIterable, Sendable {
        case opaque, translucent
        /// 700 × 500 pseudo-random pixels: their zlib stream (over 1 MiB) spans IDAT chunks.
        case noise
        /// Rows equal to the row above but for small spots, some at either edge (the
        /// encoder converts only the span of a row that differs from the row above).
        case spots
        /// `spots` whose last spots are half transparent: encoded as RGB up to the first
        /// of them, then again, from the first row, as RGBA.
        case spotsTurningTranslucent

        /// Written as RGB (IHDR colour type 2), else RGBA.
        var isOpaque: Bool { self == .opaque || self == .spots }

        var image: PixelImage {
            switch self {
            case .opaque: return Synthetic.frame(3, width: 120, height: 70)
            case .translucent: return PNGTests.sample()
            case .noise:
                var image = PixelImage(width: 700, height: 500)
                var state: UInt64 = 0x9E37_79B9_7F4A_7C15
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        // xorshift64: the same pixels every run.
                        state ^= state << 13; state ^= state >> 7; state ^= state << 17
                        let a = UInt32(truncatingIfNeeded: state >> 56)
                        // Premultiplied: no colour above alpha.
                        func c(_ shift: UInt64) -> UInt32 { a == 0 ? 0 : UInt32(truncatingIfNeeded: state >> shift) % (a + 1) }
                        let word = a << 24 | c(8) << 16 | c(16) << 8 | c(24)
                        image.bytes.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: y * image.stride + x * 4, as: UInt32.self) }
                    }
                }
                return image
            case .spots, .spotsTurningTranslucent:
                let width = 90, height = 60
                var image = PixelImage(width: width, height: height)
                // The stride read before: `set` captures `image`, so reading it while the
                // bytes are written would be an overlapping access.
                let stride = image.stride
                func set(_ x: Int, _ y: Int, _ word: UInt32) {
                    image.bytes.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self) }
                }
                for y in 0..<height { for x in 0..<width { set(x, y, 0xFF20_4060) } }
                // (x, y, width, height, colour): spans inside a row, at its first and last
                // pixel, a whole row, one pixel; `spotsTurningTranslucent`'s last two are
                // half transparent (premultiplied: no colour above alpha 0x80).
                let lastSpots: UInt32 = self == .spotsTurningTranslucent ? 0x8040_2011 : 0xFF80_7F7E
                let spots: [(Int, Int, Int, Int, UInt32)] = [
                    (10, 3, 5, 4, 0xFFE0_1030), (0, 12, 3, 2, 0xFF00_FF00), (width - 4, 12, 4, 3, 0xFF10_2030),
                    (0, 20, width, 1, 0xFFFF_FFFF), (45, 33, 1, 1, 0xFF01_0203), (30, 40, 20, 9, lastSpots),
                    (60, height - 1, 1, 1, lastSpots),
                ]
                for (x0, y0, w, h, colour) in spots {
                    for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { set(x, y, colour) } }
                }
                return image
            }
        }
    }

    /// The straight RGBA bytes a PNG of `image` must decode to, computed here by Cairo's
    /// rule (cairo-png.c `unpremultiply_data`): c × 255 / alpha rounded to nearest, all 0
    /// where alpha is 0.
    static func straightRGBA(_ image: PixelImage) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let word = image.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: y * image.stride + x * 4, as: UInt32.self) }
                let a = word >> 24
                func c(_ shift: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(((word >> shift & 0xFF) * 255 + a / 2) / a) }
                out += [c(16), c(8), c(0), UInt8(a)]
            }
        }
        return out
    }

    /// ffmpeg's PNG decoder (its own inflate, every chunk's CRC checked) gives back each
    /// pixel as computed above; the file is the signature, IHDR (RGB when opaque, else
    /// RGBA), IDAT chunks of at most 1 MiB whose CRCs match, and IEND — nothing else.
    @Test(arguments: Picture.allCases)
    func independentDecoderGetsThePixelsBack(picture: Picture) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = picture.image
        let png = try PNGWriter.encode(image)
        try Data(png).write(to: URL(fileURLWithPath: folder + "/p.png"))
        let (status, message) = try runFFmpeg(["-v", "error", "-err_detect", "crccheck+explode", "-i", folder + "/p.png",
                                               "-f", "rawvideo", "-pix_fmt", "rgba", folder + "/p.rgba"])
        #expect(status == 0, "ffmpeg: \(message)")
        let decoded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/p.rgba")))
        #expect(decoded == Self.straightRGBA(image))

        #expect(Array(png.prefix(8)) == PNGHeader.signature)
        var chunks: [(type: String, length: Int)] = []
        var at = 8
        while at + 12 <= png.count {
            let length = png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            try #require(at + 12 + length <= png.count)
            let typeAndData = Array(png[(at + 4)..<(at + 8 + length)])
            let crc = png[(at + 8 + length)..<(at + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(crc == CRC32.checksum(typeAndData), "chunk \(chunks.count)")
            chunks.append((String(decoding: typeAndData.prefix(4), as: UTF8.self), length))
            at += 12 + length
        }
        #expect(at == png.count)
        let idats = chunks.filter { $0.type == "IDAT" }
        #expect(chunks.map(\.type) == ["IHDR"] + idats.map { _ in "IDAT" } + ["IEND"])
        #expect(idats.allSatisfy { $0.length <= 1 << 20 })
        #expect(idats.count >= (picture == .noise ? 2 : 1))
        #expect(png[25] == (picture.isOpaque ? 2 : 6))
    }
}
