import Testing
@testable import KineticScene

/// A spring animation leaves its end value exactly, as UIView.animate sets the model.
@Suite struct SpringEndTests {
    func x(_ yaml: String, at time: Double) throws -> Double? {
        let scene = try SceneLoader.load(text: "kinetic: 1\nscene: {size: [200, 200], duration: 4, fps: 50}\n" + yaml,
                                         file: "t.yaml")
        return findLayer(Timeline(scene: scene).frame(at: time, index: 0).layers, id: "a")?.position.x
    }

    @Test(arguments: [
        "spring: {dampingRatio: 0.5, initialVelocity: 0}, duration: 1",
        "spring: {mass: 1, stiffness: 100, damping: 10, initialVelocity: 0}",
    ])
    func theEndValueHoldsExactlyAfterTheSpring(spring: String) throws {
        let yaml = """
        layers: [{id: a, position: [0, 0], bounds: [10, 10]}]
        animations: [{layer: a, keyPath: position.x, from: 0, to: 240, \(spring)}]
        """
        #expect(try x(yaml, at: 3.9) == 240)
        // While it moves, it is the oscillator's value, not yet the end.
        let moving = try #require(try x(yaml, at: 0.3))
        #expect(moving != 240 && moving > 0)
    }
}
