import Foundation

/// Which files a scene may read (scene files come from pull requests): regular files
/// inside the asset root — the scene's folder unless `--asset-root` names another —
/// whose header is checked before anything decodes them: a PNG's dimensions, a font
/// file's signature and size, an SVG file's size (its XML is read by `SVGFiles`). `--allow-any-path` lifts the root (absolute paths, `..`,
/// symlinks out), never the other checks.
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

    /// The resolved path of asset `name` (an image, a font file with `kind: .font`, an SVG
    /// file with `kind: .svg`)
    /// written in a scene whose folder is `baseDirectory`, or why it may not be read.
    func resolve(_ name: String, baseDirectory: String, kind: AssetKind = .image) -> Result<String, AssetProblem> {
        let path = name.hasPrefix("/") ? name : (baseDirectory as NSString).appendingPathComponent(name)
        if !allowsAnyPath {
            if name.hasPrefix("/") { return .failure(.outsideRoot("an absolute path")) }
            let rootPath = Self.realPath(root ?? baseDirectory) ?? (root ?? baseDirectory)
            guard let real = Self.realPath(path) else { return .failure(.missing(path)) }
            guard real == rootPath || real.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") else {
                return .failure(.outsideRoot("it resolves to \(real), outside \(rootPath)"))
            }
        }
        // stat, not open: opening a FIFO blocks until a writer comes.
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(.missing(path)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.notRegular((status.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file (a FIFO, device or socket)"))
        }
        if kind == .font, status.st_size > maxFontBytes {
            return .failure(.fileTooLarge(bytes: Int(status.st_size), limit: maxFontBytes))
        }
        if kind == .svg {
            return status.st_size > maxSVGBytes ? .failure(.fileTooLarge(bytes: Int(status.st_size), limit: maxSVGBytes))
                : .success(path)
        }
        return checkHeader(path, kind: kind).map { .failure($0) } ?? .success(path)
    }

    /// Reads the PNG signature and IHDR (non-blocking, 24 bytes): the image's size is known
    /// before Cairo allocates it. A font file's first 4 bytes name a TrueType or OpenType
    /// font or collection, or fontconfig would not read it.
    private func checkHeader(_ path: String, kind: AssetKind) -> AssetProblem? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 24) }
        if kind == .font {
            let fontSignatures: [[UInt8]] = [[0, 1, 0, 0], Array("OTTO".utf8), Array("true".utf8), Array("ttcf".utf8)]
            guard count >= 4, fontSignatures.contains(Array(header[0..<4])) else {
                return .unreadable("not a TrueType or OpenType font")
            }
            return nil
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard count == 24, Array(header[0..<8]) == signature, Array(header[12..<16]) == Array("IHDR".utf8) else {
            return .unreadable("not a PNG file")
        }
        func be32(_ i: Int) -> Int { header[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let width = be32(16), height = be32(20)
        guard width > 0, height > 0 else { return .unreadable("a PNG of \(width)×\(height) px") }
        guard width <= 32767, height <= 32767, width * height <= maxImagePixels else {
            return .tooLarge(width: width, height: height, limit: maxImagePixels)
        }
        return checkChunks(fd)
    }

    /// Walks the PNG's chunk headers to IEND: a file cut short (a careless copy, a
    /// download stopped halfway) is refused where it is named, as the decoder would
    /// refuse it at render. Chunk data is skipped, not read or checked.
    private func checkChunks(_ fd: Int32) -> AssetProblem? {
        var offset: off_t = 8, sawData = false
        var header = [UInt8](repeating: 0, count: 8)
        // A chunk takes at least 12 bytes: the walk ends within the file's size / 12 steps.
        while true {
            let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, offset) }
            guard count == 8 else { return .unreadable("the PNG file is cut short (no IEND chunk)") }
            let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IDAT" { sawData = true }
            if type == "IEND" { return sawData ? nil : .unreadable("the PNG file has no image data (IDAT)") }
            offset += off_t(12 + length)
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// What a scene names a file for: an image (`contents:`), a font (`font: Name.ttf`), or
/// an SVG (`contents: icon.svg`, `path: {svg: icon.svg}`).
enum AssetKind: Sendable {
    case image, font, svg
}

/// Why an asset may not be read.
enum AssetProblem: Error {
    case missing(String)
    case outsideRoot(String)
    case notRegular(String)
    case unreadable(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    case fileTooLarge(bytes: Int, limit: Int)

    func message(for name: String, kind: AssetKind = .image) -> String {
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
