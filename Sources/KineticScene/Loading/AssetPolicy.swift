import Foundation

/// Which image assets a scene may read (scene files come from pull requests): regular
/// PNG files inside the asset root — the scene's folder unless `--asset-root` names
/// another — with dimensions read from the PNG header checked before anything decodes
/// them. `--allow-any-path` lifts the root (absolute paths, `..`, symlinks out).
public struct AssetPolicy: Sendable {
    /// The folder assets must resolve inside; nil: the scene file's folder.
    public var root: String?
    /// Absolute paths, `..` escapes and symlinks leaving the root are allowed.
    public var allowsAnyPath = false
    /// The most pixels a decoded image may have (4 bytes each).
    public var maxImagePixels = 64_000_000
    public init() {}

    /// The resolved path of asset `name` written in a scene whose folder is
    /// `baseDirectory`, or why it may not be read.
    func resolve(_ name: String, baseDirectory: String) -> Result<String, AssetProblem> {
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
        return checkHeader(path).map { .failure($0) } ?? .success(path)
    }

    /// Reads the PNG signature and IHDR (non-blocking, 24 bytes): the image's size is known
    /// before Cairo allocates it.
    private func checkHeader(_ path: String) -> AssetProblem? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 24) }
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
        return nil
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why an asset may not be read.
enum AssetProblem: Error {
    case missing(String)
    case outsideRoot(String)
    case notRegular(String)
    case unreadable(String)
    case tooLarge(width: Int, height: Int, limit: Int)

    func message(for name: String) -> String {
        switch self {
        case .missing(let path): "missing asset file '\(name)' (looked for \(path))"
        case .outsideRoot(let why):
            "asset '\(name)' is outside the scene's folder (\(why)): assets resolve inside it or --asset-root; pass --allow-any-path to trust the file"
        case .notRegular(let what): "asset '\(name)' is \(what), not a PNG file"
        case .unreadable(let why): "cannot read image asset '\(name)': \(why)"
        case .tooLarge(let w, let h, let limit):
            "image asset '\(name)' is \(w)×\(h) px, over the limit of \(limit) px (and 32767 a side) decoded images may have"
        }
    }
}
