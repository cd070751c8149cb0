import KineticAnimation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticScene

/// `AnimationKeys.table` drives the reading of an animation: its timing keys are read by
/// their kind into `AnimationTiming`, its defaults are the timing's, its forms say which
/// keys go together, and its Core Animation names give the unknown-key hints.
@Suite struct AnimationKeyTableTests {
    let header = """
    kinetic: 1
    scene: {size: [100, 100], duration: 1}
    layers:
      - {id: a, frame: [0, 0, 10, 10]}

    """

    /// Each stored key writes its own field of the timing, and no other key writes it.
    @Test func everyStoredKeyRoundTripsThroughItsOwnField() {
        let stored = AnimationKeys.table.filter { $0.store != nil }
        #expect(Set(stored.map(\.name)) == ["duration", "begin", "repeatCount", "autoreverses", "fillMode", "speed",
                                            "timeOffset", "repeatDuration"])
        let base = AnimationTiming()
        var changedFields: [String] = []
        for key in stored {
            guard let store = key.store else { continue }
            let value: FileValue = switch key.spec.kind {
            case .bool: .bool(true)
            case .choice: .name("both")
            default: .number(7.5)
            }
            var timing = base
            store(&timing, value)
            let fields = Self.fields(timing).filter { Self.fields(base)[$0.key] != $0.value }
            #expect(fields.count == 1, "\(key.name) changes \(fields.keys.sorted())")
            changedFields += fields.keys
            // A value of another kind is ignored, as the loader checked the kind.
            var ignored = base
            store(&ignored, .filters([]))
            #expect(ignored == base)
        }
        #expect(Set(changedFields).count == stored.count)
    }

    private static func fields(_ t: AnimationTiming) -> [String: String] {
        ["beginTime": "\(t.beginTime)", "duration": "\(t.duration)", "repeatCount": "\(t.repeatCount)",
         "autoreverses": "\(t.autoreverses)", "fillMode": t.fillMode.rawValue, "speed": "\(t.speed)",
         "timeOffset": "\(t.timeOffset)", "repeatDuration": "\(String(describing: t.repeatDuration))"]
    }

    /// The table's defaults are CAMediaTiming's (duration 0.25 s, one cycle, speed 1), with
    /// the contract's forwards fill (the end value persists, as UIView.animate).
    @Test func defaultsAreCAMediaTimingsWithForwardsFill() throws {
        let expected = AnimationTiming(beginTime: 0, duration: 0.25, repeatCount: 1, autoreverses: false, fillMode: .forwards,
                                       speed: 1, timeOffset: 0)
        #expect(AnimationKeys.defaultTiming == expected)
        let scene = try SceneLoader.load(text: header + "animations:\n  - {layer: a, keyPath: opacity, to: 0}\n", file: "t.yaml")
        #expect(scene.animations.first?.timing == expected)
    }

    /// Every stored key, written in a file, reaches the spec's timing.
    @Test func writtenTimingKeysReachTheSpec() throws {
        let scene = try SceneLoader.load(text: header + """
        animations:
          - {layer: a, keyPath: opacity, to: 0, duration: 2, begin: 0.5, repeatCount: forever, autoreverses: true,
             fillMode: both, speed: 0.5, timeOffset: 0.25}
          - {layer: a, keyPath: opacity, to: 0, repeatDuration: 3, fillMode: removed}
        """, file: "t.yaml")
        let t = try #require(scene.animations.first?.timing)
        #expect(t == AnimationTiming(beginTime: 0.5, duration: 2, repeatCount: .infinity, autoreverses: true, fillMode: .both,
                                     speed: 0.5, timeOffset: 0.25))
        #expect(scene.animations.last?.timing.repeatDuration == 3)
        #expect(scene.animations.last?.timing.fillMode == .removed)
    }

    /// Each Core Animation spelling names a key of the table, and its hint says which.
    @Test func appleNamesHintTheirKey() {
        for (apple, key) in AnimationKeys.renamed {
            #expect(AnimationDecoder.keys.contains(key))
            #expect(!AnimationDecoder.keys.contains(apple))
            #expect(AnimationKeys.hints[apple] != nil)
        }
        let p = loadProblems(header + "animations:\n  - {layer: a, keyPath: opacity, toValue: 0, isRemovedOnCompletion: false}\n")
        #expect(p.map(\.message) == [
            "unknown key 'toValue' (Core Animation's toValue is 'to' here)",
            "unknown key 'isRemovedOnCompletion' (use 'fillMode': forwards, the default, keeps the end value; removed drops it)",
        ])
    }

    /// A group's own `path` and `rotationMode` are its animations' keys, as `keyPath` is:
    /// refused (they were ignored before the forms came from the table).
    @Test func keysOfAnotherFormAreRefusedInAGroup() {
        let p = loadProblems(header + """
        animations:
          - {layer: a, group: [{keyPath: opacity, to: 1}], path: "M 0 0 L 1 1", rotationMode: auto}
        """)
        #expect(p.map(\.message) == [
            "'path' belongs on the group's animations, not on the group",
            "'rotationMode' belongs on the group's animations, not on the group",
        ])
    }

    /// A key of another form is reported alongside the animation's other problems.
    @Test func keysOfAnotherFormAreReportedWithOtherProblems() {
        let p = loadProblems(header + "animations:\n  - {layer: a, keyPath: opacityy, values: [0, 1], to: 1}\n")
        #expect(p.map(\.message) == [
            "'opacityy' is not an animatable key path of layer 'a' (did you mean 'opacity'?)",
            "'to' cannot be combined with 'values'",
        ])
    }

    /// `speed` says its own message for a value below its range; the others the range's.
    @Test func outOfRangeTimingValues() {
        let p = loadProblems(header + """
        animations:
          - {layer: a, keyPath: opacity, to: 0, speed: -1, duration: -2, repeatCount: -3}
        """)
        #expect(p.map(\.message) == [
            "a negative speed (playing backwards) is not supported: use 0 or more",
            "must not be negative, found -2",
            "must not be negative, found -3",
        ])
    }

    /// A spring without keys is CASpringAnimation's default (mass 1, stiffness 100,
    /// damping 10, initialVelocity 0): the table's defaults.
    @Test func springDefaultsAreCASpringAnimations() throws {
        let scene = try SceneLoader.load(text: header + "animations:\n  - {layer: a, keyPath: opacity, to: 0, spring: {}}\n",
                                         file: "t.yaml")
        guard case .spring(let spring)? = scene.animations.first?.easing else {
            Issue.record("expected a spring easing")
            return
        }
        #expect(spring == SpringAnimation(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0))
    }

    /// Every ranged key of `spring:` and `oscillation:` refuses a value past its bound with
    /// its range's message, at its key.
    @Test func springAndOscillationKeysAreCheckedAgainstTheirRanges() {
        for (mapping, table, others) in [("spring", AnimationKeys.spring, ""), ("oscillation", AnimationKeys.oscillation, ", velocity: 1")] {
            for spec in table {
                guard let range = spec.range else { continue }
                let bad = range.upperBound.map { $0 + 1 } ?? (range.lowerBound ?? 0) - 1
                // UIView's spring needs the animation's duration; an oscillation both its keys.
                let duration = spec.name == "dampingRatio" ? ", duration: 1" : ""
                let p = loadProblems(header + "animations:\n  - {layer: a, keyPath: opacity, to: 0\(duration), "
                                     + "\(mapping): {\(spec.name): \(bad)\(others)}}\n")
                #expect(p.map(\.keyPath) == ["animations[0].\(mapping).\(spec.name)"], "\(mapping).\(spec.name)")
                #expect(p.map(\.message) == [range.problem(with: bad) ?? "none"], "\(mapping).\(spec.name)")
            }
        }
    }

    /// A rule between keys (`SceneKeys.rules`) is reported at the key that has it: a key that
    /// excludes another, and a spline key without the calculation mode it shapes.
    @Test func keyRulesAreReportedAtTheirKey() {
        let p = loadProblems(header + """
        animations:
          - {layer: a, keyPath: opacity, values: [0, 1], biasValues: [0, 1], repeatCount: 2, repeatDuration: 1}
          - {layer: a, keyPath: opacity, to: 1, duration: 1, spring: {dampingRatio: 1, mass: 2}, timingFunction: easeIn}
        """)
        #expect(p.map { "\($0.keyPath): \($0.message)" } == [
            "animations[0].biasValues: 'biasValues' needs 'calculationMode' cubic or cubicPaced: it shapes a cubic curve",
            "animations[0].repeatDuration: give 'repeatCount' or 'repeatDuration', not both: "
                + "Core Animation leaves both undefined",
            "animations[1].spring: give 'timingFunction' or 'spring', not both: a spring is the animation's timing",
            "animations[1].spring.mass: give 'dampingRatio' or 'mass', not both: "
                + "'mass' belongs to the CASpringAnimation form, 'dampingRatio' to UIView's",
        ])
        #expect(loadProblems(header + """
        animations: [{layer: a, keyPath: opacity, values: [0, 1], biasValues: [0, 1], calculationMode: cubicPaced}]
        """).isEmpty)
    }

    /// The layer's, path primitives' and dynamics mappings' rules, each reported at its key;
    /// their allowed forms (a polyline's `closed`, iOS 9's shared attachment point) load.
    @Test func layerPathAndDynamicsRulesAreReportedAtTheirKey() {
        let p = loadProblems("""
        kinetic: 1
        scene: {size: [200, 200], duration: 1}
        layers:
          - {id: a, position: [50, 50], bounds: [20, 20], shadowPath: {rect: [0, 0, 5, 5], oval: [0, 0, 5, 5]}}
          - {id: b, frame: [90, 40, 20, 20], position: [100, 50]}
          - {id: c, type: shape, position: [9, 9], bounds: [9, 9], path: {rect: [0, 0, 5, 5], cornerRadius: 2, closed: true}}
        dynamics:
          items: {a: {collisionBoundsType: rectangle, collisionBoundingPath: "M0 0 L10 0 L10 10 Z"}}
          behaviors:
            - collision: {id: c, items: [a], boundaries: [{identifier: w, path: "M0 0 L10 0", to: [5, 5]}]}
            - field: {id: f, kind: radialGravity, items: [a], region: {radius: 50, rect: [0, 0, 10, 10]}}
            - attachment: {id: s, item: a, attachedTo: b, anchorPoint: [10, 10]}
        """)
        let oneEnd = "not both: an attachment has one other end, an item or an anchor point"
        #expect(p.map { "\($0.keyPath): \($0.message)" } == [
            "layers[0].shadowPath.oval: give 'rect' or 'oval', not both: a path primitive is one shape",
            "layers[1].frame: give 'position' or 'frame', not both: a frame sets the position and bounds",
            "layers[2].path.cornerRadius: give 'rect' or 'cornerRadius', not both: 'cornerRadius' goes with roundedRect",
            "layers[2].path.closed: give 'rect' or 'closed', not both: 'closed' goes with polyline",
            "dynamics.items.a.collisionBoundingPath: 'collisionBoundingPath' needs 'collisionBoundsType' path: "
                + "the path is the item's body only then",
            "dynamics.behaviors[0].collision.boundaries[0].path: give 'to' or 'path', not both: "
                + "a boundary is a path or a line from + to",
            "dynamics.behaviors[1].field.region.rect: give 'radius' or 'rect', not both: a region is a radius or a rect",
            "dynamics.behaviors[2].attachment.attachedTo: give 'anchorPoint' or 'attachedTo', \(oneEnd)",
        ], "\(p.map(\.message))")
        #expect(loadProblems("""
        kinetic: 1
        scene: {size: [200, 200], duration: 1}
        layers:
          - {id: a, type: shape, position: [50, 50], bounds: [20, 20], path: {polyline: [[0, 0], [5, 5]], closed: true}}
          - {id: b, frame: [90, 40, 20, 20], shadowPath: {roundedRect: [0, 0, 5, 5], cornerRadius: 2}}
        dynamics:
          items: {a: {collisionBoundsType: path, collisionBoundingPath: "M0 0 L10 0 L10 10 Z"}}
          behaviors: [{attachment: {id: s, item: a, attachedTo: b, attachmentAnchor: [75, 50]}}]
        """).isEmpty)
    }
}
