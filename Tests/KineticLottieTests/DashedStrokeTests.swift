import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// A dashed stroke along a slanted line or a curve is written as its dashes (players
/// measure a dash pattern differently there); horizontal and vertical lines keep the
/// pattern.
struct DashedStrokeTests {
    private func export(_ path: BezierPath, dash: [Double], phase: Double = 0, strokeEnd: Double = 1) throws -> LottieJSON? {
        var layer = Layer(id: "line", place: "layers[0]", type: .shape)
        layer.bounds = Rect(0, 0, 40, 40)
        layer.position = Point(100, 100)
        var shape = ShapeStyle()
        shape.path = path
        shape.fillColor = nil
        shape.strokeColor = Color(red: 0, green: 0, blue: 1)
        shape.lineWidth = 2
        shape.lineDashPattern = dash
        shape.lineDashPhase = phase
        shape.strokeEnd = strokeEnd
        layer.shape = shape
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.clear), layers: [layer]))
        guard case .array(let layers)? = exporter.document()["layers"],
              case .array(let groups)? = layers.first(where: { $0["nm"] == "line" })?["shapes"] else { return nil }
        return groups.first
    }

    private func items(_ group: LottieJSON?) -> [LottieJSON] {
        if case .array(let items)? = group?["it"] { return items }
        return []
    }

    /// The `sh` items' vertices.
    private func vertices(_ group: LottieJSON?) -> [[[Double]]] {
        items(group).filter { $0["ty"] == "sh" }.map { item -> [[Double]] in
            guard case .array(let points)? = item["ks"]?["k"]?["v"] else { return [] }
            return points.map { point -> [Double] in
                guard case .array(let xy) = point else { return [] }
                return xy.compactMap { if case .number(let v) = $0 { v } else { nil } }
            }
        }
    }

    @Test func aDiagonalDashedLineIsItsDashesStrokedWithoutAPattern() throws {
        // 30-40-50: on 10, off 5 from 12 → dashes 3–13, 18–28, 33–43, 48–50 along it.
        let group = try export(BezierPath([.move(to: Point(0, 0)), .line(to: Point(30, 40))]), dash: [10, 5], phase: 12)
        let stroke = items(group).first { $0["ty"] == "st" }
        #expect(stroke != nil && stroke?["d"] == nil)
        let expected: [[[Double]]] = [(3, 13), (18, 28), (33, 43), (48, 50)].map { a, b in
            [[0.6 * a, 0.8 * a], [0.6 * b, 0.8 * b]]
        }
        let found = vertices(group)
        #expect(found.count == 4)
        for (f, e) in zip(found, expected) {
            #expect(zip(f, e).allSatisfy { abs($0[0] - $1[0]) < 0.01 && abs($0[1] - $1[1]) < 0.01 }, "\(f) \(e)")
        }
    }

    @Test func aRectangleKeepsItsPattern() throws {
        let group = try export(BezierPath.rect(Rect(0, 0, 40, 40)), dash: [3, 3])
        let stroke = items(group).first { $0["ty"] == "st" }
        guard case .array(let dash)? = stroke?["d"] else { Issue.record("no dash pattern"); return }
        #expect(dash.map { $0["n"] } == ["d", "g", "o"])
        #expect(vertices(group).count == 1)
    }

    @Test func aTrimmedDashedStrokeKeepsItsPattern() throws {
        // The trim measures the path it is given: the dashes would not be that path.
        let group = try export(BezierPath([.move(to: Point(0, 0)), .line(to: Point(30, 40))]), dash: [10, 5], strokeEnd: 0.5)
        #expect(items(group).map { $0["ty"] } == ["sh", "tm", "st", "tr"])
        #expect(items(group).first { $0["ty"] == "st" }?["d"] != nil)
    }
}
