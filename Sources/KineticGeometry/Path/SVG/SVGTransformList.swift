import Foundation

/// SVG's `transform` attribute (SVG 1.1 §7.6): a list of `matrix`, `translate`, `scale`,
/// `rotate`, `skewX` and `skewY`, angles in degrees.
public enum SVGTransformList {
    /// The list as one matrix. `transform="A B"` maps a point through B first, then A,
    /// as if B were nested inside A.
    public static func parse(_ text: String) throws(SVGError) -> Transform3D {
        let chars = Array(text)
        var i = 0
        var result = Transform3D.identity
        func skipSeparators() {
            while i < chars.count, chars[i].isWhitespace || chars[i] == "," { i += 1 }
        }
        skipSeparators()
        while i < chars.count {
            let nameStart = i
            while i < chars.count, chars[i].isLetter { i += 1 }
            let name = String(chars[nameStart..<i])
            while i < chars.count, chars[i].isWhitespace { i += 1 }
            guard !name.isEmpty, i < chars.count, chars[i] == "(" else {
                throw SVGError("transform '\(text)': expected a function such as translate(x, y) at character \(nameStart + 1)")
            }
            guard let close = chars[i...].firstIndex(of: ")") else {
                throw SVGError("transform '\(text)': '\(name)(' is not closed")
            }
            let arguments: [Double]
            do { arguments = try SVGPathData.numbers(String(chars[(i + 1)..<close])) } catch {
                throw SVGError("transform '\(text)': \(name)'s arguments: \(error.message)")
            }
            // Each next function is nested inside the ones before it: it applies first.
            result = try function(name, arguments, in: text).concatenating(result)
            i = close + 1
            skipSeparators()
        }
        return result
    }

    /// The matrix of one function, its arguments counted as SVG allows them.
    static func function(_ name: String, _ a: [Double], in text: String) throws(SVGError) -> Transform3D {
        func count(_ allowed: Int...) throws(SVGError) {
            guard allowed.contains(a.count) else {
                let counts = allowed.map(String.init).joined(separator: " or ")
                throw SVGError("transform '\(text)': \(name) takes \(counts) numbers, found \(a.count)")
            }
        }
        let degrees = Double.pi / 180
        switch name {
        case "matrix":
            try count(6)
            // matrix(a b c d e f) maps (x, y) to (a x + c y + e, b x + d y + f).
            return affine(a[0], a[1], a[2], a[3], a[4], a[5])
        case "translate":
            try count(1, 2)
            return .translation(a[0], a.count == 2 ? a[1] : 0)
        case "scale":
            try count(1, 2)
            return .scale(a[0], a.count == 2 ? a[1] : a[0])
        case "rotate":
            try count(1, 3)
            let turn = Transform3D.rotation(a[0] * degrees, 0, 0, 1)
            guard a.count == 3 else { return turn }
            // rotate(a, cx, cy) = translate(cx, cy) rotate(a) translate(−cx, −cy).
            return Transform3D.translation(-a[1], -a[2]).concatenating(turn).concatenating(.translation(a[1], a[2]))
        case "skewX":
            try count(1)
            return affine(1, 0, tan(a[0] * degrees), 1, 0, 0)
        case "skewY":
            try count(1)
            return affine(1, tan(a[0] * degrees), 0, 1, 0, 0)
        default:
            throw SVGError("transform '\(text)': unknown function '\(name)' (matrix, translate, scale, rotate, skewX, skewY)")
        }
    }

    /// SVG's matrix(a b c d e f) in Transform3D's row-vector layout.
    public static func affine(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m11 = a; t.m12 = b; t.m21 = c; t.m22 = d; t.m41 = e; t.m42 = f
        return t
    }
}
