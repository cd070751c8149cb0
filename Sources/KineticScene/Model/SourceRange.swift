/// Where an expression was written: the place of its first character, so that an error
/// found in it later (an unknown id, a wrong result kind) is placed at its own character
/// — each written expression at its own place, however many share its text.
public struct SourceRange: Hashable, Sendable {
    /// The first character of the expression's source (the `@` of a reference, the text
    /// after the `=` of an expression), with the key path of the value holding it.
    public var start: SourcePlace
    /// Whether characters after the first can be placed: a value written on one line.
    /// A value that spans lines reports every character at its start.
    public var isOneLine: Bool

    public init(start: SourcePlace, isOneLine: Bool) {
        self.start = start; self.isOneLine = isOneLine
    }

    /// The place of the character `offset` of the source.
    public func place(at offset: Int) -> SourcePlace {
        guard isOneLine else { return start }
        var place = start
        place.location.column += offset
        return place
    }
}
