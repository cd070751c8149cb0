/// Where every value of a scene file was written, by key path (`layers[1].sublayers[0]`,
/// `dynamics.behaviors[2].push.magnitude`): the parse's record, so what goes wrong after
/// the load (a limit met while frames are computed) is reported at its place without
/// reading the file again.
public struct SourceMap: Sendable {
    public let file: String
    private var locations: [String: SourceLocation] = [:]

    public init(file: String) { self.file = file }

    mutating func record(_ keyPath: String, line: Int, column: Int) {
        locations[keyPath] = SourceLocation(file: file, line: line, column: column)
    }

    /// The location of the value at `keyPath`, or of its nearest ancestor recorded (the
    /// file's start when none is: a scene built in code).
    public func location(of keyPath: String) -> SourceLocation {
        var path = Substring(keyPath)
        while !path.isEmpty {
            if let location = locations[String(path)] { return location }
            // Up one step: `a.b[2]` → `a.b` → `a`.
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            path = path[..<cut]
        }
        return SourceLocation(file: file, line: 1, column: 1)
    }
}
