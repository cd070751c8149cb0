import Foundation
import Kinetic
import Testing

/// Gallery scenes built in Swift render the frames of its scene file, byte for byte.
struct BuiltSceneTests {
    /// scenes/gravity-angle.yaml, value for value.
    static func gravityAngle() throws -> Scene {
        try Scene(size: [375, 667], scale: 2, fps: 50, duration: 1, background: "white", layers: [
            ShapeLayer("guide").position([0, 0]).path("M 187.5 333.5 L 389.4 660.6")
                .fillColor("clear").strokeColor("lightGray").lineWidth(2).lineDashPattern([6, 6]),
            Layer("square").frame([147.5, 293.5, 80, 80]).backgroundColor("yellow"),
        ], behaviors: [
            GravityBehavior(items: ["square"]).id("gravity").angle(45).magnitude(5.0).begin(0.4),
        ])
    }

    @Test func gravityAngleBuiltInSwiftMatchesItsFile() throws {
        let file = try Scene(contentsOf: repositoryRoot.appendingPathComponent("scenes/gravity-angle.yaml"))
        let built = try Self.gravityAngle()
        #expect(built.frameCount == file.frameCount)
        // The scene's golden frames: before the gravity begins, as it begins, falling.
        for frame in [0, 25, 30, 35, 38, 49] {
            #expect(try built.pngData(atFrame: frame) == file.pngData(atFrame: frame), "frame \(frame)")
        }
        #expect(try built.states(atFrames: Array(0..<50)) == file.states(atFrames: Array(0..<50)))
    }

    /// scenes/paperclip-loader.yaml: keyframe animations, and a layer without an id.
    static func paperclipLoader() throws -> Scene {
        let clip: SceneValue = "M 50 100 L 50 40 A 10 10 0 0 1 70 40 L 70 130 A 16 16 0 0 1 38 130 L 38 25 A 20 20 0 0 1 78 25 L 78 110"
        return try Scene(size: [120, 170], scale: 2, fps: 50, duration: 2, background: "white", layers: [
            ShapeLayer().path(clip).fillColor("clear").strokeColor("#E3E7EC").lineWidth(3).lineCap("round"),
            ShapeLayer("line").path(clip).fillColor("clear").strokeColor("#4A90E2").lineWidth(4)
                .lineCap("round").lineJoin("round").strokeEnd(0),
        ], animations: [
            KeyframeAnimation("strokeEnd", of: "line", values: [0, 1, 1], duration: 2).keyTimes([0, 0.7, 1])
                .timingFunctions(["easeInEaseOut", "linear"]).repeatCount("forever"),
            KeyframeAnimation("strokeStart", of: "line", values: [0, 0, 1], duration: 2).keyTimes([0, 0.3, 1])
                .timingFunctions(["linear", "easeInEaseOut"]).repeatCount("forever"),
        ])
    }

    @Test func paperclipLoaderBuiltInSwiftMatchesItsFile() throws {
        let file = try Scene(contentsOf: repositoryRoot.appendingPathComponent("scenes/paperclip-loader.yaml"))
        let built = try Self.paperclipLoader()
        #expect(built.frameCount == file.frameCount)
        // The scene's golden frames.
        for frame in [15, 35, 55, 80, 99] {
            #expect(try built.pngData(atFrame: frame) == file.pngData(atFrame: frame), "frame \(frame)")
        }
        #expect(try built.states(atFrames: Array(0..<100)) == file.states(atFrames: Array(0..<100)))
    }

    /// scenes/elasticity.yaml: gravity, collision and item behaviors.
    static func elasticity() throws -> Scene {
        try Scene(size: [375, 667], scale: 2, fps: 50, duration: 4, background: "white", layers: [
            Layer("top").frame([75, -25, 50, 50]).backgroundColor("green"),
            Layer("bottom").frame([75, 25, 50, 50]).backgroundColor("yellow"),
        ], behaviors: [
            GravityBehavior(items: ["top", "bottom"]).id("gravity"),
            CollisionBehavior(items: ["top", "bottom"]).id("collision").translatesReferenceBoundsIntoBoundary(true),
            DynamicItemBehavior(items: ["bottom"]).id("moreElasticItem").elasticity(1.0),
            DynamicItemBehavior(items: ["top"]).id("lessElasticItem").elasticity(0.5),
        ])
    }

    @Test func elasticityBuiltInSwiftMatchesItsFile() throws {
        let file = try Scene(contentsOf: repositoryRoot.appendingPathComponent("scenes/elasticity.yaml"))
        let built = try Self.elasticity()
        #expect(built.frameCount == file.frameCount)
        // Some of the scene's golden frames: falling, the first bounces, at rest.
        for frame in [0, 54, 100, 199] {
            #expect(try built.pngData(atFrame: frame) == file.pngData(atFrame: frame), "frame \(frame)")
        }
        let all = Array(0..<200)
        let states = try built.states(atFrames: all)
        #expect(states == (try file.states(atFrames: all)))
        // The bodies really moved: the simulated items differ between the first and last frame.
        #expect(states[0].items != states[199].items)
    }

    @Test func sublayersAreBuiltInOrder() throws {
        let text = Scene.sceneText(size: [100, 100], duration: 1, layers: [
            Layer("card").frame([0, 0, 100, 100]).sublayers {
                ShapeLayer("ring").path("M 0 0 L 10 10").strokeEnd(0.5)
                TextLayer("label").string("Hi \"there\"")
            },
        ])
        #expect(text == """
            kinetic: 1
            scene: {"size": [100, 100], "scale": 2, "fps": 60, "duration": 1, "background": "white"}
            layers:
              - {"id": "card", "frame": [0, 0, 100, 100], "sublayers": [{"id": "ring", "type": "shape", "path": "M 0 0 L 10 10", "strokeEnd": 0.5}, {"id": "label", "type": "text", "string": "Hi \\"there\\""}]}

            """)
        let scene = try Scene(yaml: text)
        #expect(try scene.state(atFrame: 0).layers.keys.sorted() == ["card", "label", "ring"])
    }

    @Test func settersTakeSwiftVariables() throws {
        let end = 0.25, width = 4, cap = "round", rect = [0.0, 0, 80, 40], dashes = [6, 6]
        let text = Scene.sceneText(size: [100, 100], duration: 1, layers: [
            ShapeLayer("ring").strokeEnd(end).lineWidth(width).lineCap(cap).frame(rect).lineDashPattern(dashes)
                .hidden(false).setting("opacity", 0.5),
        ], animations: [
            BasicAnimation("strokeEnd", of: "ring", from: 0, to: 1, duration: 1).begin(end),
        ])
        #expect(text.contains(#"{"id": "ring", "type": "shape", "strokeEnd": 0.25, "lineWidth": 4, "lineCap": "round", "frame": [0, 0, 80, 40], "lineDashPattern": [6, 6], "hidden": false, "opacity": 0.5}"#))
        #expect(text.contains(#""duration": 1, "begin": 0.25}"#))
    }

    /// `\.strokeEnd` is the string "strokeEnd": the same scene text, for one component
    /// and for a dotted path; a misspelt member is refused where the scene loads.
    @Test func swiftKeyPathsNameTheSameKeyPaths() throws {
        func text(_ animations: [any AnimationElement]) -> String {
            Scene.sceneText(size: [100, 100], duration: 1, layers: [ShapeLayer("ring")], animations: animations)
        }
        #expect(text([BasicAnimation(\.strokeEnd, of: "ring", from: 0, to: 1, duration: 2)])
                == text([BasicAnimation("strokeEnd", of: "ring", from: 0, to: 1, duration: 2)]))
        #expect(text([SpringAnimation(\.transform.rotation.z, of: "ring", from: 0, to: 1, dampingRatio: 0.5)])
                == text([SpringAnimation("transform.rotation.z", of: "ring", from: 0, to: 1, dampingRatio: 0.5)]))
        #expect(text([KeyframeAnimation(\.position, of: "ring", values: [[0, 0], [50, 50]], duration: 1)])
                == text([KeyframeAnimation("position", of: "ring", values: [[0, 0], [50, 50]], duration: 1)]))
        #expect(LayerKeyPath().transform.rotation.z.description == "transform.rotation.z")
        #expect(throws: SceneLoadError.self) {
            try Scene(size: [100, 100], duration: 1, layers: [ShapeLayer("ring")],
                      animations: [BasicAnimation(\.strokeEnds, of: "ring", from: 0, to: 1, duration: 1)])
        }
    }

    @Test func aBasicAnimationMovesTheKeyPath() throws {
        let scene = try Scene(size: [100, 100], fps: 10, duration: 2, layers: [
            ShapeLayer("ring").path("M 10 50 L 90 50").strokeColor("blue").strokeEnd(0),
        ], animations: [
            BasicAnimation("strokeEnd", of: "ring", from: 0, to: 1, duration: 2),
        ])
        // Linear timing: at frame 5 (0.5 s of 2 s) a quarter of the stroke is drawn.
        guard case .number(let end)? = try scene.state(atFrame: 5).layers["ring"].flatMap({ layer -> ReportValue? in
            if case .object(let values) = layer { return values["strokeEnd"] }
            return nil
        }) else { Issue.record("no strokeEnd"); return }
        #expect(abs(end - 0.25) < 1e-9)
    }
}
