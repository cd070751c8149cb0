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
    /// Properties driven by expressions, in dependency order.
    public var bindings: [ExpressionBinding] = []
    /// Layer ids and where they stand in the tree (for references).
    public var layerIDs: [String: LayerAddress] = [:]
    /// The physics of section 6, when the file has a `dynamics:` block.
    public var dynamics: DynamicsSpec? = nil
    /// The physics the scene runs: its `dynamics:` block, or an empty one when it has
    /// events (they may add behaviors); nil when its frames are the timeline's alone.
    public var physics: DynamicsSpec? { dynamics ?? (events.isEmpty ? nil : DynamicsSpec()) }
    /// Animations of behavior properties, in file order.
    public var behaviorAnimations: [BehaviorAnimation] = []
    /// The events of section 7, in file order.
    public var events: [SceneEvent] = []
    /// Every image asset the scene uses (PNG and SVG contents), resolved to file paths:
    /// what the renderer decodes.
    public var assets: Set<String>
    /// The files the scene's geometry was read from (`path: {svg: FILE}`), resolved.
    public var importedFiles: Set<String> = []
    /// Every file besides the scene file that its frames depend on, sorted: what the
    /// preview watches and `batch` compares dates with.
    public var inputFiles: [String] { assets.union(importedFiles).sorted() }
    /// Where each value was written (nil for a scene built in code).
    public var sourceMap: SourceMap? = nil

    /// The most layers a frame may have once replicators are expanded (`SceneLimits`).
    public var maxLayerInstances = SceneLimits().maxLayerInstances

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
    /// `appearance`: the light or dark values of the semantic and system colors.
    public var appearance: Appearance = .light

    public init(size: Size, duration: Double) { self.size = size; self.duration = duration }

    /// Never traps: a count too large for an `Int` (the loader and the CLI refuse it with
    /// ``SceneLimits/timingProblem(duration:fps:)`` first) reads as `Int.max`.
    public var frameCount: Int {
        let n = (duration * fps).rounded()
        return n < 9e18 ? max(1, Int(n)) : n.isNaN ? 1 : Int.max
    }
}

/// The `golden:` block of section 8.
public struct GoldenSpec: Sendable {
    public enum FrameRef: Hashable, Sendable { case index(Int), last }
    /// The frames listed; nil when `frames` is absent (the CLI then spreads frames over
    /// the timeline).
    public var frames: [FrameRef]? = nil
    public var scale: Double = 1
    /// Per-channel difference allowed (0–255).
    public var channelTolerance: Int = 8
    /// Share of pixels (0…1) that may exceed the channel tolerance.
    /// Default 0: any pixel beyond the channel tolerance fails (output is deterministic).
    public var pixelTolerance: Double = 0
    /// Whether the presentation state of every frame is a golden too (`state`, default on).
    public var state = true
    /// Whether a downscaled grid of every frame is a golden too (`filmstrip`, default off).
    public var filmstrip = false
    public init() {}
}

/// Where a layer sits in the tree: indices from the root list down through `sublayers`,
/// with `LayerAddress.mask` stepping into a layer's mask.
public struct LayerAddress: Hashable, Sendable {
    public var indices: [Int]
    public init(_ indices: [Int]) { self.indices = indices }

    /// The step from a layer to its mask layer.
    public static let mask = -1
}

extension Array where Element == Layer {
    /// The layer at `address`.
    public subscript(address: LayerAddress) -> Layer? {
        guard let first = address.indices.first, indices.contains(first) else { return nil }
        var layer = self[first]
        for step in address.indices.dropFirst() {
            if step == LayerAddress.mask {
                guard let mask = layer.mask else { return nil }
                layer = mask
            } else {
                guard layer.sublayers.indices.contains(step) else { return nil }
                layer = layer.sublayers[step]
            }
        }
        return layer
    }

    /// The clock of the layer at `address`: every `LayerTiming` from the root down to it
    /// (a mask runs in its layer's time).
    public func clock(at address: LayerAddress) -> LayerClock {
        guard let first = address.indices.first, indices.contains(first) else { return .scene }
        var layer = self[first]
        var clock = LayerClock.scene.then(layer.timing)
        for step in address.indices.dropFirst() {
            if step == LayerAddress.mask {
                guard let mask = layer.mask else { break }
                layer = mask
            } else {
                guard layer.sublayers.indices.contains(step) else { break }
                layer = layer.sublayers[step]
            }
            clock = clock.then(layer.timing)
        }
        return clock
    }

    /// Changes the layer at `address` in place.
    public mutating func modify(at address: LayerAddress, _ body: (inout Layer) -> Void) {
        guard let first = address.indices.first, indices.contains(first) else { return }
        self[first].modify(at: address.indices.dropFirst(), body)
    }
}

extension Layer {
    fileprivate mutating func modify(at path: ArraySlice<Int>, _ body: (inout Layer) -> Void) {
        guard let step = path.first else { return body(&self) }
        if step == LayerAddress.mask {
            guard var m = mask else { return }
            m.modify(at: path.dropFirst(), body)
            mask = m
        } else if sublayers.indices.contains(step) {
            sublayers[step].modify(at: path.dropFirst(), body)
        }
    }
}
