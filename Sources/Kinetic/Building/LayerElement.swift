/// A layer of a built scene. Every key the scene format has for the layer's type is a
/// chained setter by its own name — `ShapeLayer("ring").strokeEnd(0).lineWidth(4)` — so
/// the property model (docs/scene-format.md) is the one list of names; a misspelled key
/// is reported by the loader, located, as in a file.
public protocol LayerElement: SceneElement {}

extension LayerElement {
    /// A copy with these sublayers, drawn in order over the layer.
    public func sublayers(@LayerListBuilder _ layers: () -> [any LayerElement]) -> Self {
        setting("sublayers", .list(layers().map(\.value)))
    }
}

/// Builds a list of layers from statements, as SwiftUI builds views.
@resultBuilder
public enum LayerListBuilder {
    public static func buildExpression(_ layer: any LayerElement) -> [any LayerElement] { [layer] }
    public static func buildBlock(_ parts: [any LayerElement]...) -> [any LayerElement] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any LayerElement]?) -> [any LayerElement] { part ?? [] }
    public static func buildEither(first part: [any LayerElement]) -> [any LayerElement] { part }
    public static func buildEither(second part: [any LayerElement]) -> [any LayerElement] { part }
    public static func buildArray(_ parts: [[any LayerElement]]) -> [any LayerElement] { parts.flatMap { $0 } }
}

/// A plain layer (`CALayer`).
public struct Layer: LayerElement {
    public var settings: [(String, SceneValue)]
    /// A layer named `id` (what animations, behaviors and `inspect` call it); without
    /// one it is known by its place, such as `layers[0]`.
    public init(_ id: String? = nil) { settings = id.map { [("id", .string($0))] } ?? [] }
}

/// A shape layer (`CAShapeLayer`): a path filled and stroked.
public struct ShapeLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "shape")] }
}

/// A text layer (`CATextLayer`).
public struct TextLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "text")] }
}

/// A gradient layer (`CAGradientLayer`).
public struct GradientLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "gradient")] }
}

/// A replicator layer (`CAReplicatorLayer`).
public struct ReplicatorLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "replicator")] }
}

/// An emitter layer (`CAEmitterLayer`).
public struct EmitterLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "emitter")] }
}

/// A layer showing an image (`CALayer` with `contents`, which it requires): a PNG, JPEG
/// or SVG file, found relative to the scene.
public struct ImageLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "image")] }
}

/// A transform layer (`CATransformLayer`): its sublayers share its 3D space and are drawn
/// back to front by depth.
public struct TransformLayer: LayerElement {
    public var settings: [(String, SceneValue)]
    public init(_ id: String? = nil) { settings = (id.map { [("id", .string($0))] } ?? []) + [("type", "transformLayer")] }
}
