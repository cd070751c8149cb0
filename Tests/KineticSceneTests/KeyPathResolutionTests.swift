import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// The one reader of key-path text against a layer (`LayerEntry.resolve`): animations,
/// events' `set:` and references word its reasons; references extend it (`reading`).
@Suite struct KeyPathResolutionTests {
    func entry(_ type: LayerType, shape: NamedShape? = nil, properties: Set<String> = [],
               cells: [[String]] = []) -> LayerEntry {
        let field = Field(node: SceneNode(text: ""), keyPath: "", diagnostics: Diagnostics(file: "t.yaml"))
        return LayerEntry(address: LayerAddress([0]), type: type, propertyNames: properties, field: field,
                          namedShape: shape, emitterCellPaths: cells)
    }

    @Test func keyPathsResolveAgainstTheLayerOrSayWhyNot() throws {
        let plain = entry(.layer, properties: ["foo"])
        let opacity = try #require(LayerKeyPath.named["opacity"])
        let cell = try #require(LayerKeyPath.emitterCell(parsing: "emitterCells.spark.emitterCells.child.birthRate"))
        #expect(plain.resolve("opacity") == .success(opacity))
        #expect(plain.resolve("scale") == .failure(.otherLayerTypes([.emitter])))
        #expect(plain.resolve("foo") == .success(.property("foo")))
        #expect(plain.resolve("emitterCells.spark.birthRate") == .failure(.notEmitter))
        #expect(plain.resolve("path.progress") == .failure(.notNamedShape))
        #expect(plain.resolve("instanceFoo") == .failure(.unknown))
        let emitter = entry(.emitter, cells: [["spark"], ["spark", "child"]])
        #expect(emitter.resolve("emitterCells.spark.emitterCells.child.birthRate") == .success(cell))
        #expect(emitter.resolve("emitterCells.spark") == .failure(.notCellKeyPath))
        #expect(emitter.resolve("emitterCells.nope.birthRate") == .failure(.unknownCell(["nope"])))
        let gooey = entry(.shape, shape: .gooeyCircle)
        #expect(gooey.resolve("path.progress") == .success(.pathParameter("progress", kind: .number)))
        #expect(gooey.resolve("path.nope") == .failure(.unknownParameter("nope", of: .gooeyCircle)))
    }

    @Test func referencesReadNumbersPointsComponentsAndFlags() throws {
        let anchor = try #require(LayerKeyPath.named["anchorPoint"])
        let color = try #require(LayerKeyPath.named["backgroundColor"])
        let plain = entry(.layer, properties: ["path.a.b"])
        #expect(try plain.reading("anchorPoint.x").get() == .value(anchor, axis: .x))
        #expect(plain.reading("backgroundColor") == .failure(.unreadable(color)))
        // A custom property is read whole, even one spelled like a shape's parameter.
        #expect(try plain.reading("path.a.b").get() == .value(.property("path.a.b"), axis: nil))
        #expect(plain.reading("path.broken") == .failure(.keyPath(.notNamedShape)))
        let gooey = entry(.shape, shape: .gooeyCircle)
        #expect(try gooey.reading("path.center.x").get() == .value(.pathParameter("center", kind: .point), axis: .x))
        #expect(gooey.reading("path.size.x") == .failure(.unreadable(.pathParameter("size", kind: .number))))
        #expect(gooey.reading("path.broken") == .failure(.flag(of: .stickyBubble, shape: .gooeyCircle)))
        #expect(try entry(.shape, shape: .stickyBubble).reading("path.broken").get() == .flag)
        // A size parameter's components are x and y: `.width` names no parameter.
        let arrows = entry(.shape, shape: .pullRefreshArrows)
        #expect(try arrows.reading("path.size.y").get() == .value(.pathParameter("size", kind: .size), axis: .y))
        #expect(arrows.reading("path.size.width") == .failure(.keyPath(.unknownParameter("size.width", of: .pullRefreshArrows))))
    }
}
