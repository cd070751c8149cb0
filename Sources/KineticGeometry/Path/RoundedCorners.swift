/// CALayer.cornerCurve: how a rounded corner bends.
public enum CornerCurve: String, Sendable, CaseIterable {
    /// A quarter circle of `cornerRadius` (CALayerCornerCurve.circular, the default).
    case circular
    /// The iOS squircle (CALayerCornerCurve.continuous): curvature grows gradually from
    /// the straight edge, so the corner starts about 1.53 × the radius from the corner.
    case continuous
}

/// CALayer.maskedCorners (CACornerMask): which corners `cornerRadius` rounds. In
/// UIKit's y-down points MinY is the top edge.
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    // Apple's raw values (kCALayerMinXMinYCorner = 1 << 0, …).
    public static let layerMinXMinYCorner = CornerMask(rawValue: 1 << 0)
    public static let layerMaxXMinYCorner = CornerMask(rawValue: 1 << 1)
    public static let layerMinXMaxYCorner = CornerMask(rawValue: 1 << 2)
    public static let layerMaxXMaxYCorner = CornerMask(rawValue: 1 << 3)
    public static let all: CornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner,
                                         .layerMinXMaxYCorner, .layerMaxXMaxYCorner]

    /// Apple's names, as a scene lists them.
    public static let names: [(String, CornerMask)] = [
        ("layerMinXMinYCorner", .layerMinXMinYCorner), ("layerMaxXMinYCorner", .layerMaxXMinYCorner),
        ("layerMinXMaxYCorner", .layerMinXMaxYCorner), ("layerMaxXMaxYCorner", .layerMaxXMaxYCorner),
    ]
}

/// A layer's corner rounding: `cornerRadius`, `maskedCorners` and `cornerCurve`.
public struct RoundedCorners: Hashable, Sendable {
    public var radius: Double
    public var mask: CornerMask
    public var curve: CornerCurve

    public init(radius: Double, mask: CornerMask = .all, curve: CornerCurve = .circular) {
        self.radius = radius; self.mask = mask; self.curve = curve
    }

    /// How far a continuous corner reaches along each edge, in radii: the constant of
    /// the public reverse-engineered iOS 7 rounded rectangle (PaintCode's, PixelCut's).
    public static let continuousExtent = 1.52866483

    /// How the rounded corners of `rect` are drawn.
    public enum Shape: Equatable, Sendable {
        case square
        case circular(radius: Double)
        case continuous(radius: Double)
    }

    /// The corners' shape in `rect`, with the radius clamped as UIKit clamps it: a
    /// circular corner never exceeds half the shorter side; a continuous corner needs
    /// 1.53 radii of each edge, and when half the shorter side cannot give that, UIKit
    /// draws circular corners instead (UIBezierPath(roundedRect:) changes shape once the
    /// shorter side is under about 3 × the radius), so a pill stays a pill.
    public func shape(in rect: Rect) -> Shape {
        let half = min(rect.width, rect.height) / 2
        guard radius > 0, half > 0, !mask.isEmpty else { return .square }
        if curve == .continuous, radius * Self.continuousExtent <= half { return .continuous(radius: radius) }
        return .circular(radius: min(radius, half))
    }

    /// A continuous corner in corner-local units of the radius: `(a, b)` is a back from
    /// the corner along the incoming edge and b in along the outgoing one. Three cubics
    /// joined by two short lines, mirror-symmetric about the diagonal; the middle cubic
    /// passes 0.2915 radii from each edge at the diagonal. Each entry: the line's end,
    /// then the cubic's two controls and end.
    static let continuousCorner: [(line: (Double, Double), c1: (Double, Double), c2: (Double, Double), end: (Double, Double))] = [
        ((1.52866483, 0), (1.08849323, 0), (0.86840689, 0), (0.66993427, 0.06549600)),
        ((0.63149399, 0.07491100), (0.37282392, 0.16905899), (0.16905899, 0.37282392), (0.07491100, 0.63149399)),
        ((0.06549600, 0.66993427), (0, 0.86840689), (0, 1.08849323), (0, 1.52866483)),
    ]

    /// The outline of `rect` with these corners: it starts on the top edge where the
    /// top-left corner ends and runs clockwise on screen, then closes (as
    /// `BezierPath.roundedRect`). Circular corners are 90° arcs as `addArc` draws them.
    public func path(in rect: Rect) -> BezierPath {
        let shape = shape(in: rect)
        // Corners clockwise from the top-right, each with the direction of travel into it
        // and out of it.
        let corners: [(CornerMask, Point, Point, Point)] = [
            (.layerMaxXMinYCorner, Point(rect.maxX, rect.minY), Point(1, 0), Point(0, 1)),
            (.layerMaxXMaxYCorner, Point(rect.maxX, rect.maxY), Point(0, 1), Point(-1, 0)),
            (.layerMinXMaxYCorner, Point(rect.minX, rect.maxY), Point(-1, 0), Point(0, -1)),
            (.layerMinXMinYCorner, Point(rect.minX, rect.minY), Point(0, -1), Point(1, 0)),
        ]
        func reach(_ corner: CornerMask) -> Double {
            guard mask.contains(corner) else { return 0 }
            switch shape {
            case .square: return 0
            case .circular(let r): return r
            case .continuous(let r): return r * Self.continuousExtent
            }
        }
        var path = BezierPath()
        path.move(to: Point(rect.minX + reach(.layerMinXMinYCorner), rect.minY))
        for (i, (corner, c, into, out)) in corners.enumerated() {
            func at(_ a: Double, _ b: Double, _ r: Double) -> Point { c - into * (a * r) + out * (b * r) }
            guard mask.contains(corner) else { path.addLine(to: c); continue }
            switch shape {
            case .square:
                path.addLine(to: c)
            case .circular(let r):
                path.addLine(to: at(r, 0, 1))
                let start = -Double.pi / 2 + Double(i) * .pi / 2
                path.addArc(center: at(r, r, 1), radius: r, startAngle: start, endAngle: start + .pi / 2, clockwise: true)
            case .continuous(let r):
                for piece in Self.continuousCorner {
                    path.addLine(to: at(piece.line.0, piece.line.1, r))
                    path.addCurve(to: at(piece.end.0, piece.end.1, r), control1: at(piece.c1.0, piece.c1.1, r),
                                  control2: at(piece.c2.0, piece.c2.1, r))
                }
            }
        }
        path.close()
        return path
    }
}
