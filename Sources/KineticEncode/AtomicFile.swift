#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KineticFiles

/// An output file that appears at its path complete or not at all.
///
/// Bytes go to a hidden, uniquely named temporary file in the destination's folder
/// (same file system, so the final `rename(2)` is atomic); ``commit()`` flushes it to disk
/// and renames it over the destination. If the value is dropped without a commit —
/// an error was thrown, the work was cancelled — the temporary file is removed, and a
/// file that was already at the destination is left untouched, never truncated.
///
/// Noncopyable because it owns an open file descriptor and the temporary file.
public struct AtomicFile: ~Copyable {
    /// Where the file appears on ``commit()``.
    public let path: String
    /// The hidden temporary file being written, in the same folder as ``path``.
    public let temporaryPath: String
    private var descriptor: Int32

    /// Creates the temporary file beside `path` (permissions 0666 less the umask, as a
    /// plain `open` would give the destination).
    /// - Throws: ``EncodeError/cannotWrite(path:reason:)`` if the folder does not exist or
    ///   is not writable, or `path` is a directory.
    public init(path: String) throws(EncodeError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw .cannotWrite(path: path, reason: "not a file name")
        }
        // The rename would replace whatever is there: only a regular file (or nothing) may
        // be replaced, never a device, FIFO, socket or folder (as root, `-o /dev/null`
        // would otherwise replace the device node itself).
        if let kind = GuardedFile.kind(of: path, followingLinks: false), kind != .regular {
            // A link is replaced itself, not what it names; a dangling one may be replaced.
            let target = kind == .symbolicLink ? GuardedFile.kind(of: path) : kind
            if let target, target != .regular {
                throw .cannotWrite(path: path, reason: "is \(target.rawValue); kinetic replaces only regular files")
            }
        }
        // O_EXCL with a random suffix: unique even when several runs target one folder.
        var lastError: Int32 = EEXIST
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let candidate = "\(folder).\(name).\(getpid()).\(suffix).tmp"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                TemporaryFiles.register(candidate)
                temporaryPath = candidate
                descriptor = fd
                return
            }
            lastError = errno
            if lastError != EEXIST { break }
        }
        throw .cannotWrite(path: path, reason: Self.message(lastError))
    }

    /// Appends `bytes` to the temporary file.
    public mutating func write(_ bytes: [UInt8]) throws(EncodeError) {
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: "file already closed") }
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            guard let start = buffer.baseAddress else { return nil }  // nothing to write
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, start + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .cannotWrite(path: path, reason: Self.message(failure)) }
    }

    /// Flushes the temporary file to disk and renames it over ``path``. On failure the
    /// temporary file is removed and the destination keeps its previous contents.
    public consuming func commit() throws(EncodeError) {
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: "file already closed") }
        let fd = descriptor
        descriptor = -1  // from here on deinit has nothing to close
        var failure: Int32? = nil
        if fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporaryPath, path) != 0 { failure = errno }
        TemporaryFiles.unregister(temporaryPath)
        if let failure {
            unlink(temporaryPath)
            throw .cannotWrite(path: path, reason: Self.message(failure))
        }
    }

    /// Closes and removes the temporary file; the destination is untouched.
    public consuming func discard() {
        // deinit does the work.
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
            TemporaryFiles.unregister(temporaryPath)
        }
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws(EncodeError) {
        var file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Runs `body` on a fresh temporary file for `path` and commits it when `body`
    /// returns; if `body` throws, the temporary file is removed and the error rethrown.
    public static func write(to path: String, _ body: (inout AtomicFile) throws -> Void) throws {
        var file = try AtomicFile(path: path)
        try body(&file)
        try file.commit()
    }

    private static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
