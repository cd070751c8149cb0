import Foundation

/// An SVG viewport's user space: the `viewBox` and `preserveAspectRatio` of an `<svg>`
/// element (SVG 1.1 §7.7–7.8) mapped into a rectangle.
public struct SVGViewBox: Hashable, Sendable {
    public var rect: Rect
    public var aspectRatio: SVGAspectRatio

    public init(_ rect: Rect, aspectRatio: SVGAspectRatio = SVGAspectRatio()) {
        self.rect = rect; self.aspectRatio = aspectRatio
    }

    /// The `viewBox` and `preserveAspectRatio` of `element`; nil when it has no viewBox.
    /// - Throws: a viewBox that is not four numbers, or whose width or height is not
    ///   positive (which SVG says disables rendering: nothing to import).
    public init?(of element: SVGElement) throws(SVGError) {
        guard let text = element["viewBox"] else { return nil }
        let v: [Double]
        do { v = try SVGPathData.numbers(text) } catch {
            throw SVGError("viewBox '\(text)': \(error.message)", line: element.line)
        }
        guard v.count == 4 else { throw SVGError("viewBox '\(text)' must be 4 numbers: x y width height", line: element.line) }
        guard v[2] > 0, v[3] > 0 else {
            throw SVGError("viewBox '\(text)' has no area (its width and height must be positive)", line: element.line)
        }
        let ratio: SVGAspectRatio
        do { ratio = try element["preserveAspectRatio"].map(SVGAspectRatio.init(parsing:)) ?? SVGAspectRatio() } catch {
            throw SVGError(error.message, line: element.line)
        }
        self.init(Rect(v[0], v[1], v[2], v[3]), aspectRatio: ratio)
    }

    /// The matrix taking viewBox coordinates into `viewport`.
    public func transform(into viewport: Rect) -> Transform3D {
        var sx = viewport.width / rect.width, sy = viewport.height / rect.height
        if let align = aspectRatio.align {
            let s = aspectRatio.slice ? max(sx, sy) : min(sx, sy)
            sx = s; sy = s
            // The scaled box is placed by the alignment: 0 min, ½ mid, 1 max.
            let tx = viewport.minX - rect.minX * s + (viewport.width - rect.width * s) * align.x
            let ty = viewport.minY - rect.minY * s + (viewport.height - rect.height * s) * align.y
            return SVGTransformList.affine(s, 0, 0, s, tx, ty)
        }
        return SVGTransformList.affine(sx, 0, 0, sy, viewport.minX - rect.minX * sx, viewport.minY - rect.minY * sy)
    }
}

/// `preserveAspectRatio`: the alignment (nil for `none`: stretch each axis) and
/// `meet` (fit inside, the default) or `slice` (cover).
public struct SVGAspectRatio: Hashable, Sendable {
    /// Where the scaled viewBox sits on each axis: 0 min, 0.5 mid, 1 max.
    public var align: Point?
    public var slice: Bool

    /// SVG's default, `xMidYMid meet`.
    public init(align: Point? = Point(0.5, 0.5), slice: Bool = false) { self.align = align; self.slice = slice }

    public init(parsing text: String) throws(SVGError) {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.first == "defer" { words.removeFirst() }
        guard let first = words.first, words.count <= 2 else {
            throw SVGError("preserveAspectRatio '\(text)': expected an alignment such as xMidYMid, then meet or slice")
        }
        let slice: Bool
        switch words.count == 2 ? words[1] : "meet" {
        case "meet": slice = false
        case "slice": slice = true
        case let other: throw SVGError("preserveAspectRatio '\(text)': '\(other)' is neither meet nor slice")
        }
        if first == "none" { self.init(align: nil, slice: slice); return }
        let positions: [String: Double] = ["Min": 0, "Mid": 0.5, "Max": 1]
        guard first.count == 8, first.hasPrefix("x"), first.dropFirst(4).hasPrefix("Y"),
              let x = positions[String(first.dropFirst(1).prefix(3))],
              let y = positions[String(first.dropFirst(5))] else {
            throw SVGError("preserveAspectRatio '\(text)': unknown alignment '\(first)' (none, or xMinYMin … xMaxYMax)")
        }
        self.init(align: Point(x, y), slice: slice)
    }
}

/// An SVG length attribute (`12`, `12px`, `2mm`, `50%`) in user units, CSS's absolute
/// units at 96 px to the inch as SVG defines them. One user unit is one point in Kinetic.
public enum SVGLength {
    static let unitsPerPixel: [String: Double] = [
        "": 1, "px": 1, "pt": 4.0 / 3, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96, "q": 96 / 101.6,
    ]

    /// - Parameter percentOf: what 100 % is (the viewport's width, height or normalized
    ///   diagonal, per attribute).
    public static func parse(_ text: String, percentOf reference: Double, attribute: String) throws(SVGError) -> Double {
        let t = text.trimmingCharacters(in: .whitespaces)
        var end = t.endIndex
        while end > t.startIndex, let c = t[t.index(before: end)].unicodeScalars.first,
              CharacterSet.letters.contains(c) || c == "%" {
            end = t.index(before: end)
        }
        let unit = t[end...].lowercased()
        guard let value = Double(t[..<end]), value.isFinite else {
            throw SVGError("\(attribute)='\(text)' is not a length")
        }
        if unit == "%" { return value / 100 * reference }
        guard let scale = unitsPerPixel[unit] else {
            throw SVGError("\(attribute)='\(text)': unit '\(unit)' is not supported (px, pt, pc, mm, cm, in, Q or %)")
        }
        return value * scale
    }
}

extension SVGElement {
    /// The size in points an `<svg>` element draws at by itself, as librsvg sizes it: its
    /// `width` and `height` when both are absolute lengths, else its viewBox's size; nil
    /// with neither.
    public func intrinsicSize() throws(SVGError) -> Size? {
        func side(_ name: String) throws(SVGError) -> Double? {
            guard let text = self[name], !text.trimmingCharacters(in: .whitespaces).hasSuffix("%") else { return nil }
            do { return try SVGLength.parse(text, percentOf: 0, attribute: name) } catch {
                throw SVGError(error.message, line: line)
            }
        }
        if let w = try side("width"), let h = try side("height"), w > 0, h > 0 { return Size(w, h) }
        return try SVGViewBox(of: self)?.rect.size
    }
}
