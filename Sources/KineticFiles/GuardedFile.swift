#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way Kinetic reads a file it did not write itself: a scene, an asset, a font, a
/// PNG frame for `encode`, a golden frame or `state.jsonl`, a file `preview` serves.
///
/// Every such file is untrusted (scene files and goldens come from pull requests, frames
/// from other machines' shards), so before a byte is read the file is opened without
/// blocking, checked to be a regular file (a FIFO or device never blocks a command), its
/// size bounded, and — when a root is given — its real path kept inside the root (a
/// symbolic link leading out is refused). The checks are made on the open descriptor, so
/// the file that is checked is the file that is read.
public struct GuardedFile: ~Copyable {
    /// The path as given.
    public let path: String
    /// The file's size in bytes when it was opened.
    public let size: Int
    private let descriptor: Int32

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - maxBytes: the largest file accepted; a larger one is refused with its size.
    ///   - root: when set, the file's real path (symbolic links resolved) must lie inside
    ///     this folder's real path.
    public init(path: String, maxBytes: Int, root: String? = nil) throws(FileProblem) {
        guard !path.isEmpty, !path.utf8.contains(0) else { throw .missing(path: path) }
        if let root { try Self.checkInside(path, root: root) }
        // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .missing(path: path) : .unreadable(path: path, reason: Self.message(code))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: path, reason: Self.message(code))
        }
        guard let kind = FileKind(mode: status.st_mode), kind == .regular else {
            close(fd)
            throw .notRegular(path: path, kind: FileKind(mode: status.st_mode) ?? .other)
        }
        guard status.st_size <= maxBytes else {
            close(fd)
            throw .tooLarge(path: path, bytes: Int(status.st_size), limit: maxBytes)
        }
        self.path = path
        size = Int(status.st_size)
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Reads up to `count` bytes at `offset`; fewer at the end of the file.
    public func read(count: Int, at offset: Int) throws(FileProblem) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.message(errno))
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// The whole file, as large as it was when opened (a file that grows since is read to
    /// that size: the bound holds).
    public func readAll() throws(FileProblem) -> [UInt8] {
        try read(count: size, at: 0)
    }

    /// The text of a small kernel file (`/proc/self/statm`, a cgroup limit): regular
    /// files whose `stat` size is 0, so they are read to their end, at most `maxBytes`.
    public static func readSystemText(_ path: String, maxBytes: Int = 4096) -> String? {
        guard let file = try? GuardedFile(path: path, maxBytes: Int.max) else { return nil }
        var bytes: [UInt8] = []
        while bytes.count < maxBytes, let piece = try? file.read(count: min(1024, maxBytes - bytes.count), at: bytes.count),
              !piece.isEmpty {
            bytes += piece
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `path` whole, through every check above.
    public static func read(_ path: String, maxBytes: Int, root: String? = nil) throws(FileProblem) -> [UInt8] {
        try GuardedFile(path: path, maxBytes: maxBytes, root: root).readAll()
    }

    /// Whether `path` names something, and what: `nil` when nothing is there. Does not
    /// follow a final symbolic link when `followingLinks` is false.
    public static func kind(of path: String, followingLinks: Bool = true) -> FileKind? {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        guard result == 0 else { return nil }
        return FileKind(mode: status.st_mode) ?? .other
    }

    /// Refuses `path` unless its real path lies inside `root`'s real path (or is it).
    public static func checkInside(_ path: String, root: String) throws(FileProblem) {
        let rootReal = realPath(root) ?? root
        guard let real = realPath(path) else {
            // Nothing there yet (a file to be written): its folder must be inside.
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            guard let realFolder = realPath(folder.isEmpty ? "/" : folder) else { throw .missing(path: path) }
            guard isInside(realFolder, rootReal) else { throw .outsideRoot(path: path, real: realFolder, root: rootReal) }
            return
        }
        guard isInside(real, rootReal) else { throw .outsideRoot(path: path, real: real, root: rootReal) }
    }

    static func isInside(_ real: String, _ root: String) -> Bool {
        real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` with every symbolic link resolved; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// What is at a path, as `stat` tells it.
public enum FileKind: String, Sendable, Equatable {
    case regular = "a regular file"
    case directory = "a folder"
    case fifo = "a FIFO"
    case characterDevice = "a character device"
    case blockDevice = "a block device"
    case socket = "a socket"
    case symbolicLink = "a symbolic link"
    case other = "not a regular file"

    init?(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: return nil
        }
    }
}

/// Why a file may not be read. Each case names the file.
public enum FileProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(path: String)
    case notRegular(path: String, kind: FileKind)
    case tooLarge(path: String, bytes: Int, limit: Int)
    case outsideRoot(path: String, real: String, root: String)
    case unreadable(path: String, reason: String)
    /// An image whose header claims more pixels than may be decoded.
    case imageTooLarge(path: String, width: Int, height: Int, limit: Int)

    public var path: String {
        switch self {
        case .missing(let p), .notRegular(let p, _), .tooLarge(let p, _, _), .outsideRoot(let p, _, _), .unreadable(let p, _),
             .imageTooLarge(let p, _, _, _): p
        }
    }

    /// The reason, without the path.
    public var reason: String {
        switch self {
        case .missing: "no such file"
        case .notRegular(_, let kind): "is \(kind.rawValue), not a regular file"
        case let .tooLarge(_, bytes, limit): "is \(bytes) bytes, over the limit of \(limit) bytes"
        case let .outsideRoot(_, real, root): "resolves to \(real), outside \(root)"
        case .unreadable(_, let reason): reason
        case let .imageTooLarge(_, width, height, limit): "is \(width)×\(height) px, over the limit of \(limit) px (and 32767 a side)"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

extension FileProblem {
    /// The file is over its size limit (its message names the limit).
    public var isTooLarge: Bool {
        if case .tooLarge = self { true } else { false }
    }
}
