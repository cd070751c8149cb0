/// One drawing command of a `BezierPath`, in the path's own coordinates.
///
/// Arcs of SVG data and of primitives are converted to cubic curves when the path is
/// built, so every path is lines, quadratics and cubics — what Cairo draws, what
/// `inspect` prints and what path animations interpolate control point by control point.
public enum PathElement: Hashable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quadCurve(to: Point, control: Point)
    case curve(to: Point, control1: Point, control2: Point)
    case close

    /// The element's kind, ignoring coordinates: what must match for two paths to
    /// interpolate.
    public var kind: Kind {
        switch self {
        case .move: .move
        case .line: .line
        case .quadCurve: .quadCurve
        case .curve: .curve
        case .close: .close
        }
    }

    public enum Kind: String, Hashable, Sendable { case move = "M", line = "L", quadCurve = "Q", curve = "C", close = "Z" }

    /// The element's points in order (controls first, end point last).
    public var points: [Point] {
        switch self {
        case .move(let p), .line(let p): [p]
        case .quadCurve(let p, let c): [c, p]
        case .curve(let p, let c1, let c2): [c1, c2, p]
        case .close: []
        }
    }
}

/// A path as UIBezierPath/CGPath: a sequence of subpaths built from elements.
public struct BezierPath: Hashable, Sendable {
    public var elements: [PathElement]

    public init(_ elements: [PathElement] = []) { self.elements = elements }

    public var isEmpty: Bool { elements.isEmpty }

    /// The sequence of element kinds; two paths interpolate only when these are equal.
    public var structure: [PathElement.Kind] { elements.map(\.kind) }

    public mutating func move(to p: Point) { elements.append(.move(to: p)) }
    public mutating func addLine(to p: Point) { elements.append(.line(to: p)) }
    public mutating func addQuadCurve(to p: Point, control c: Point) { elements.append(.quadCurve(to: p, control: c)) }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        elements.append(.curve(to: p, control1: c1, control2: c2))
    }
    public mutating func close() { elements.append(.close) }
    public mutating func append(_ other: BezierPath) { elements += other.elements }

    /// Every point mapped through `f` (controls included), the structure unchanged.
    public func mapPoints(_ f: (Point) -> Point) -> BezierPath {
        BezierPath(elements.map { e in
            switch e {
            case .move(let p): .move(to: f(p))
            case .line(let p): .line(to: f(p))
            case .quadCurve(let p, let c): .quadCurve(to: f(p), control: f(c))
            case .curve(let p, let c1, let c2): .curve(to: f(p), control1: f(c1), control2: f(c2))
            case .close: .close
            }
        })
    }

    /// The path through `transform` (perspective divide included).
    public func applying(_ transform: Transform3D) -> BezierPath { mapPoints(transform.apply(to:)) }

    public var isFinite: Bool { elements.allSatisfy { $0.points.allSatisfy(\.isFinite) } }
}
