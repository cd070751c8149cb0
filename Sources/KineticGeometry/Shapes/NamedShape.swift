import Foundation

/// The named Bezier shapes of scene-format §3.1 (`path: {shape: NAME, …}`), built from
/// a dictionary of parameter values so the scene loader can rebuild a shape every frame
/// from animated (`path.PARAM`) or expression-driven parameters.
public enum NamedShape: String, CaseIterable, Hashable, Sendable {
    case gooeyCircle, gooeyMenu, slideMenuEdge, stickyBubble, liquidBridge, pullRefreshArrows, checkmark

    /// Each shape's parameters, in the contract's order, with their kinds and defaults.
    /// A parameter without a default is required.
    public var parameters: [ShapeParameter] {
        switch self {
        case .gooeyCircle:
            [.init("center", .point), .init("size", .number), .init("travel", .number),
             .init("progress", .number, default: .number(0.5)),
             .init("showControlPoints", .bool, default: .bool(false))]
        case .gooeyMenu:
            [.init("rect", .rect), .init("inset", .number, default: .number(GooeyMenu.defaultInset)),
             .init("xAxisPercent", .number, default: .number(0)),
             .init("state", .number, default: .number(1))]
        case .slideMenuEdge:
            [.init("width", .number), .init("height", .number),
             .init("extraArea", .number, default: .number(SlideMenuEdge.defaultExtraArea)),
             .init("diff", .number, default: .number(0))]
        case .stickyBubble:
            [.init("from", .point), .init("radius", .number), .init("to", .point),
             .init("toRadius", .number, default: nil, defaultsTo: "radius"),
             .init("viscosity", .number, default: .number(StickyBubble.defaultViscosity))]
        case .liquidBridge:
            [.init("from", .point), .init("fromRadius", .number), .init("to", .point), .init("toRadius", .number),
             .init("threshold", .number),
             .init("angleThreshold", .number, default: .number(LiquidBridge.defaultAngleThreshold))]
        case .pullRefreshArrows:
            [.init("size", .size), .init("progress", .number, default: .number(0)),
             .init("radius", .number, default: .number(PullRefreshArrows.defaultRadius)),
             .init("lineLength", .number, default: .number(PullRefreshArrows.defaultLineLength)),
             .init("space", .number, default: .number(PullRefreshArrows.defaultSpace))]
        case .checkmark:
            [.init("rect", .rect)]
        }
    }

    /// Shape name → its parameter names, in the contract's order.
    public static let parameterNames: [String: [String]] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.parameters.map(\.name)) })

    /// The parameter called `name`, or nil when the shape has none.
    public func parameter(_ name: String) -> ShapeParameter? {
        parameters.first { $0.name == name }
    }

    /// The value the shape uses for parameter `name` given `values`: the value given, or
    /// the parameter's default (a literal, or the value of the parameter it defaults to,
    /// as `stickyBubble.toRadius` is `radius`). Nil for an unknown or missing parameter.
    public func value(of name: String, in values: [String: AnimatableValue]) -> AnimatableValue? {
        try? ParameterReader(shape: self, values: values).value(name)
    }

    /// The shape called `name`, or `NamedShapeError.unknownShape`.
    public init(name: String) throws(NamedShapeError) {
        guard let shape = NamedShape(rawValue: name) else {
            throw .unknownShape(name, known: NamedShape.allCases.map(\.rawValue))
        }
        self = shape
    }

    /// The shape's path for `parameters` (see `geometry(parameters:)`).
    public func path(parameters: [String: AnimatableValue]) throws(NamedShapeError) -> BezierPath {
        try geometry(parameters: parameters).path
    }

    /// The shape built from `parameters`: its path, the gooey circle's control-point
    /// overlay when `showControlPoints` is on, and the shape's flags.
    ///
    /// Values are checked against `parameters`: a point, size or rect may also be given
    /// as `.numbers` of 2, 2 or 4 components, a bool as a number (non-zero is true).
    /// `gooeyMenu.state` is rounded to the nearest integer (so an animated state
    /// switches half-way) and must then be 1, 2 or 3; `stickyBubble.viscosity` must be
    /// positive; lengths (radii, `size`, `width`, `height`, `lineLength`) must not be
    /// negative; every number must be finite.
    ///
    /// - Throws: the first problem found, checking unknown names first, then each
    ///   parameter in order.
    public func geometry(parameters values: [String: AnimatableValue]) throws(NamedShapeError) -> NamedShapeGeometry {
        let known = parameters.map(\.name)
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw .unknownParameter(shape: self, name: unknown, allowed: known)
        }
        let reader = ParameterReader(shape: self, values: values)
        switch self {
        case .gooeyCircle:
            let circle = GooeyCircle(center: try reader.point("center"), size: try reader.length("size"),
                                     travel: try reader.number("travel"), progress: try reader.number("progress"),
                                     showControlPoints: try reader.bool("showControlPoints"))
            return NamedShapeGeometry(path: circle.path,
                                      controlPoints: circle.showControlPoints ? .init(circle) : nil)
        case .gooeyMenu:
            let number = try reader.number("state").rounded()
            guard let state = GooeyMenu.AnimationState(rawValue: Int(exactly: number) ?? 0) else {
                throw .invalidValue(shape: self, name: "state", reason: "must be 1, 2 or 3")
            }
            return NamedShapeGeometry(path: GooeyMenu(rect: try reader.rect("rect"), inset: try reader.number("inset"),
                                                      xAxisPercent: try reader.number("xAxisPercent"),
                                                      state: state).path)
        case .slideMenuEdge:
            return NamedShapeGeometry(path: SlideMenuEdge(width: try reader.length("width"),
                                                          height: try reader.length("height"),
                                                          extraArea: try reader.number("extraArea"),
                                                          diff: try reader.number("diff")).path)
        case .stickyBubble:
            let viscosity = try reader.number("viscosity")
            guard viscosity > 0 else { throw .invalidValue(shape: self, name: "viscosity", reason: "must be positive") }
            let bubble = StickyBubble(from: try reader.point("from"), radius: try reader.length("radius"),
                                      to: try reader.point("to"), toRadius: try reader.length("toRadius"),
                                      viscosity: viscosity)
            return NamedShapeGeometry(path: bubble.path, flags: ["broken": bubble.isBroken])
        case .liquidBridge:
            let bridge = LiquidBridge(from: try reader.point("from"), fromRadius: try reader.length("fromRadius"),
                                      to: try reader.point("to"), toRadius: try reader.length("toRadius"),
                                      threshold: try reader.number("threshold"),
                                      angleThreshold: try reader.number("angleThreshold"))
            return NamedShapeGeometry(path: bridge.path, flags: ["connected": bridge.isConnected])
        case .pullRefreshArrows:
            return NamedShapeGeometry(path: PullRefreshArrows(size: try reader.size("size"),
                                                              progress: try reader.number("progress"),
                                                              radius: try reader.length("radius"),
                                                              lineLength: try reader.length("lineLength"),
                                                              space: try reader.number("space")).path)
        case .checkmark:
            return NamedShapeGeometry(path: Checkmark(rect: try reader.rect("rect")).path)
        }
    }
}

/// One parameter of a named shape.
public struct ShapeParameter: Hashable, Sendable {
    /// What a parameter holds; also what `path.PARAM` animates.
    public enum Kind: String, Hashable, Sendable { case number, point, size, rect, bool }

    public var name: String
    public var kind: Kind
    /// The value used when the parameter is absent, if it may be.
    public var defaultValue: AnimatableValue?
    /// Another parameter whose value is used when this one is absent (a sticky
    /// bubble's `toRadius` defaults to its `radius`, as both bubbles start equal).
    public var defaultParameter: String?

    /// Required unless it has a default value or a default parameter.
    public var isRequired: Bool { defaultValue == nil && defaultParameter == nil }

    init(_ name: String, _ kind: Kind, default value: AnimatableValue? = nil, defaultsTo other: String? = nil) {
        self.name = name; self.kind = kind; defaultValue = value; defaultParameter = other
    }
}

/// What a named shape produced.
public struct NamedShapeGeometry: Hashable, Sendable {
    /// The shape's path, in the layer's coordinates.
    public var path: BezierPath
    /// The gooey circle's debug drawing, present when its `showControlPoints` is on.
    public var controlPoints: ControlPointsOverlay?
    /// Boolean facts about the shape that expressions can read as `ID.path.NAME`:
    /// `broken` (sticky bubble), `connected` (liquid bridge).
    public var flags: [String: Bool]

    public init(path: BezierPath, controlPoints: ControlPointsOverlay? = nil, flags: [String: Bool] = [:]) {
        self.path = path; self.controlPoints = controlPoints; self.flags = flags
    }
}

/// The seed's control-point debug drawing, one path per drawing style: the renderer
/// strokes `outerSquare` black 1 pt dashed [5, 5], fills `pointSquares` yellow and
/// strokes `helperLines` black 1 pt dashed [2, 2] — in that order, after the shape.
public struct ControlPointsOverlay: Hashable, Sendable {
    public var outerSquare: BezierPath
    public var pointSquares: BezierPath
    public var helperLines: BezierPath

    public init(outerSquare: BezierPath, pointSquares: BezierPath, helperLines: BezierPath) {
        self.outerSquare = outerSquare; self.pointSquares = pointSquares; self.helperLines = helperLines
    }

    /// The overlay of `circle`.
    public init(_ circle: GooeyCircle) {
        self.init(outerSquare: circle.outerSquare, pointSquares: circle.pointSquares, helperLines: circle.helperLines)
    }
}

/// A problem building a named shape, precise enough for the loader to report it at
/// the offending key.
public enum NamedShapeError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownShape(String, known: [String])
    case missingParameter(shape: NamedShape, name: String)
    case unknownParameter(shape: NamedShape, name: String, allowed: [String])
    case wrongType(shape: NamedShape, name: String, expected: ShapeParameter.Kind, found: AnimatableValue.Kind)
    case invalidValue(shape: NamedShape, name: String, reason: String)

    public var description: String {
        switch self {
        case .unknownShape(let name, let known):
            "unknown shape '\(name)' (shapes: \(known.joined(separator: ", ")))"
        case .missingParameter(let shape, let name):
            "shape \(shape.rawValue) needs '\(name)'"
        case .unknownParameter(let shape, let name, let allowed):
            "shape \(shape.rawValue) has no parameter '\(name)' (parameters: \(allowed.joined(separator: ", ")))"
        case .wrongType(let shape, let name, let expected, let found):
            "\(shape.rawValue).\(name) must be a \(expected.rawValue), not a \(found.rawValue)"
        case .invalidValue(let shape, let name, let reason):
            "\(shape.rawValue).\(name) \(reason)"
        }
    }
}

/// Reads one shape's parameters by name, applying defaults and checking kinds.
private struct ParameterReader {
    let shape: NamedShape
    let values: [String: AnimatableValue]

    /// The given value, or the parameter's default (a literal or another parameter's).
    func value(_ name: String) throws(NamedShapeError) -> AnimatableValue {
        if let value = values[name] { return value }
        let spec = shape.parameters.first { $0.name == name }
        if let fallback = spec?.defaultValue { return fallback }
        if let other = spec?.defaultParameter { return try value(other) }
        throw .missingParameter(shape: shape, name: name)
    }

    func number(_ name: String) throws(NamedShapeError) -> Double {
        guard case .number(let v) = try value(name) else { throw mismatch(name, .number) }
        return try finite(name, [v])[0]
    }

    /// A length — a radius, a side — which must not be negative (section 9).
    func length(_ name: String) throws(NamedShapeError) -> Double {
        let v = try number(name)
        guard v >= 0 else { throw .invalidValue(shape: shape, name: name, reason: "must not be negative") }
        return v
    }

    func bool(_ name: String) throws(NamedShapeError) -> Bool {
        switch try value(name) {
        case .bool(let b): return b
        case .number(let v): return v != 0
        default: throw mismatch(name, .bool)
        }
    }

    func point(_ name: String) throws(NamedShapeError) -> Point {
        let c: [Double]
        switch try value(name) {
        case .point(let p): c = [p.x, p.y]
        case .numbers(let n) where n.count == 2: c = n
        default: throw mismatch(name, .point)
        }
        let v = try finite(name, c)
        return Point(v[0], v[1])
    }

    func size(_ name: String) throws(NamedShapeError) -> Size {
        let c: [Double]
        switch try value(name) {
        case .size(let s): c = [s.width, s.height]
        case .numbers(let n) where n.count == 2: c = n
        default: throw mismatch(name, .size)
        }
        let v = try finite(name, c)
        return Size(v[0], v[1])
    }

    func rect(_ name: String) throws(NamedShapeError) -> Rect {
        let c: [Double]
        switch try value(name) {
        case .rect(let r): c = [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .numbers(let n) where n.count == 4: c = n
        default: throw mismatch(name, .rect)
        }
        let v = try finite(name, c)
        return Rect(v[0], v[1], v[2], v[3])
    }

    private func mismatch(_ name: String, _ expected: ShapeParameter.Kind) -> NamedShapeError {
        // `value` has already succeeded for `name` when this is called.
        let found = values[name]?.kind ?? .number
        return .wrongType(shape: shape, name: name, expected: expected, found: found)
    }

    private func finite(_ name: String, _ components: [Double]) throws(NamedShapeError) -> [Double] {
        guard components.allSatisfy(\.isFinite) else {
            throw .invalidValue(shape: shape, name: name, reason: "must be finite")
        }
        return components
    }
}
