import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// Path coordinates are written on the coarsest grid whose rounding stays within 0.005 pt
/// on the canvas, tangents so that the control points (vertex + tangent) land on it too.
struct PathPrecisionTests {
    @Test func theGridIsTheCoarsestWhoseHalfStepIsAtMostAHalfHundredthOfAPointOnTheCanvas() {
        // 0.01 × m ≤ 0.01 up to m = 1; 0.001 × m up to 10; past that the JSON's 4 decimals.
        #expect(TrackWriter.pathQuantum(magnification: 0.5) == 0.01)
        #expect(TrackWriter.pathQuantum(magnification: 1) == 0.01)
        #expect(TrackWriter.pathQuantum(magnification: 5) == 0.001)
        #expect(TrackWriter.pathQuantum(magnification: 10) == 0.001)
        #expect(TrackWriter.pathQuantum(magnification: 11) == 0.0001)
        #expect(TrackWriter.pathQuantum(magnification: .infinity) == 0.0001)
    }

    @Test func controlPointsNotTangentsAreRoundedToTheGrid() {
        // Vertex (18.004, 11.8333) → (18, 11.83). Its out control point (18.3407, 11.8284)
        // → (18.34, 11.83), so the out tangent is written (0.34, 0), not round(0.3367,
        // −0.0049) = (0.34, −0). The second vertex (30.0418, 19.9674) → (30.04, 19.97), its
        // in control point (29.0368, 19.9624) → (29.04, 19.96): in tangent (−1, −0.01).
        let values = [18.004, 11.8333, 0, 0, 0.3367, -0.0049,
                      30.0418, 19.9674, -1.005, -0.005, 0, 0]
        let text = LottieBezier.json(values: values, closed: false, quantum: 0.01).text
        #expect(text == #"{"v":[[18,11.83],[30.04,19.97]],"i":[[0,0],[-1,-0.01]],"o":[[0.34,0],[0,0]]}"#)
        // Without a grid every digit the JSON keeps is written.
        #expect(LottieBezier.json(values: values, closed: false).text
            == #"{"v":[[18.004,11.8333],[30.0418,19.9674]],"i":[[0,0],[-1.005,-0.005]],"o":[[0.3367,-0.0049],[0,0]]}"#)
        // `c` defaults to false (lottie-spec): written only for a closed shape.
        #expect(LottieBezier.json(values: values, closed: true, quantum: 0.01).text.hasPrefix(#"{"c":true,"v":[[18,11.83]"#))
    }

    /// The first `sh` vertex a layer's export writes for a triangle at (10.123456, 20.987654).
    private func firstVertex(scale: Double) throws -> String {
        var layer = Layer(id: "tri", place: "layers[0]", type: .shape)
        layer.bounds = Rect(0, 0, 40, 40)
        layer.position = Point(100, 100)
        layer.transform = .scale(scale, scale)
        var shape = ShapeStyle()
        var path = BezierPath()
        path.move(to: Point(10.123456, 20.987654))
        path.addLine(to: Point(30, 20))
        path.addLine(to: Point(20, 35))
        path.close()
        shape.path = path
        shape.fillColor = Color(red: 1, green: 0, blue: 0)
        layer.shape = shape
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.clear), layers: [layer]))
        let text = exporter.document().text
        guard let range = text.range(of: #""v":\[\[[^\]]*\]"#, options: .regularExpression) else { return "" }
        return String(text[range])
    }

    @Test func aMagnifiedLayerKeepsMoreDecimals() throws {
        // Unscaled: 2 decimals (0.005 pt at most). Scaled 4×: 3 decimals (0.0005 × 4 =
        // 0.002 pt). Scaled 20×: the JSON's 4 (0.00005 × 20 = 0.001 pt).
        #expect(try firstVertex(scale: 1) == #""v":[[10.12,20.99]"#)
        #expect(try firstVertex(scale: 4) == #""v":[[10.123,20.988]"#)
        #expect(try firstVertex(scale: 20) == #""v":[[10.1235,20.9877]"#)
    }
}
