import Testing
@testable import KineticAnimation

/// y for a given x by brute force: sample the curve parameter densely, find the sample
/// pair bracketing x and interpolate linearly between them.
private func bruteForce(_ x: Double, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> Double {
    func point(_ s: Double) -> (x: Double, y: Double) {
        let r = 1 - s
        return (3 * r * r * s * c1x + 3 * r * s * s * c2x + s * s * s,
                3 * r * r * s * c1y + 3 * r * s * s * c2y + s * s * s)
    }
    let n = 200_000
    var previous = point(0)
    for i in 1...n {
        let p = point(Double(i) / Double(n))
        if p.x >= x {
            let span = p.x - previous.x
            let w = span > 0 ? (x - previous.x) / span : 1
            return previous.y + (p.y - previous.y) * w
        }
        previous = p
    }
    return 1
}

private let curves: [(TimingFunction, (Double, Double, Double, Double))] = [
    (.easeIn, (0.42, 0, 1, 1)),
    (.easeOut, (0, 0, 0.58, 1)),
    (.easeInEaseOut, (0.42, 0, 0.58, 1)),
    (.default, (0.25, 0.1, 0.25, 1)),
    (.cubicBezier(0.68, -0.55, 0.27, 1.55), (0.68, -0.55, 0.27, 1.55)),  // overshooting y
    (.cubicBezier(0, 0, 0, 1), (0, 0, 0, 1)),                          // flat start slope in x
    (.cubicBezier(1, 0, 1, 1), (1, 0, 1, 1)),                          // flat end slope in x
]

@Test func namedCurvesMatchBruteForceSolve() {
    for (function, p) in curves {
        for i in 0...40 {
            let x = Double(i) / 40
            let expected = bruteForce(x, p.0, p.1, p.2, p.3)
            #expect(abs(function(x) - expected) < 1e-7, "\(function) at \(x)")
        }
    }
}

@Test func endPointsAndClamping() {
    for (function, _) in curves {
        #expect(abs(function(0)) < 1e-9)
        #expect(abs(function(1) - 1) < 1e-9)
        #expect(function(-0.5) == function(0))
        #expect(function(1.5) == function(1))
    }
    #expect(TimingFunction.linear(0.3) == 0.3)
}

@Test func easeInEaseOutIsPointSymmetric() {
    // Control points (0.42, 0) and (0.58, 1) are symmetric about (0.5, 0.5).
    for i in 0...20 {
        let x = Double(i) / 20
        let f = TimingFunction.easeInEaseOut
        #expect(abs(f(x) + f(1 - x) - 1) < 1e-7)
    }
    #expect(abs(TimingFunction.easeInEaseOut(0.5) - 0.5) < 1e-7)
    #expect(TimingFunction.easeIn(0.5) < 0.5)
    #expect(TimingFunction.easeOut(0.5) > 0.5)
}
