import Foundation

/// A syntax error in SVG path data, located precisely enough for the scene loader to
/// point at file:line:column.
public struct PathSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 0-based offset, in `Character`s, of the offending character in the path string
    /// (the string's length when the data ended too early).
    public var offset: Int
    /// What was wrong, e.g. "expected a number", "unknown command 'X'".
    public var message: String

    public init(offset: Int, message: String) { self.offset = offset; self.message = message }

    public var description: String { "\(message) at offset \(offset)" }
}

/// The SVG path data grammar (SVG 1.1 §8.3 / SVG 2 §9.3).
public enum SVGPathData {
    /// The path described by SVG path data such as `"M 0 0 L 10 0 C 20 0 30 10 30 20 Z"`.
    ///
    /// Accepts every command, absolute and relative (`M L H V C S Q T A Z` and their
    /// lower-case forms), implicitly repeated argument groups (after `M`/`m` they are
    /// `L`/`l`), compact numbers (`1e-3`, `.5.5`, `-1-2`), comma/whitespace separators and
    /// compact arc flags (`a1 1 0 011 1`). Arcs become cubic curves (see `EllipseArc`);
    /// `S`/`T` reflect the previous curve's control point. A command after `Z` other than
    /// `M` starts its subpath with an explicit move to the closed subpath's start. Empty
    /// or all-whitespace data is the empty path.
    ///
    /// - Throws: `PathSyntaxError` only, at the first offending character.
    public static func parse(_ text: String) throws(PathSyntaxError) -> BezierPath {
        var parser = Parser(Array(text))
        return try parser.parse()
    }

    /// The numbers of an SVG number list (`points="0,0 10 5"`, a transform's arguments),
    /// read with path data's number grammar and separators.
    ///
    /// - Throws: `PathSyntaxError` at the first character that is not a number.
    public static func numbers(_ text: String) throws(PathSyntaxError) -> [Double] {
        var parser = Parser(Array(text))
        var result: [Double] = []
        parser.skipWhitespace()
        while parser.index < parser.chars.count {
            result.append(try parser.number())
            parser.skipSeparator()
        }
        return result
    }
}

/// A recursive-descent reader over the path's characters.
private struct Parser {
    let chars: [Character]
    var index = 0
    var path = BezierPath()
    var current = Point.zero
    var subpathStart = Point.zero
    /// The last command's letter and the control point S/T reflect (the second control
    /// of a cubic, the control of a quadratic).
    var lastCommand: Character = " "
    var lastControl: Point? = nil

    init(_ chars: [Character]) { self.chars = chars }

    mutating func parse() throws(PathSyntaxError) -> BezierPath {
        skipWhitespace()
        guard index < chars.count else { return path }
        guard chars[index] == "M" || chars[index] == "m" else {
            throw error(chars[index].isLetter && !isCommand(chars[index])
                        ? "unknown command '\(chars[index])'" : "path must start with M")
        }
        var command: Character = "M"
        while true {
            skipWhitespace()
            guard index < chars.count else { return path }
            let c = chars[index]
            if c.isLetter {
                guard isCommand(c) else { throw error("unknown command '\(c)'") }
                command = c
                index += 1
                try run(command)
            } else if command == "Z" || command == "z" {
                throw error("expected a command")
            } else {
                // An implicit repeat of the previous command; after a move it draws lines.
                if command == "M" { command = "L" } else if command == "m" { command = "l" }
                try run(command)
            }
        }
    }

    func isCommand(_ c: Character) -> Bool { "MmLlHhVvCcSsQqTtAaZz".contains(c) }

    func error(_ message: String) -> PathSyntaxError { PathSyntaxError(offset: index, message: message) }

    /// Reads one argument group of `command` and appends its element(s).
    mutating func run(_ command: Character) throws(PathSyntaxError) {
        let relative = command.isLowercase
        let base = relative ? current : .zero
        var reflected: Point? = nil
        switch command.uppercased() {
        case "M":
            let p = base + (try point())
            path.move(to: p); subpathStart = p; current = p
        case "L":
            try lineTo(base + (try point()))
        case "H":
            let x = try number()
            try lineTo(Point(relative ? current.x + x : x, current.y))
        case "V":
            let y = try number()
            try lineTo(Point(current.x, relative ? current.y + y : y))
        case "C", "S":
            let c1: Point
            if command.uppercased() == "C" { c1 = base + (try point()) } else { c1 = reflection(after: "CcSs") }
            let c2 = base + (try point()), p = base + (try point())
            beginSegment()
            path.addCurve(to: p, control1: c1, control2: c2)
            current = p; reflected = c2
        case "Q", "T":
            let c: Point
            if command.uppercased() == "Q" { c = base + (try point()) } else { c = reflection(after: "QqTt") }
            let p = base + (try point())
            beginSegment()
            path.addQuadCurve(to: p, control: c)
            current = p; reflected = c
        case "A":
            let rx = try number(), ry = try number(), rotation = try number()
            let large = try flag(), sweep = try flag()
            let p = base + (try point())
            beginSegment()
            path.elements += EllipseArc.svgArc(from: current, to: p, rx: rx, ry: ry, xAxisRotation: rotation,
                                               largeArc: large, sweep: sweep)
            current = p
        default: // Z
            path.close(); current = subpathStart
        }
        lastCommand = command
        lastControl = reflected
    }

    mutating func lineTo(_ p: Point) throws(PathSyntaxError) {
        beginSegment()
        path.addLine(to: p); current = p
    }

    /// After a close, SVG starts the next subpath at the closed one's start; say so
    /// with an explicit move so every consumer sees the same subpaths.
    mutating func beginSegment() {
        if lastCommand == "Z" || lastCommand == "z" { path.move(to: current) }
    }

    /// The S/T first control: the previous control mirrored through the current point
    /// when the previous command was of the same family, else the current point.
    func reflection(after family: String) -> Point {
        guard family.contains(lastCommand), let c = lastControl else { return current }
        return current * 2 - c
    }

    // MARK: Tokens

    mutating func skipWhitespace() {
        while index < chars.count, chars[index] == " " || chars[index] == "\t" || chars[index] == "\n"
            || chars[index] == "\r" || chars[index] == "\u{0C}" || chars[index] == "\r\n" {
            index += 1
        }
    }

    /// Whitespace with at most one comma, between two arguments.
    mutating func skipSeparator() {
        skipWhitespace()
        if index < chars.count, chars[index] == "," { index += 1; skipWhitespace() }
    }

    mutating func point() throws(PathSyntaxError) -> Point {
        let x = try number()
        return Point(x, try number())
    }

    /// A number: sign, digits with an optional fraction (or a bare fraction), optional
    /// exponent. Stops where the next number must begin, so `.5.5` and `-1-2` are two.
    mutating func number() throws(PathSyntaxError) -> Double {
        skipSeparator()
        let start = index
        func isDigit(_ i: Int) -> Bool { i < chars.count && chars[i].isASCII && chars[i].isNumber }
        if index < chars.count, chars[index] == "+" || chars[index] == "-" { index += 1 }
        var digits = 0
        while isDigit(index) { index += 1; digits += 1 }
        if index < chars.count, chars[index] == "." {
            index += 1
            while isDigit(index) { index += 1; digits += 1 }
        }
        guard digits > 0 else { index = start; throw error("expected a number") }
        if index < chars.count, chars[index] == "e" || chars[index] == "E" {
            var j = index + 1
            if j < chars.count, chars[j] == "+" || chars[j] == "-" { j += 1 }
            // An `e` without exponent digits is not part of the number.
            if isDigit(j) {
                index = j
                while isDigit(index) { index += 1 }
            }
        }
        guard let value = Double(String(chars[start..<index])), value.isFinite else {
            index = start
            throw error("number out of range")
        }
        return value
    }

    /// An arc flag: a single `0` or `1`, which may touch the next argument.
    mutating func flag() throws(PathSyntaxError) -> Bool {
        skipSeparator()
        guard index < chars.count, chars[index] == "0" || chars[index] == "1" else {
            throw error("expected an arc flag (0 or 1)")
        }
        index += 1
        return chars[index - 1] == "1"
    }
}
