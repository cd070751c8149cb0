/// A value an animation can carry: the typed payload of `from`, `to`, `by`, `values`,
/// `set:` and of every animatable key path. Kept here, below both the layer model and
/// the animation engine, so neither has to know the other.
public enum AnimatableValue: Hashable, Sendable {
    case number(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    case transform(Transform3D)
    case path(BezierPath)
    case colors([Color])
    case numbers([Double])
    case bool(Bool)
    /// An image asset by resolved file path, or nil for no contents.
    case image(String?)

    /// What kind of value this is, for checking an animation against its key path.
    public var kind: Kind {
        switch self {
        case .number: .number
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .path: .path
        case .colors: .colors
        case .numbers: .numbers
        case .bool: .bool
        case .image: .image
        }
    }

    public enum Kind: String, Hashable, Sendable {
        case number, point, size, rect, color, transform, path, colors, numbers, bool, image

        /// Discrete kinds switch at the half-way point instead of blending, as CA does
        /// for `hidden` and `contents`.
        public var isDiscrete: Bool { self == .bool || self == .image }
    }

    public var number: Double? { if case .number(let v) = self { v } else { nil } }
    public var point: Point? { if case .point(let v) = self { v } else { nil } }
}
