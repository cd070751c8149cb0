import Foundation

/// Which files a scene may read (scene files come from pull requests): regular files
/// inside the asset root — the scene's folder unless `--asset-root` names another —
/// whose header is checked before anything decodes them: a PNG's dimensions, a font
/// file's signature and size, an SVG file's size (its XML is read by `SVGFiles`).
/// `--allow-any-path` lifts the root (absolute paths, `..`, symlinks out), never the
/// other checks.
public struct AssetPolicy: Sendable {
    /// The folder assets must resolve inside; nil: the scene file's folder.
    public var root: String?
    /// Absolute paths, `..` escapes and symlinks leaving the root are allowed.
    public var allowsAnyPath = false
    /// The most pixels a decoded image may have (4 bytes each).
    public var maxImagePixels = 64_000_000
    /// The largest font file (bytes): fontconfig and Pango read it whole. The largest
    /// system fonts (a CJK collection) are about 20 MB.
    public var maxFontBytes = 64 << 20
    /// The largest SVG file (bytes): libxml2 reads it whole, librsvg again to draw it.
    /// Designers' icons and illustrations are kilobytes to a few hundred.
    public var maxSVGBytes = 4 << 20
    /// The most elements an SVG file may have: each becomes a value, and librsvg walks
    /// them all for every frame it draws.
    public var maxSVGElements = 20_000
    public init() {}

    /// The largest image file (bytes); its decoded size is bounded by `maxImagePixels`.
    public var maxImageFileBytes = 256 << 20

    /// The resolved path of asset `name` (an image, a font file with `kind: .font`, an SVG
    /// file with `kind: .svg`)
    /// written in a scene whose folder is `baseDirectory`, or why it may not be read.
    /// The file is opened through the guarded reader (no blocking on a FIFO, a bounded
    /// size), and its header is checked before anything decodes it: a PNG's dimensions
    /// and chunks, a font file's signature.
    public func resolve(_ name: String, baseDirectory: String, kind: AssetKind = .image) -> Result<String, AssetProblem> {
        let path = name.hasPrefix("/") ? name : (baseDirectory as NSString).appendingPathComponent(name)
        do throws(FileProblem) {
            if !allowsAnyPath {
                if name.hasPrefix("/") { return .failure(.outsideRoot("an absolute path")) }
                guard GuardedFile.realPath(path) != nil else { return .failure(.missing(path)) }
                try GuardedFile.checkInside(path, root: root ?? baseDirectory)
            }
            let maxBytes = switch kind { case .font: maxFontBytes; case .svg: maxSVGBytes; case .image: maxImageFileBytes }
            let file = try GuardedFile(path: path, maxBytes: maxBytes)
            switch kind {
            case .font:
                let fontSignatures: [[UInt8]] = [[0, 1, 0, 0], Array("OTTO".utf8), Array("true".utf8), Array("ttcf".utf8)]
                guard fontSignatures.contains(try file.read(count: 4, at: 0)) else {
                    return .failure(.unreadable("not a TrueType or OpenType font"))
                }
            case .image:
                _ = try PNGHeader(checking: file, maxPixels: maxImagePixels)
            case .svg:
                break  // its XML is checked as it is read (`SVGFiles`)
            }
            return .success(path)
        } catch {
            switch error {
            case .missing: return .failure(.missing(path))
            case .outsideRoot(_, let real, let root): return .failure(.outsideRoot("it resolves to \(real), outside \(root)"))
            case .notRegular(_, let what):
                return .failure(.notRegular(what == .directory ? "a folder" : "not a regular file (a FIFO, device or socket)"))
            case .tooLarge(_, let bytes, let limit): return .failure(.fileTooLarge(bytes: bytes, limit: limit))
            case .imageTooLarge(_, let width, let height, let limit): return .failure(.tooLarge(width: width, height: height, limit: limit))
            case .unreadable(_, let reason): return .failure(.unreadable(reason))
            }
        }
    }

    /// An image asset as `UIImage(named:)` finds it: `name`, else, when that is missing,
    /// `name@3x.png` or `name@2x.png` for `name.png`, the screen's scale (`deviceScale`)
    /// first. For a name without a scale suffix of its own (the caller knows:
    /// `Layer.contentsScale(ofAsset:)`); its problem is the plain name's.
    package func resolveImage(_ name: String, baseDirectory: String, deviceScale: Double) -> Result<String, AssetProblem> {
        let resolved = resolve(name, baseDirectory: baseDirectory)
        guard case .failure(.missing) = resolved else { return resolved }
        let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        for scale in [deviceScale.rounded(), 3, 2] where scale >= 2 && scale <= 9 {
            let variant = resolve("\(stem)@\(Int(scale))x.\(ext)", baseDirectory: baseDirectory)
            if case .success = variant { return variant }
        }
        return resolved
    }
}

/// What a scene names a file for: an image (`contents:`), a font (`font: Name.ttf`), or
/// an SVG (`contents: icon.svg`, `path: {svg: icon.svg}`).
public enum AssetKind: Sendable {
    case image, font, svg
}

/// Why an asset may not be read.
public enum AssetProblem: Error {
    case missing(String)
    case outsideRoot(String)
    case notRegular(String)
    case unreadable(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    case fileTooLarge(bytes: Int, limit: Int)

    public func message(for name: String, kind: AssetKind = .image) -> String {
        let (noun, missing, format): (String, String, String) = switch kind {
        case .font: ("font file", "font", "a font")
        case .svg: ("SVG file", "SVG", "an SVG")
        case .image: ("asset", "asset", "a PNG")
        }
        switch self {
        case .missing(let path): return "missing \(missing) file '\(name)' (looked for \(path))"
        case .outsideRoot(let why):
            return "\(noun) '\(name)' is outside the scene's folder (\(why)): assets resolve inside it or --asset-root; pass --allow-any-path to trust the file"
        case .notRegular(let what):
            return "\(noun) '\(name)' is \(what), not \(format) file"
        case .unreadable(let why): return "cannot read \(kind == .font ? "font file" : "image asset") '\(name)': \(why)"
        case .tooLarge(let w, let h, let limit):
            return "image asset '\(name)' is \(w)×\(h) px, over the limit of \(limit) px (and 32767 a side) decoded images may have"
        case .fileTooLarge(let bytes, let limit):
            return "\(noun) '\(name)' is \(bytes) bytes, over the limit of \(limit) bytes"
        }
    }
}
