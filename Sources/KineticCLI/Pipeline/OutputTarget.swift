import Foundation

/// What `-o OUT` asks for, decided from its spelling (section "The CLI" of the README).
enum OutputTarget: Equatable {
    /// An animated GIF.
    case gif(String)
    /// One PNG file per frame, named by a printf-style pattern with one integer (`%04d`).
    case pngFrames(pattern: String)
    /// One still PNG (needs --frame or --time).
    case png(String)
    /// One vector frame through Cairo's SVG or PDF surface (needs --frame or --time).
    case svg(String)
    case pdf(String)

    /// Parses `-o`. A path ending in `/`, an existing folder, or a name without an
    /// extension is a folder of `frame-NNNN.png` files.
    static func parse(_ out: String) -> OutputTarget {
        let lower = out.lowercased()
        if lower.hasSuffix(".gif") { return .gif(out) }
        if out.contains("%") { return .pngFrames(pattern: out) }
        if lower.hasSuffix(".png") { return .png(out) }
        if lower.hasSuffix(".svg") { return .svg(out) }
        if lower.hasSuffix(".pdf") { return .pdf(out) }
        let folder = out.hasSuffix("/") ? String(out.dropLast()) : out
        return .pngFrames(pattern: (folder.isEmpty ? "." : folder) + "/frame-%04d.png")
    }

    var isSingleFrame: Bool {
        switch self {
        case .png, .svg, .pdf: true
        case .gif, .pngFrames: false
        }
    }

    /// The file name of frame `index` for a frame pattern (`%d`, `%04d`, …).
    static func fileName(pattern: String, index: Int) -> String {
        guard let percent = pattern.range(of: "%"),
              let d = pattern[percent.upperBound...].firstIndex(of: "d") else { return pattern }
        let spec = pattern[percent.upperBound..<d]
        let width = Int(spec) ?? 0
        var digits = String(index)
        if digits.count < width {
            digits = String(repeating: spec.hasPrefix("0") ? "0" : " ", count: width - digits.count) + digits
        }
        return String(pattern[..<percent.lowerBound]) + digits + String(pattern[pattern.index(after: d)...])
    }

    /// Checks a frame pattern has exactly one integer conversion.
    static func isValidPattern(_ pattern: String) -> Bool {
        let percents = pattern.filter { $0 == "%" }.count
        guard percents == 1, let r = pattern.range(of: "%"),
              let d = pattern[r.upperBound...].firstIndex(of: "d") else { return false }
        let spec = pattern[r.upperBound..<d]
        // A width like %09999999999d would pad every name to gigabytes.
        return spec.allSatisfy(\.isNumber) && spec.count <= 2
    }
}
