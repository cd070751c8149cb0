import Foundation
import Testing
@testable import KineticGeometry

/// `path: {svg: FILE}`'s geometry against hand computations: SVG 1.1 §7 (transforms,
/// viewBox, preserveAspectRatio) and SVG 2 §10 (each shape's equivalent path).
@Suite struct SVGImportTests {
    func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool { a.distance(to: b) <= tolerance }

    func map(_ transform: String, _ p: Point) throws -> Point {
        try SVGTransformList.parse(transform).apply(to: p)
    }

    /// A document of `body` whose viewBox is its size, imported at that size (identity).
    func imported(_ body: [SVGElement], viewBox: String = "0 0 100 100", id: String? = nil,
                  box: Rect? = nil) throws(SVGError) -> SVGPathImport {
        try SVGPathImport(document(body, viewBox: viewBox), element: id, into: box)
    }

    /// An `<svg>` root holding `body` (the tree the XML reader gives; libxml2 itself is
    /// tested with the scene loader).
    func document(_ body: [SVGElement], viewBox: String) -> SVGElement {
        SVGElement(name: "svg", attributes: ["viewBox": viewBox], children: body)
    }

    func e(_ name: String, _ attributes: [String: String] = [:], _ children: [SVGElement] = []) -> SVGElement {
        SVGElement(name: name, attributes: attributes, children: children)
    }

    // MARK: Transforms

    @Test func eachTransformFunctionMapsAsSVGDefinesIt() throws {
        #expect(near(try map("translate(10 20)", Point(1, 2)), Point(11, 22)))
        #expect(near(try map("translate(10)", Point(1, 2)), Point(11, 2)))
        #expect(near(try map("scale(2 3)", Point(1, 2)), Point(2, 6)))
        #expect(near(try map("scale(2)", Point(1, 2)), Point(2, 4)))
        // y down: a positive angle turns +x towards +y.
        #expect(near(try map("rotate(90)", Point(1, 0)), Point(0, 1)))
        #expect(near(try map("rotate(90, 10, 10)", Point(20, 10)), Point(10, 20)))
        #expect(near(try map("skewX(45)", Point(0, 10)), Point(10, 10)))
        #expect(near(try map("skewY(45)", Point(10, 0)), Point(10, 10)))
        // (a x + c y + e, b x + d y + f) = (1 + 3 + 5, 2 + 4 + 6).
        #expect(near(try map("matrix(1 2 3 4 5 6)", Point(1, 1)), Point(9, 12)))
    }

    @Test func aListAppliesItsLastFunctionFirst() throws {
        // scale(2) first: (2, 2); then translate(10): (12, 2).
        #expect(near(try map("translate(10) scale(2)", Point(1, 1)), Point(12, 2)))
        #expect(near(try map("scale(2),translate(10)", Point(1, 1)), Point(22, 2)))
    }

    @Test func malformedTransformsAreReported() {
        #expect(throws: SVGError.self) { try SVGTransformList.parse("rotate(1 2)") }
        #expect(throws: SVGError.self) { try SVGTransformList.parse("spin(90)") }
        #expect(throws: SVGError.self) { try SVGTransformList.parse("translate(1") }
        #expect(throws: SVGError.self) { try SVGTransformList.parse("translate(a)") }
    }

    // MARK: viewBox and preserveAspectRatio

    func viewBoxMap(_ ratio: String, _ p: Point, viewBox: Rect = Rect(0, 0, 100, 50),
                    into box: Rect = Rect(0, 0, 200, 200)) throws -> Point {
        try SVGViewBox(viewBox, aspectRatio: SVGAspectRatio(parsing: ratio)).transform(into: box).apply(to: p)
    }

    @Test func meetFitsAndCentresByDefault() throws {
        // 100 × 50 into 200 × 200: s = min(2, 4) = 2, the 200 × 100 result centred: ty = 50.
        #expect(near(try viewBoxMap("xMidYMid meet", Point(0, 0)), Point(0, 50)))
        #expect(near(try viewBoxMap("xMidYMid", Point(100, 50)), Point(200, 150)))
        #expect(SVGAspectRatio() == (try SVGAspectRatio(parsing: "xMidYMid meet")))
    }

    @Test func sliceCoversAndNoneStretches() throws {
        // slice: s = max(2, 4) = 4, 400 × 200 centred: tx = (200 − 400) / 2 = −100.
        #expect(near(try viewBoxMap("xMidYMid slice", Point(0, 0)), Point(-100, 0)))
        #expect(near(try viewBoxMap("xMidYMid slice", Point(100, 50)), Point(300, 200)))
        // none: each axis on its own (2 and 4).
        #expect(near(try viewBoxMap("none", Point(100, 50)), Point(200, 200)))
        #expect(near(try viewBoxMap("none", Point(50, 25)), Point(100, 100)))
    }

    @Test func alignmentsPlaceTheScaledBox() throws {
        #expect(near(try viewBoxMap("xMinYMin meet", Point(0, 0)), Point(0, 0)))
        #expect(near(try viewBoxMap("xMinYMax meet", Point(0, 0)), Point(0, 100)))
        // A tall box: s = min(4, 2) = 2 → 200 × 100 in 400 × 100… here x has the room.
        #expect(near(try viewBoxMap("xMaxYMid meet", Point(0, 0), into: Rect(0, 0, 400, 100)), Point(200, 0)))
        #expect(near(try viewBoxMap("xMidYMid meet", Point(0, 0), into: Rect(0, 0, 400, 100)), Point(100, 0)))
    }

    @Test func theViewBoxOriginAndTheBoxOriginBothCount() throws {
        let p = try viewBoxMap("none", Point(0, 0), viewBox: Rect(-50, -50, 100, 100), into: Rect(10, 20, 100, 100))
        #expect(near(p, Point(60, 70)))
    }

    @Test func badAspectRatiosAndViewBoxesAreReported() {
        #expect(throws: SVGError.self) { try SVGAspectRatio(parsing: "xMidYMid cover") }
        #expect(throws: SVGError.self) { try SVGAspectRatio(parsing: "xCenterYMid") }
        #expect(throws: SVGError.self) { try SVGViewBox(of: SVGElement(name: "svg", attributes: ["viewBox": "0 0 10"])) }
        #expect(throws: SVGError.self) { try SVGViewBox(of: SVGElement(name: "svg", attributes: ["viewBox": "0 0 0 10"])) }
    }

    // MARK: Shapes

    @Test func aRectIsItsFourCornersClockwiseFromTheTopLeft() throws {
        let path = try imported([e("rect", ["x": "10", "y": "20", "width": "30", "height": "40"])]).path
        #expect(path.elements == [.move(to: Point(10, 20)), .line(to: Point(40, 20)), .line(to: Point(40, 60)),
                                  .line(to: Point(10, 60)), .close])
    }

    @Test func aRoundedRectStartsAfterTheTopLeftCornerWithClampedRadii() throws {
        let path = try imported([e("rect", ["x": "10", "y": "20", "width": "30", "height": "40", "rx": "5"])]).path
        // ry = rx (auto): from (15, 20) right to (35, 20), then the top-right corner to (40, 25).
        #expect(path.elements.first == .move(to: Point(15, 20)))
        #expect(path.elements[1] == .line(to: Point(35, 20)))
        if case .curve(let end, _, _) = path.elements[2] { #expect(near(end, Point(40, 25))) } else { Issue.record("no corner") }
        #expect(path.structure == [.move] + Array(repeating: [PathElement.Kind.line, .curve], count: 4).flatMap { $0 } + [.close])
        #expect(path.boundingBox == Rect(10, 20, 30, 40))
        // rx = 100 is clamped to half the width (15): the top side has no length.
        let clamped = try imported([e("rect", ["x": "10", "y": "20", "width": "30", "height": "40", "rx": "100", "ry": "4"])]).path
        #expect(clamped.elements.first == .move(to: Point(25, 20)) && clamped.elements[1] == .line(to: Point(25, 20)))
    }

    @Test func aCircleStartsAtItsRightmostPointAndTurnsDownFirst() throws {
        let path = try imported([e("circle", ["cx": "50", "cy": "50", "r": "10"])]).path
        #expect(path.elements.first == .move(to: Point(60, 50)))
        if case .curve(let end, _, _) = path.elements[1] { #expect(near(end, Point(50, 60))) } else { Issue.record("no arc") }
        #expect(path.structure == [.move, .curve, .curve, .curve, .curve, .close])
        // Every point of the four-cubic circle lies within 3e-4 r of the radius.
        for (point, _) in (0..<40).compactMap({ path.point(atLength: Double($0) / 40 * path.length) }) {
            #expect(abs(point.distance(to: Point(50, 50)) - 10) < 3e-3)
        }
    }

    @Test func anEllipseTakesEachRadius() throws {
        let path = try imported([e("ellipse", ["cx": "50", "cy": "50", "rx": "20", "ry": "10"])]).path
        #expect(path.elements.first == .move(to: Point(70, 50)))
        if case .curve(let end, _, _) = path.elements[1] { #expect(near(end, Point(50, 60))) } else { Issue.record("no arc") }
        #expect(path.boundingBox == Rect(30, 40, 40, 20))
    }

    @Test func linesPolylinesAndPolygons() throws {
        #expect(try imported([e("line", ["x1": "1", "y1": "2", "x2": "3", "y2": "4"])]).path.elements
                == [.move(to: Point(1, 2)), .line(to: Point(3, 4))])
        #expect(try imported([e("polyline", ["points": "0,0 10,0 10,10"])]).path.elements
                == [.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10))])
        #expect(try imported([e("polygon", ["points": "0 0,10 0 10 10"])]).path.elements
                == [.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10)), .close])
    }

    @Test func pathDataIsReadWithTheSVGPathParser() throws {
        #expect(try imported([e("path", ["d": "M 1 2 h 10 v 5 z"])]).path.elements
                == [.move(to: Point(1, 2)), .line(to: Point(11, 2)), .line(to: Point(11, 7)), .close])
    }

    @Test func shapesThatDrawNothingAreLeftOut() throws {
        let path = try imported([e("circle", ["r": "0"]), e("rect", ["width": "0", "height": "5"]), e("ellipse", ["rx": "0", "ry": "3"]), e("rect", ["width": "1", "height": "1"])]).path
        #expect(path.elements.count == 5)
    }

    @Test func lengthsTakeUnitsAndPercentagesOfTheViewport() throws {
        // 50 % of the viewBox's width 200; 1in = 96 user units.
        let path = try imported([e("rect", ["width": "50%", "height": "1in"])], viewBox: "0 0 200 100").path
        #expect(path.boundingBox == Rect(0, 0, 100, 96))
        #expect(throws: SVGError.self) { try imported([e("rect", ["width": "2em", "height": "1"])]) }
    }

    @Test func badShapesAreReportedAtTheirLine() {
        func line(_ body: [SVGElement]) -> Int? {
            do { _ = try imported(body); return nil } catch { return error.line }
        }
        #expect(line([SVGElement(name: "polyline", attributes: ["points": "0 0 1"], line: 7)]) == 7)
        #expect(line([SVGElement(name: "circle", attributes: ["r": "-1"], line: 8)]) == 8)
        #expect(line([SVGElement(name: "path", attributes: ["d": "M 0 0 L 1"], line: 9)]) == 9)
        #expect(line([e("g", ["transform": "spin(1)"], [e("line")])]) == 1)
        do { _ = try imported([e("path", ["d": "M 0 0 X"])]) } catch {
            #expect(error.message.contains("character 7"), "\(error.message)")
        }
    }

    // MARK: Groups, transforms, selection

    @Test func nestedGroupsComposeTheirTransformsInsideOut() throws {
        // (1, 1) → scale(2): (2, 2) → translate(10, 0): (12, 2).
        let path = try imported([e("g", ["transform": "translate(10,0)"], [e("g", ["transform": "scale(2)"], [e("line", ["x1": "1", "y1": "1", "x2": "2", "y2": "1"])])])]).path
        #expect(path.elements == [.move(to: Point(12, 2)), .line(to: Point(14, 2))])
        // An element's own transform applies before its groups'.
        let own = try imported([e("g", ["transform": "translate(10,0)"], [e("line", ["x1": "1", "y1": "1", "x2": "2", "y2": "1", "transform": "scale(2)"])])]).path
        #expect(own.elements == path.elements)
    }

    @Test func aNestedSVGMapsItsViewBoxIntoItsViewport() throws {
        let path = try imported([e("svg", ["x": "10", "y": "10", "width": "20", "height": "20", "viewBox": "0 0 10 10"], [e("rect", ["width": "10", "height": "10"])])]).path
        #expect(path.boundingBox == Rect(10, 10, 20, 20))
    }

    @Test func anElementIsTakenByIdWithItsGroupsTransforms() throws {
        let body = [e("g", ["transform": "translate(5 5)"], [e("rect", ["id": "a", "width": "1", "height": "1"]), e("g", ["id": "b"], [e("line", ["x2": "3"]), e("line", ["y2": "3"])])])]
        #expect(try imported(body, id: "a").path.boundingBox == Rect(5, 5, 1, 1))
        let group = try imported(body, id: "b").path
        #expect(group.elements == [.move(to: Point(5, 5)), .line(to: Point(8, 5)), .move(to: Point(5, 5)), .line(to: Point(5, 8))])
        do { _ = try imported(body, id: "c"); Issue.record("found c") } catch {
            #expect(error.message.contains("no element with id 'c'") && error.message.contains("a, b"))
        }
    }

    @Test func definitionsAndHiddenElementsDrawNothing() throws {
        let body = [e("defs", [:], [e("rect", ["id": "d", "width": "9", "height": "9"])]), e("rect", ["width": "1", "height": "1", "style": "display: none"]), e("line", ["x2": "2"])]
        #expect(try imported(body).path.elements == [.move(to: .zero), .line(to: Point(2, 0))])
        // Named, a definition is taken.
        #expect(try imported(body, id: "d").path.boundingBox == Rect(0, 0, 9, 9))
    }

    @Test func drawingsThatAreNotShapesAreRefused() {
        for body in [[e("use", ["href": "#a"])], [e("text", [:])], [e("image", ["href": "data:,"])]] {
            #expect(throws: SVGError.self) { try imported(body) }
        }
        #expect(throws: SVGError.self) { try imported([e("title", [:])]) }
    }

    // MARK: fill-rule

    @Test func theFillRuleIsInheritedAndStyleWinsOverTheAttribute() throws {
        #expect(try imported([e("g", ["fill-rule": "evenodd"], [e("rect", ["width": "1", "height": "1"])])]).fillRules == [.evenodd])
        #expect(try imported([e("g", ["fill-rule": "evenodd", "style": "fill-rule:nonzero"], [e("rect", ["width": "1", "height": "1"])])]).fillRules == [.nonzero])
        #expect(try imported([e("rect", ["width": "1", "height": "1"]), e("rect", ["width": "1", "height": "1", "fill-rule": "evenodd"])]).fillRules
                == [.nonzero, .evenodd])
        #expect(throws: SVGError.self) { try imported([e("rect", ["width": "1", "height": "1", "fill-rule": "even-odd"])]) }
    }

    // MARK: The root viewport into the layer's bounds

    @Test func theRootViewBoxGoesIntoTheBoxAsPreserveAspectRatioSays() throws {
        let root = document([e("circle", ["cx": "12", "cy": "12", "r": "12"])], viewBox: "0 0 24 24")
        // meet into 48 × 96: s = 2, centred vertically: ty = (96 − 48) / 2 = 24.
        let meet = try SVGPathImport(root, into: Rect(0, 0, 48, 96)).path
        #expect(meet.boundingBox == Rect(0, 24, 48, 48))
        var stretched = root
        stretched.attributes["preserveAspectRatio"] = "none"
        #expect(try SVGPathImport(stretched, into: Rect(0, 0, 48, 96)).path.boundingBox == Rect(0, 0, 48, 96))
        var sliced = root
        sliced.attributes["preserveAspectRatio"] = "xMinYMin slice"
        #expect(try SVGPathImport(sliced, into: Rect(0, 0, 48, 96)).path.boundingBox == Rect(0, 0, 96, 96))
    }

    @Test func withoutABoxTheFileKeepsItsOwnSize() throws {
        var root = document([e("rect", ["width": "24", "height": "24"])], viewBox: "0 0 24 24")
        #expect(try SVGPathImport(root, into: nil).path.boundingBox == Rect(0, 0, 24, 24))
        #expect(try SVGPathImport(root, into: Rect(0, 0, 0, 0)).path.boundingBox == Rect(0, 0, 24, 24))
        root.attributes["width"] = "48px"
        root.attributes["height"] = "48"
        #expect(try SVGPathImport(root, into: nil).path.boundingBox == Rect(0, 0, 48, 48))
        // No viewBox: the artboard (0, 0, width, height) is what fills the box.
        root.attributes["viewBox"] = nil
        #expect(try SVGPathImport(root, into: Rect(0, 0, 96, 96)).path.boundingBox == Rect(0, 0, 48, 48))
    }
}
