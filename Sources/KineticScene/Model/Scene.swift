import KineticGeometry
import KineticLayers
import KineticAnimation

/// A loaded, validated scene file: the runtime model every frame is computed from.
public struct Scene: Sendable {
    /// The scene file's path as given.
    public var file: String
    public var settings: SceneSettings
    /// Root layers, back to front, with model values.
    public var layers: [Layer]
    /// Animations in file order (later ones win on the same key path, as in CA).
    public var animations: [AnimationSpec]
    public var golden: GoldenSpec
    /// The physics of section 6, when the file has a `dynamics:` block.
    public var dynamics: DynamicsSpec? = nil
    /// The events of section 7, in file order.
    public var events: [SceneEvent] = []
    /// Every image asset the scene uses, resolved to file paths.
    public var assets: Set<String>

    /// `round(duration × fps)` frames; frame `i` shows time `i / fps`.
    public var frameCount: Int { settings.frameCount }
}

/// The `scene:` block of section 2.
public struct SceneSettings: Sendable {
    public var size: Size
    public var scale: Double = 2
    public var fps: Double = 50
    public var duration: Double
    public var background: Background = .color(.white)
    public var seed: UInt64 = 1

    public init(size: Size, duration: Double) { self.size = size; self.duration = duration }

    public var frameCount: Int { max(1, Int((duration * fps).rounded())) }
}

/// The `golden:` block of section 8.
public struct GoldenSpec: Sendable {
    public enum FrameRef: Hashable, Sendable { case index(Int), last }
    public var frames: [FrameRef] = [.index(0), .last]
    public var scale: Double = 1
    /// Per-channel difference allowed (0–255).
    public var channelTolerance: Int = 8
    /// Share of pixels (0…1) that may exceed the channel tolerance.
    public var pixelTolerance: Double = 0.005
    public init() {}
}

/// Where a layer sits in the tree: indices from the root list down through `sublayers`.
public struct LayerAddress: Hashable, Sendable {
    public var indices: [Int]
    public init(_ indices: [Int]) { self.indices = indices }
}

extension Array where Element == Layer {
    /// The layer at `address`.
    public subscript(address: LayerAddress) -> Layer? {
        var list = self
        var found: Layer?
        for i in address.indices {
            guard list.indices.contains(i) else { return nil }
            found = list[i]
            list = list[i].sublayers
        }
        return found
    }

    /// Changes the layer at `address` in place.
    public mutating func modify(at address: LayerAddress, _ body: (inout Layer) -> Void) {
        modify(at: address.indices[...], body)
    }

    private mutating func modify(at path: ArraySlice<Int>, _ body: (inout Layer) -> Void) {
        guard let first = path.first, indices.contains(first) else { return }
        if path.count == 1 { body(&self[first]) } else { self[first].sublayers.modify(at: path.dropFirst(), body) }
    }
}
