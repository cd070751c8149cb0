/// The names of Apple's APIs (CALayer and its subclasses, CAAnimation and its subclasses,
/// CAEmitterCell, UIKit Dynamics) that Kinetic does not implement, written once: the
/// loader refuses each as "not supported" where it is written (never "unknown key … did
/// you mean", which would make a missing feature read as a typo), `kinetic schema` rejects
/// it with the same words, and docs/keys.md lists them.
///
/// Each context is a mapping of the scene format, named as `SceneSchema` names it;
/// `layer` holds the names refused on a layer of any type.
public enum UnsupportedAppleNames {
    public struct Entry: Sendable {
        /// The key as a scene file would write it (Apple's Swift spelling).
        public let name: String
        /// Apple's class (or protocol) that declares it.
        public let owner: String
        /// The scene mapping it would be written in.
        public let context: String
        /// Why it is left out, or what to write instead; may be empty.
        public let note: String
    }

    private static func names(_ owner: String, in context: String, _ names: [String], note: String = "") -> [Entry] {
        names.map { Entry(name: $0, owner: owner, context: context, note: note) }
    }

    /// Every name, grouped by Apple's class.
    public static let entries: [Entry] =
        names("CALayer", in: "layer", [
            "isOpaque",
            "isGeometryFlipped", "actions", "style", "delegate",
            "wantsExtendedDynamicRangeContent", "contentsHeadroom", "toneMapMode",
        ])
        + names("CALayer", in: "layer", ["name"], note: "a layer's name is its `id`")
        + names("CALayer", in: "layer", ["autoresizingMask", "constraints", "layoutManager"], note: "macOS only")
        + names("CAScrollLayer", in: "layer", ["scrollMode"])
        + names("CATiledLayer", in: "layer", ["levelsOfDetail", "levelsOfDetailBias", "tileSize"])
        + names("CAMetalLayer", in: "layer", [
            "device", "pixelFormat", "framebufferOnly", "drawableSize", "maximumDrawableCount",
            "presentsWithTransaction", "colorspace", "displaySyncEnabled", "allowsNextDrawableTimeout",
        ])
        + names("CAEAGLLayer", in: "layer", ["drawableProperties"])
        + names("CATextLayer", in: "text", ["allowsFontSubpixelQuantization"])
        + names("CAEmitterLayer", in: "emitter", ["preservesDepth"])
        + names("CAReplicatorLayer", in: "replicator", ["preservesDepth"])
        + names("CAEmitterCell", in: "emitterCell", [
            "contentsScale", "minificationFilter", "magnificationFilter", "minificationFilterBias",
            "style",
        ])
        + names("CAEmitterCell", in: "emitterCell",
                ["speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode"],
                note: "CAMediaTiming; a cell's `beginTime` and `duration` are supported")
        + names("CAAnimation", in: "animation", [
            "delegate", "usesSceneTimeBase", "fadeInDuration", "fadeOutDuration", "animationEvents",
            "preferredFrameRateRange",
        ])
        + names("CAPropertyAnimation", in: "animation", ["valueFunction"])
        + names("CASpringAnimation", in: "animation", ["allowsOverdamping", "perceptualDuration", "bounce"])
        + names("CATransition", in: "animation", ["type", "subtype", "startProgress", "endProgress", "filter"])
        + names("UIDynamicAnimator", in: "dynamics", ["delegate"])
        + names("UIDynamicBehavior", in: "behavior", ["action", "childBehaviors"],
                note: "live expressions in the keys do what an action block does")
        + names("UICollisionBehavior", in: "collision", ["collisionDelegate"], note: "contact events do (`events: on: contact`)")

    /// The names refused in `context`, each with what the message says of it.
    static func refused(in contexts: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for e in entries where contexts.contains(e.context) {
            result[e.name] = "\(e.owner).\(e.name)" + (e.note.isEmpty ? "" : "; \(e.note)")
        }
        return result
    }

    /// The message for a refused name.
    static func message(_ name: String, _ detail: String) -> String {
        "'\(name)' is not supported (\(detail)): Kinetic does not implement it (docs/keys.md lists Apple's names it leaves out)"
    }

    /// The contexts a layer of `type` reads its keys in.
    static func layerContexts(_ type: String) -> [String] { ["layer", type] }
}
