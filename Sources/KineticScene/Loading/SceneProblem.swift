import KineticGeometry
/// Where something stands in a scene file: 1-based line and column (columns count
/// Unicode scalars, as libyaml does).
public struct SourceLocation: Hashable, Sendable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file; self.line = line; self.column = column
    }
}

/// One problem found in a scene file, printed as section 9 of the contract says:
/// `FILE:LINE:COLUMN: KEY.PATH: message`.
public struct SceneProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    /// The key path of the offending value, e.g. `layers[0].sublayers[1].opacity`.
    public var keyPath: String
    public var message: String

    /// The key path and message are kept printable: echoed user text is escaped and
    /// shortened, so a problem is always one line (``EchoedText``).
    public init(location: SourceLocation, keyPath: String, message: String) {
        self.location = location
        self.keyPath = EchoedText.printable(keyPath, limit: 300)
        self.message = EchoedText.printable(message)
    }

    /// A problem of the file as a whole (no key path: its encoding, its syntax).
    init(file: String, line: Int = 1, column: Int = 1, message: String) {
        self.init(location: SourceLocation(file: file, line: line, column: column), keyPath: "", message: message)
    }

    public var description: String {
        let key = keyPath.isEmpty ? "" : "\(keyPath): "
        return "\(EchoedText.printable(location.file, limit: 1000)):\(location.line):\(location.column): \(key)\(message)"
    }
}

/// Everything wrong with a scene file, in file order; thrown by `SceneLoader`.
public struct SceneLoadError: Error, Sendable, CustomStringConvertible {
    public var problems: [SceneProblem]
    public init(problems: [SceneProblem]) { self.problems = problems }
    /// The one problem of a file as a whole (its encoding, its syntax).
    init(file: String, line: Int = 1, column: Int = 1, message: String) {
        self.init(problems: [SceneProblem(file: file, line: line, column: column, message: message)])
    }
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A scene file that cannot be read at all (missing, unreadable): exit 66, not 65.
public struct SceneFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "\(path): \(reason)" }
}
