import Foundation

extension BezierPath {
    /// The path as SVG path data with absolute commands only, one space between
    /// tokens: `"M 0 0 L 10 0 C 20 0 30 10 30 20 Q 40 30 50 30 Z"` — what
    /// `kinetic inspect` prints, and what `SVGPathData.parse` reads back.
    ///
    /// Numbers are rounded to `precision` digits after the decimal point and printed
    /// without trailing zeros or a trailing point; a value that rounds to zero prints as
    /// `0`, never `-0`.
    public func svgData(precision: Int = 6) -> String {
        var tokens: [String] = []
        func add(_ command: String, _ points: [Point]) {
            tokens.append(command)
            for p in points { tokens.append(formatNumber(p.x, precision)); tokens.append(formatNumber(p.y, precision)) }
        }
        for e in elements {
            switch e {
            case .move(let p): add("M", [p])
            case .line(let p): add("L", [p])
            case .quadCurve: add("Q", e.points)
            case .curve: add("C", e.points)
            case .close: tokens.append("Z")
            }
        }
        return tokens.joined(separator: " ")
    }
}

/// `value` with at most `precision` fraction digits, trailing zeros dropped, no `-0`.
func formatNumber(_ value: Double, _ precision: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    var text = String(format: "%.\(max(0, min(precision, 17)))f", value)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
}
