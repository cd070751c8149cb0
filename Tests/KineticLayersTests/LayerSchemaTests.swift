import Testing
import KineticGeometry
@testable import KineticLayers

/// The layer and cell tables are complete and consistent, and get/set through them is
/// what the key paths do.
@Suite struct LayerSchemaTests {
    let schema = LayerSchema.standard

    /// A value of `kind` that differs from a fresh layer's (or cell's) defaults.
    static func sample(_ kind: AnimatableValue.Kind, range: ValueRange?) -> AnimatableValue {
        let n = range.map { r in r.upperBound.map { min($0, (r.lowerBound ?? 0) + 0.375) } ?? (r.lowerBound ?? 0) + 7 } ?? -12.5
        switch kind {
        case .number: return .number(n)
        case .point: return .point(Point(3, 4))
        case .size: return .size(Size(5, 6))
        case .rect: return .rect(Rect(1, 2, 30, 40))
        case .color: return .color(Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5))
        case .colors: return .colors([.black, .white])
        case .numbers: return .numbers([0, 1])
        case .transform: return .transform(.translation(3, 4))
        case .path: return .path(BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 10))]))
        case .bool: return .bool(true)
        case .image: return .image("a.png")
        }
    }

    @Test func namesAreUniqueAndEveryAnimatableKeyHasAValue() {
        let names = schema.entries.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count)
        for e in schema.entries where e.isAnimatable {
            #expect(e.get != nil && e.set != nil && e.valueKind != nil, "\(e.name)")
            #expect(e.copy == nil, "\(e.name): animatable keys are set as values, not copied")
        }
        for e in schema.entries where !e.isFileKey {
            #expect(e.isAnimatable, "\(e.name): a key path that is no file key must be animatable")
        }
    }

    /// Every animatable key reads back what it was set to, on every layer type that has
    /// it; on the others it reads nothing and setting it changes nothing.
    @Test func everyAnimatableKeyRoundTripsThroughItsKeyPath() throws {
        for type in LayerType.allCases {
            for e in schema.entries where e.isAnimatable {
                let kp = try #require(LayerKeyPath.named[e.name])
                var layer = Layer(place: "t", type: type)
                let value = Self.sample(kp.valueKind, range: e.range)
                layer.setValue(value, at: kp)
                if e.applies(to: type) {
                    var expected = value
                    // The whole number of copies; the width and height of bounds' sub-paths.
                    if e.name == "instanceCount" { expected = .number(0) }
                    #expect(layer.value(at: kp) == expected, "\(type).\(e.name)")
                } else {
                    #expect(layer.value(at: kp) == nil, "\(type).\(e.name)")
                    #expect(layer == Layer(place: "t", type: type), "\(type).\(e.name) changed a layer without it")
                }
            }
        }
    }

    @Test func transformSubKeyPathsWriteComponents() {
        var layer = Layer(place: "t")
        layer.setValue(.number(.pi / 2), at: .transformRotationZ)
        layer.setValue(.number(2), at: .transformScale)
        layer.setValue(.number(10), at: .transformTranslationX)
        let c = layer.transformComponents
        #expect(c.rotationZ == .pi / 2 && c.sx == 2 && c.sy == 2 && c.sz == 2 && c.tx == 10)
        #expect(LayerKeyPath.named["transform.rotation"] == .transformRotationZ)
        #expect(layer.value(at: .positionX) == .number(0))
        layer.setValue(.number(7), at: .positionY)
        #expect(layer.position == Point(0, 7))
    }

    @Test func emitterCellKeyPathsFollowNestedCells() throws {
        var inner = EmitterCell(); inner.name = "b"
        var outer = EmitterCell(); outer.name = "a"; outer.emitterCells = [inner]
        var layer = Layer(place: "t", type: .emitter)
        layer.emitter?.emitterCells = [outer]
        let kp = try #require(LayerKeyPath.emitterCell(parsing: "emitterCells.a.emitterCells.b.birthRate"))
        #expect(kp.description == "emitterCells.a.emitterCells.b.birthRate")
        layer.setValue(.number(500), at: kp)
        #expect(layer.emitter?.emitterCells[0].emitterCells[0].birthRate == 500)
        #expect(layer.value(at: kp) == .number(500))
        #expect(LayerKeyPath.emitterCell(parsing: "emitterCells.a.name") == nil, "a cell's name is not animatable")
        #expect(LayerKeyPath.emitterCell(parsing: "emitterCells.a.birthRat") == nil)
        // `duration` 0 means for ever, as the loader reads it.
        let duration = try #require(LayerKeyPath.emitterCell(parsing: "emitterCells.a.duration"))
        layer.setValue(.number(0), at: duration)
        #expect(layer.emitter?.emitterCells[0].duration == nil)
    }

    @Test func everyCellKeyIsAnimatableButItsNameContentsAndSubCells() {
        let fixed = EmitterCellSchema.entries.filter { !$0.isAnimatable }.map(\.name)
        #expect(fixed == ["name", "contents", "emitterCells"])
        #expect(EmitterCellKey.allCases.count == EmitterCellSchema.entries.count - 3)
    }

    @Test func rangesSayWhatTheLoaderSays() throws {
        let opacity = try #require(schema["opacity"])
        #expect(opacity.problem(with: .number(1.5)) == "1.5 is out of range 0…1")
        #expect(opacity.problem(with: .number(1)) == nil)
        #expect(schema["cornerRadius"]?.problem(with: .number(-1)) == "must not be negative, found -1")
        #expect(schema["fontSize"]?.problem(with: .number(0)) == "must be greater than 0, found 0")
        #expect(schema["fontSize"]?.problem(with: .number(20_000)) == "fontSize must be at most 10000, found 20000")
        #expect(schema["emitterSize"]?.problem(with: .size(Size(-1, 2))) == "a size must not be negative")
        #expect(schema["locations"]?.problem(with: .numbers([0, 2])) == "2 is out of range 0…1")
    }

    /// Adding an animatable property is one entry: key path parsing, get/set, the
    /// loader's key list and `inspect`'s keys all come from the table.
    @Test func aToyEntryIsAnimatableThroughEveryDerivedUse() throws {
        let toy = PropertySpec<Layer>(
            "toyWobble", .number, range: .unit("a fraction"), default: .number(0), animatable: true, expressions: true,
            types: [.shape], doc: "A toy.",
            get: { l in l.shape.map { _ in .number(l.properties["toyWobble"] ?? 0) } },
            set: { l, v in if l.type == .shape, case .number(let n) = v { l.properties["toyWobble"] = n } })
        let extended = LayerSchema(entries: LayerSchema.standard.entries + [toy])
        let kp = try #require(LayerKeyPath.named(in: extended)["toyWobble"])
        #expect(LayerKeyPath.named["toyWobble"] == nil)
        #expect(kp.valueKind == AnimatableValue.Kind.number && kp.layerTypes == Set<LayerType>([.shape]))
        #expect(kp.problem(with: .number(2)) == "2 is out of range 0…1")
        var shape = Layer(place: "s", type: .shape)
        shape.setValue(.number(0.25), at: kp)
        #expect(shape.value(at: kp) == .number(0.25))
        #expect(extended.fileKeys(for: .shape).contains("toyWobble"))
        #expect(!extended.fileKeys(for: .layer).contains("toyWobble"))
        #expect(extended.animatableFileKeys(for: .shape).map(\.name).contains("toyWobble"))
    }

    @Test func eventOnlyPropertiesAreCopied() throws {
        let p = try #require(LayerProperty(rawValue: "lineCap"))
        #expect(p.layerTypes == [.shape])
        var source = Layer(place: "s", type: .shape); source.shape?.lineCap = .round
        var target = Layer(place: "t", type: .shape)
        p.copy(from: source, to: &target)
        #expect(target.shape?.lineCap == .round)
        #expect(LayerProperty(rawValue: "opacity") == nil, "animatable keys are values")
        #expect(LayerProperty.allCases.map(\.rawValue).contains("doubleSided"))
    }
}
