import Foundation
import KineticDynamics
import KineticFiles
import KineticGeometry
import KineticLayers
import KineticXML
import Yams

/// Loads scene files (section 1–9 of the contract) into a validated `Scene`.
public enum SceneLoader {
    /// The format versions this build reads.
    public static let supportedVersions = [1]

    /// Reads and validates the file at `path`.
    /// - Throws: `SceneFileError` when the file cannot be read (exit 66), or
    ///   `SceneLoadError` with every problem found (exit 65).
    public static func load(path: String, limits: SceneLimits = SceneLimits()) throws -> Scene {
        // Through the guarded reader: a FIFO or device is refused without blocking, and a
        // file far larger than any scene before a byte of it is read.
        let bytes: [UInt8]
        do { bytes = try GuardedFile.read(path, maxBytes: limits.maxSceneFileBytes) } catch {
            throw SceneFileError(path: path, reason: error.reason + (error.isTooLarge ? " a scene file may have (from --max-memory)" : ""))
        }
        if let problem = encodingProblem(bytes, file: path) { throw SceneLoadError(problems: [problem]) }
        let text = String(decoding: bytes, as: UTF8.self)  // valid UTF-8: checked above
        let base = (path as NSString).deletingLastPathComponent
        return try load(text: text, file: path, baseDirectory: base.isEmpty ? "." : base, limits: limits)
    }

    /// Reads and validates scene text; `file` names it in messages.
    public static func load(text: String, file: String, baseDirectory: String = ".",
                            limits: SceneLimits = SceneLimits()) throws -> Scene {
        var text = text
        if file.lowercased().hasSuffix(".json") {
            // What JSON forbids (trailing commas, comments) is an error in a .json file, and
            // its surrogate-pair escapes are what the YAML parser reads.
            switch JSONSyntax.check(text) {
            case .success(let yaml): text = yaml
            case .failure(let f): throw SceneLoadError(file: file, line: f.line, column: f.column, message: f.message)
            }
        }
        let diagnostics = Diagnostics(file: file, text: text)
        let composed: Node?
        // No tag resolver: the readers tell numbers and booleans apart themselves, and Yams'
        // default one ran seven regular expressions over every mapping key it hashed for its
        // duplicate-key check (12 % of loading a 300-layer scene).
        do { composed = try Yams.compose(yaml: text, .basic) } catch let error as YamlError {
            throw SceneLoadError(problems: [syntaxProblem(error, file: file)])
        }
        guard let root = composed else {
            throw SceneLoadError(file: file, message: "the file is empty: a scene starts with 'kinetic: 1'")
        }
        // Aliases share their anchor's node, so the tree can be exponentially larger than
        // the text: it is counted (within the budget) before anything walks it.
        if let mark = nodeBudgetOverrun(root, budget: limits.maxYAMLNodes) {
            let message = "the file has more than \(limits.maxYAMLNodes) YAML nodes, aliases counted each time they are used "
                + "(the limit from --max-memory)"
            throw SceneLoadError(file: file, line: mark.line, column: mark.column, message: message)
        }
        let document = SceneNode(root)
        let top = Field(node: document, keyPath: "", diagnostics: diagnostics)
        if var scene = read(top, file: file, baseDirectory: baseDirectory, limits: limits), diagnostics.problems.isEmpty {
            scene.sourceMap = SourceMap(file: file, root: document)
            return scene
        }
        throw SceneLoadError(problems: diagnostics.problems.sorted {
            ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column)
        })
    }

    private static func read(_ top: Field, file: String, baseDirectory: String, limits: SceneLimits) -> Scene? {
        guard let m = top.mapping(allowed: SceneKeys.top.map(\.name)) else { return nil }
        // The version comes first: a file of another version is not read further.
        if let first = m.order.first, first != "kinetic" {
            m[first]?.report("the first key must be 'kinetic: 1' (the format version)")
        }
        guard let vf = m.required("kinetic"), let version = vf.integer else { return nil }
        guard supportedVersions.contains(version) else {
            vf.report("unknown format version \(version); this kinetic reads version \(supportedVersions.map(String.init).joined(separator: ", "))")
            return nil
        }
        var assetPolicy = limits.assets
        assetPolicy.maxImagePixels = min(assetPolicy.maxImagePixels, limits.maxMemory / 16)
        var layerDecoder = LayerDecoder(baseDirectory: baseDirectory, assetPolicy: assetPolicy)
        top.diagnostics.svgFiles = SVGFiles(baseDirectory: baseDirectory, policy: assetPolicy)
        let sceneFields = m.required("scene")?.mapping(allowed: SceneKeys.scene.map(\.name))
        let settings = sceneFields.flatMap { self.settings($0, decoder: layerDecoder, limits: limits) }
        if let scale = settings?.scale { layerDecoder.deviceScale = scale }
        let layers = m["layers"].map { layerDecoder.layers($0) } ?? []
        var animationDecoder = AnimationDecoder(layers: layerDecoder.ids, assets: layerDecoder, binder: layerDecoder.binder)
        let animations = m["animations"].map { animationDecoder.animations($0, layers: layers) } ?? []
        let dynamicsDecoder = DynamicsDecoder(layerIDs: layerDecoder.ids, layers: layers, binder: layerDecoder.binder)
        let dynamics = m["dynamics"].flatMap { dynamicsDecoder.dynamics($0) }
        let behaviors = dynamics?.behaviors ?? []
        let behaviorIDs = Dictionary(behaviors.map { ($0.id, $0) }) { first, _ in first }
        var eventsDecoder = EventsDecoder(dynamics: dynamicsDecoder, animations: animationDecoder,
                                          initialBehaviors: behaviorIDs)
        let events = m["events"].map { eventsDecoder.events($0) } ?? []
        let behaviorAnimations = eventsDecoder.animations.behaviorAnimations(known: behaviorIDs)
        eventsDecoder.checkAnimationStops(stopping: animations + behaviorAnimations.map(\.spec))
        let golden = m["golden"].flatMap { self.golden($0, frameCount: settings?.frameCount) } ?? GoldenSpec()
        // The dynamic items: those of the behaviors from the start and those events add.
        let added = events.flatMap(\.actions).flatMap { action -> [DynamicBehavior] in
            if case .addBehaviors(let behaviors, _, _) = action.kind { behaviors } else { [] }
        }
        let binder = layerDecoder.binder, allBehaviors = behaviors + added
        binder.rejectBindings(ofItems: Set(allBehaviors.flatMap(\.itemIDs)), layers: layerDecoder.ids)
        let bindings = binder.finish(layers: layerDecoder.ids, behaviorIDs: Set(allBehaviors.map(\.id)))
        eventsDecoder.animations.checkUnderlyingPaths(layers: layers, bindings: bindings)
        guard let settings else { return nil }
        let instances = layerInstances(layers)
        if instances > Double(limits.maxLayerInstances) {
            m["layers"]?.report("the replicators make \(Field.format(instances)) layers, over the limit of "
                                + "\(limits.maxLayerInstances) layer instances (from --max-memory)")
            return nil
        }
        var scene = Scene(file: file, settings: settings, layers: layers, animations: animations, golden: golden,
                          dynamics: dynamics, events: events,
                          assets: layerDecoder.assets.union(eventsDecoder.animations.assets.assets))
        scene.importedFiles = top.diagnostics.svgFiles.paths
        scene.maxLayerInstances = limits.maxLayerInstances
        scene.bindings = bindings
        scene.behaviorAnimations = behaviorAnimations
        scene.layerIDs = layerDecoder.ids.mapValues(\.address)
        // Without `dynamics.referenceBounds` the physics (which events may start) takes the
        // scene's size as its bounds: checked here, where it was written, as any physics value.
        if let physics = scene.physics, physics.referenceBounds == nil,
           ![settings.size.width, settings.size.height].allSatisfy(DynamicsDecoder.isWithinPhysicsRange) {
            sceneFields?["size"]?.report("the physics' reference bounds (no dynamics.referenceBounds) "
                                         + DynamicsDecoder.physicsRangeMessage)
        }
        return scene
    }

    private static func settings(_ m: Mapping, decoder: LayerDecoder, limits: SceneLimits) -> SceneSettings? {
        let f = m.owner
        // Before any color is read.
        let written = m["appearance"].flatMap { $0.choice(Appearance.self) }
        let appearance = limits.appearance ?? written ?? .light
        f.diagnostics.appearance = appearance
        var size = m.required("size")?.size
        if let s = size, !(s.width > 0 && s.height > 0) {
            m["size"]?.report("width and height must be greater than 0")
            size = nil
        }
        // Read every key before giving up, so all of their problems are reported.
        let duration = m.required("duration") == nil ? nil : m.number(SceneKeys.scene, "duration")
        let scale = m.number(SceneKeys.scene, "scale"), fps = m.number(SceneKeys.scene, "fps")
        guard let size, let duration, let scale, let fps else { return nil }
        var s = SceneSettings(size: size, duration: duration)
        (s.scale, s.fps, s.appearance) = (scale, fps, appearance)
        if let f = m["seed"], let v = f.integer {
            if v < 0 { f.report("the seed must not be negative") } else { s.seed = UInt64(v) }
        }
        if let f = m["background"], case .mapping = f.node {
            if let g = f.mapping(allowed: LayerDecoder.gradientKeys).flatMap(decoder.gradient) { s.background = .gradient(g) }
        } else if let c = m["background"]?.color {
            s.background = .color(c)
        }
        // The canvas limit is checked where frames are drawn, at the scale they are drawn
        // at (`--scale`, golden frames' scale): `inspect` draws nothing.
        if let problem = limits.timingProblem(duration: duration, fps: s.fps) {
            (m["duration"] ?? f).report(problem)
            return nil
        }
        return s
    }

    /// Counts the nodes under `root` as the decoders will walk them (an alias's node every
    /// time it is used), stopping once `budget` is spent: then the mark of the node that
    /// spent it (an alias's anchor, typically); nil within the budget.
    static func nodeBudgetOverrun(_ root: Node, budget: Int) -> Yams.Mark? {
        var left = budget, stack = [root]
        while let node = stack.popLast() {
            left -= 1
            if left < 0 { return node.mark }
            switch node {
            case .scalar, .alias: break
            case .sequence(let seq): stack.append(contentsOf: seq)
            case .mapping(let map): for (k, v) in map { stack.append(k); stack.append(v) }
            }
        }
        return nil
    }

    /// The layers a frame has with every replicator's model `instanceCount` (a Double:
    /// nested counts multiply past any integer). Animated counts are checked per frame.
    static func layerInstances(_ layers: [Layer]) -> Double {
        layers.reduce(0) { total, layer in
            let below = layerInstances(layer.sublayers)
            let copies = layer.replicator.map { Double(max($0.instanceCount, 0)) * below } ?? below
            return total + 1 + copies + (layer.mask.map { layerInstances([$0]) } ?? 0)
        }
    }

    private static func golden(_ f: Field, frameCount: Int?) -> GoldenSpec? {
        guard let m = f.mapping(allowed: SceneKeys.golden.map(\.name)) else { return nil }
        var g = GoldenSpec()
        if let items = m["frames"]?.elements {
            g.frames = items.compactMap { item in
                if item.node.scalar?.string == "last" { return .last }
                guard let i = item.integer else { return nil }
                guard i >= 0, frameCount.map({ i < $0 }) ?? true else {
                    item.report("frame \(i) is outside 0…\((frameCount ?? 1) - 1)")
                    return nil
                }
                return .index(i)
            }
        }
        if let v = m.number(SceneKeys.golden, "scale") { g.scale = v }
        if let v = m["state"]?.bool { g.state = v }
        if let v = m["filmstrip"]?.bool { g.filmstrip = v }
        if let tf = m["tolerance"], let t = tf.mapping(allowed: SceneKeys.tolerance.map(\.name)) {
            if let v = t.number(SceneKeys.tolerance, "channel") { g.channelTolerance = Int(v) }
            if let p = t["pixels"] {
                if let text = p.node.scalar?.string, text.hasSuffix("%") {
                    if let v = Double(text.dropLast().trimmingCharacters(in: .whitespaces)), (0...100).contains(v) {
                        g.pixelTolerance = v / 100
                    } else { p.report("expected a percentage 0%…100%, found '\(text)'") }
                } else if let v = p.number(in: 0...1) { g.pixelTolerance = v }
            }
        }
        return g
    }

    /// Where the bytes stop being UTF-8 text (`TextEncoding`), as a problem of `file`.
    static func encodingProblem(_ bytes: [UInt8], file: String) -> SceneProblem? {
        TextEncoding.problem(in: bytes).map { SceneProblem(file: file, line: $0.line, column: $0.column, message: $0.message) }
    }

    /// The line and column of the `offset`th byte of `text` (libyaml's reader counts bytes).
    private static func position(ofByte offset: Int, in text: String) -> (line: Int, column: Int) {
        // A character the offset falls inside counts as one before it.
        let lines = String(decoding: text.utf8.prefix(offset), as: UTF8.self).unicodeScalars
            .split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.count, (lines.last?.count ?? 0) + 1)
    }

    /// Where `key` is written next after `mark` (as a key: followed by a colon); the mark
    /// itself when it is not found.
    private static func nextOccurrence(of key: String, after mark: Yams.Mark, in text: String) -> (line: Int, column: Int) {
        let needle = Array(key.unicodeScalars), first = max(mark.line - 1, 0)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (n, line) in lines.enumerated().dropFirst(first) where !needle.isEmpty {
            let l = Array(line.unicodeScalars)
            // On the mark's line, from just past the first key's first character.
            for i in stride(from: n == first ? mark.column : 0, through: l.count - needle.count, by: 1)
            where Array(l[i..<(i + needle.count)]) == needle
                && l[(i + needle.count)...].first(where: { $0 != " " && $0 != "\"" && $0 != "'" }) == ":" {
                return (n + 1, i + 1)
            }
        }
        return (mark.line, mark.column)
    }

    /// A YAML syntax error as a located problem.
    private static func syntaxProblem(_ error: YamlError, file: String) -> SceneProblem {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return SceneProblem(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(problem)")
        case .reader(let problem, let offset, _, let yaml):
            let (line, column) = position(ofByte: offset ?? 0, in: yaml)
            return SceneProblem(file: file, line: line, column: column, message: "YAML syntax error: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams marks the first of the keys; the duplicate is the next one spelt so.
            let (line, column) = nextOccurrence(of: duplicates.first ?? "", after: context.mark, in: context.text)
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return SceneProblem(file: file, line: line, column: column, message: "duplicate key \(keys) in one mapping")
        default:
            return SceneProblem(file: file, message: "YAML error: \(error)")
        }
    }
}
