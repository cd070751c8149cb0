import Foundation

/// The files the preview may serve: regular files under the scene's folder, named by a
/// relative URL path. No `..`, no hidden names, no folders (so no listing), and no
/// symbolic link leading out of the folder.
public struct ServedFiles: Sendable {
    /// The scene's folder, symbolic links resolved.
    public let root: String

    public init(root: String) {
        self.root = Self.realPath(root) ?? (root as NSString).standardizingPath
    }

    public enum Refusal: Error, Equatable, Sendable {
        /// The path is malformed: an empty, `.`, `..` or hidden segment, a NUL, bad escapes (400).
        case malformed
        /// The path leads outside the folder or to something not a regular file (404: the
        /// preview does not say which).
        case notFound
    }

    /// The absolute path of the file `relative` (the URL path after the prefix, still
    /// percent-encoded) names.
    public func resolve(_ relative: Substring) -> Result<String, Refusal> {
        guard let decoded = String(relative).removingPercentEncoding else { return .failure(.malformed) }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, !decoded.contains("\0"), !decoded.contains("\\") else { return .failure(.malformed) }
        for s in segments where s.isEmpty || s.hasPrefix(".") { return .failure(.malformed) }
        let joined = root + "/" + segments.joined(separator: "/")
        guard let real = Self.realPath(joined), real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return .failure(.notFound)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failure(.notFound)
        }
        return .success(real)
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
