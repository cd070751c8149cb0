import Testing
@testable import KineticExpressions

@Test func randomIsDeterministicPerSeedFrameExpressionAndCallSite() throws {
    let base = try number("random()", frame: 3)
    #expect(try number("random()", frame: 3) == base)                              // same inputs
    #expect(try evaluate("random()", frame: 3, seed: 2).scalar != base)            // seed
    #expect(try number("random()", frame: 4) != base)                              // frame
    #expect(try evaluate("random()", frame: 3, expressionID: 9).scalar != base)    // expression
    #expect(try number("random() - random()", frame: 3) != 0)                      // call site
    // The first call site of a longer expression draws what a lone random() draws.
    #expect(try number("random() + 0 * random()", frame: 3) == base)
}

@Test func randomIsUniformInTheUnitInterval() throws {
    let expression = try SceneExpression.parse("random()")
    var draws: [Double] = []
    for frame in 0..<10_000 {
        let context = EvaluationContext(time: 0, frame: frame, seed: 42, expressionID: 7) { _ in .scalar(0) }
        draws.append(expression.evaluate(context).scalar ?? .nan)
    }
    #expect(draws.allSatisfy { $0 >= 0 && $0 < 1 })
    let mean = draws.reduce(0, +) / Double(draws.count)
    #expect(Swift.abs(mean - 0.5) < 0.02)
    // Variance of U(0, 1) is 1/12.
    let variance = draws.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(draws.count)
    #expect(Swift.abs(variance - 1.0 / 12) < 0.005)
    // Each tenth of the interval gets about a tenth (σ ≈ 30 per bin).
    var bins = [Int](repeating: 0, count: 10)
    for d in draws { bins[Int(d * 10)] += 1 }
    #expect(bins.allSatisfy { Swift.abs($0 - 1000) < 150 }, "\(bins)")
}

@Test func callSitesAreIndependent() throws {
    let expression = try SceneExpression.parse("[random(), random()]")
    var sumOfProducts = 0.0, equal = 0
    let n = 10_000
    for frame in 0..<n {
        let context = EvaluationContext(time: 0, frame: frame, seed: 1, expressionID: 0) { _ in .scalar(0) }
        let p = expression.evaluate(context).vector ?? .zero
        sumOfProducts += p.x * p.y
        if p.x == p.y { equal += 1 }
    }
    #expect(equal == 0)
    // E[XY] = 1/4 for independent uniforms.
    #expect(Swift.abs(sumOfProducts / Double(n) - 0.25) < 0.01)
}
