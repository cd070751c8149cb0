import KineticGeometry

/// A shape layer whose `path` is a named Bezier shape (`path: {shape: NAME, …}`): the
/// parameters are the animatable state (`path.PARAM`), and the path, the control-point
/// overlay and the flags (`broken`, `connected`) are rebuilt from them every frame.
public struct NamedShapeState: Equatable, Sendable {
    public var shape: NamedShape
    public var parameters: [String: AnimatableValue]
    /// The gooey circle's debug drawing when `showControlPoints` is on.
    public var controlPoints: ControlPointsOverlay?
    public var flags: [String: Bool] = [:]

    public init(shape: NamedShape, parameters: [String: AnimatableValue]) {
        self.shape = shape; self.parameters = parameters
    }

    /// The value the shape uses for `parameter` now: the one set (by the file, an
    /// animation or an expression), else its default. What `ID.path.PARAM` reads.
    public func value(of parameter: String) -> AnimatableValue? {
        shape.value(of: parameter, in: parameters)
    }

    /// The parameter's kind, for checking animation values.
    public func kind(of parameter: String) -> AnimatableValue.Kind? {
        shape.parameters.first { $0.name == parameter }.map { p in
            switch p.kind {
            case .number: .number
            case .point: .point
            case .size: .size
            case .rect: .rect
            case .bool: .bool
            }
        }
    }
}

extension ShapeStyle {
    /// Rebuilds `path` from the named shape's parameters; a parameter set the shape
    /// rejects (an animation driving it out of range) leaves the previous path.
    public mutating func updateNamedShape() {
        guard var state = namedShape, let geometry = try? state.shape.geometry(parameters: state.parameters) else { return }
        path = geometry.path
        state.controlPoints = geometry.controlPoints
        state.flags = geometry.flags
        namedShape = state
    }
}

extension Layer {
    /// Rebuilds every named shape of the subtree (after animations and expressions).
    public mutating func updateNamedShapes() {
        if shape?.namedShape != nil { shape?.updateNamedShape() }
        for i in sublayers.indices { sublayers[i].updateNamedShapes() }
    }
}
