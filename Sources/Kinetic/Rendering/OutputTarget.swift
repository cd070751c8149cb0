import Foundation
import KineticEncode

/// What `-o OUT` asks for, decided from its spelling (section "The CLI" of the README).
package enum OutputTarget: Equatable {
    /// An animation: GIF, APNG, WebP, MP4, WebM or MOV.
    case animation(AnimationFormat, String)
    /// One PNG file per frame, named by a printf-style pattern with one integer (`%04d`).
    case pngFrames(pattern: String)
    /// One still PNG (needs --frame or --time).
    case png(String)
    /// One vector frame through Cairo's SVG or PDF surface (needs --frame or --time).
    case svg(String)
    case pdf(String)
    /// A Lottie animation: the frames baked into keyframes (docs/lottie.md), as JSON
    /// (`.json`) or in a dotLottie archive (`.lottie`).
    case lottie(LottieFormat, String)

    /// The animations' extensions: `.gif`, `.apng`, `.webp`, `.mp4`, `.webm`, `.mov`.
    package static let animationExtensions = AnimationFormat.allCases.map { "." + $0.rawValue }
    /// The extensions `-o` takes, for the usage error that lists them.
    package static let extensions = animationExtensions + [".png", ".svg", ".pdf", ".json", ".lottie"]

    /// Parses `-o`. A `%d` pattern, a path ending in `/`, an existing folder, or a name
    /// without an extension is a folder of `frame-NNNN.png` files; `.png` is a still, or
    /// an APNG with `animated`. Any other extension is a usage error naming the formats.
    package static func parse(_ out: String, animated: Bool = false) throws(OutputTargetError) -> OutputTarget {
        var isFolder: ObjCBool = false
        let ext = (out as NSString).pathExtension.lowercased()
        if out.contains("%"), ext == "png" || ext.isEmpty { return .pngFrames(pattern: out) }
        if out.hasSuffix("/") || ext.isEmpty
            || (FileManager.default.fileExists(atPath: out, isDirectory: &isFolder) && isFolder.boolValue) {
            let folder = out.hasSuffix("/") ? String(out.dropLast()) : out
            return .pngFrames(pattern: (folder.isEmpty ? "." : folder) + "/frame-%04d.png")
        }
        if let format = AnimationFormat(extension: ext) { return .animation(format, out) }
        switch ext {
        case "png": return animated ? .animation(.apng, out) : .png(out)
        case "svg": return .svg(out)
        case "pdf": return .pdf(out)
        case "json": return .lottie(.json, out)
        case "lottie": return .lottie(.dotLottie, out)
        default: throw OutputTargetError(output: out)
        }
    }

    package var isSingleFrame: Bool {
        switch self {
        case .png, .svg, .pdf: true
        case .animation, .pngFrames, .lottie: false
        }
    }

    package var isLottie: Bool {
        if case .lottie = self { true } else { false }
    }

    /// The file name of frame `index` for a frame pattern (`%d`, `%04d`, …).
    package static func fileName(pattern: String, index: Int) -> String {
        guard let (head, spec, tail) = patternParts(pattern) else { return pattern }
        let width = Int(spec) ?? 0
        var digits = String(index)
        if digits.count < width {
            digits = String(repeating: spec.hasPrefix("0") ? "0" : " ", count: width - digits.count) + digits
        }
        return head + digits + tail
    }

    /// A pattern's text before the `%`, its width spec (`04`), and its text after the `d`.
    package static func patternParts(_ pattern: String) -> (head: String, spec: String, tail: String)? {
        guard let percent = pattern.range(of: "%"),
              let d = pattern[percent.upperBound...].firstIndex(of: "d") else { return nil }
        return (String(pattern[..<percent.lowerBound]), String(pattern[percent.upperBound..<d]),
                String(pattern[pattern.index(after: d)...]))
    }

    /// Checks a frame pattern has exactly one integer conversion.
    package static func isValidPattern(_ pattern: String) -> Bool {
        let percents = pattern.filter { $0 == "%" }.count
        guard percents == 1, let r = pattern.range(of: "%"),
              let d = pattern[r.upperBound...].firstIndex(of: "d") else { return false }
        let spec = pattern[r.upperBound..<d]
        // A width like %09999999999d would pad every name to gigabytes.
        return spec.allSatisfy(\.isNumber) && spec.count <= 2
    }
}

/// How a Lottie export is stored: the JSON document itself, or the dotLottie archive
/// (a ZIP of a manifest and that document, deflated) that apps ship.
package enum LottieFormat: Equatable, Sendable {
    case json
    case dotLottie
}

/// An output spelled with an extension Kinetic does not write (exit 64).
package struct OutputTargetError: Error, CustomStringConvertible {
    package var output: String

    package init(output: String) { self.output = output }
    package var description: String {
        "\(output): unknown output format '.\((output as NSString).pathExtension)'; kinetic writes "
            + OutputTarget.extensions.joined(separator: ", ") + ", a folder, or a %04d PNG pattern"
    }
}
