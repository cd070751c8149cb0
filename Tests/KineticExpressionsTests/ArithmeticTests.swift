import Foundation
import Testing
import KineticGeometry
@testable import KineticExpressions

@Test(arguments: [
    ("1 + 2 * 3", 7.0),
    ("(1 + 2) * 3", 9),
    ("10 - 4 - 3", 3),            // left-associative
    ("100 / 10 / 5", 2),
    ("8 / 2 * 4", 16),
    ("2 ^ 3 ^ 2", 512),           // right-associative: 2^9
    ("(2 ^ 3) ^ 2", 64),
    ("-2 ^ 2", -4),               // as in math, ^ binds tighter than unary minus
    ("(-2) ^ 2", 4),
    ("2 ^ -1", 0.5),
    ("2 * 3 ^ 2", 18),
    ("-2 * 3", -6),
    ("2 * -3", -6),
    ("1 - -1", 2),
    ("--3", 3),
    ("1 - 2 + 3", 2),
    ("2 + 12 / 4 - 1", 4),
    ("1e-3", 0.001),
    (".5", 0.5),
    ("1.", 1),
    ("2.5E+2", 250),
    ("4e2 / 1e1", 40),
    ("\t1 +\n 2 ", 3),             // any whitespace, e.g. from a folded YAML string
])
func precedenceAndAssociativity(source: String, expected: Double) throws {
    #expect(isClose(try number(source), expected))
}

@Test func variablesAndConstants() throws {
    #expect(try number("pi") == Double.pi)
    #expect(try number("t", t: 1.5) == 1.5)
    #expect(try number("frame", frame: 7) == 7)
    #expect(try number("t * 2 + frame", t: 0.25, frame: 3) == 3.5)
    #expect(try number("-frame", frame: -2) == 2)
}

@Test func usageFlags() throws {
    let constant = try SceneExpression.parse("1 + pi")
    #expect(!constant.usesTime && !constant.usesRandom && constant.references.isEmpty)
    #expect(try SceneExpression.parse("frame / 50").usesTime)
    #expect(try SceneExpression.parse("sin(t)").usesTime)
    #expect(!(try SceneExpression.parse("sin(t)").usesRandom))
    #expect(try SceneExpression.parse("random() * 2").usesRandom)
}

/// One or more hand-computed cases per function.
let functionCases: [(String, Double)] = [
    ("sin(pi / 2)", 1), ("sin(0)", 0),
    ("cos(0)", 1), ("cos(pi)", -1),
    ("tan(pi / 4)", 1),
    ("asin(1)", Double.pi / 2),
    ("acos(-1)", Double.pi),
    ("atan(1)", Double.pi / 4),
    ("atan2(1, -1)", 3 * Double.pi / 4),     // (y, x) as in C
    ("atan2(-1, 0)", -Double.pi / 2),
    ("abs(-3)", 3), ("abs(2.5)", 2.5),
    ("min(3, 1, 2)", 1), ("min(-1, 4)", -1),
    ("max(3, 5)", 5), ("max(1, 7, 2)", 7),
    ("clamp(5, 0, 2)", 2), ("clamp(-1, 0, 2)", 0), ("clamp(1.5, 0, 2)", 1.5),
    ("sqrt(16)", 4), ("sqrt(2) * sqrt(2)", 2),
    ("pow(2, 10)", 1024), ("pow(9, 0.5)", 3),
    ("exp(0)", 1), ("exp(1)", 2.718281828459045),
    ("log(1)", 0), ("log(exp(3))", 3),     // natural logarithm
    ("floor(-1.5)", -2), ("floor(2.7)", 2),
    ("ceil(-1.5)", -1), ("ceil(2.1)", 3),
    ("round(2.5)", 3), ("round(-2.5)", -3), ("round(1.4)", 1),   // halves away from zero
    ("lerp(10, 20, 0.25)", 12.5), ("lerp(10, 20, 2)", 30),       // not clamped
    ("smoothstep(0, 10, 5)", 0.5),
    ("smoothstep(0, 10, 2.5)", 0.15625),                          // 3u² - 2u³ at u = 1/4
    ("smoothstep(0, 10, -1)", 0), ("smoothstep(0, 10, 11)", 1),
    ("smoothstep(1, 1, 0)", 0), ("smoothstep(1, 1, 1)", 1),      // equal edges: a step
]

@Test(arguments: functionCases)
func functions(source: String, expected: Double) throws {
    #expect(isClose(try number(source), expected, tolerance: 1e-12))
}

@Test func everyFunctionIsCovered() {
    for function in Function.allCases where function != .random {
        #expect(functionCases.contains { $0.0.hasPrefix(function.rawValue + "(") }, "\(function)")
    }
}

@Test func nonFiniteResultsAreReturnedForTheCallerToReport() throws {
    #expect(try number("sqrt(-1)")?.isNaN == true)
    #expect(try number("1 / 0") == .infinity)
    #expect(try number("log(0)") == -.infinity)
    #expect(try number("asin(2)")?.isNaN == true)
    #expect(try number("min(sqrt(-1), 1)")?.isNaN == true)    // NaN is not hidden by min/max/clamp
    #expect(try number("clamp(0 / 0, 0, 1)")?.isNaN == true)
    #expect(!(try evaluate("[1, 2] / 0").isFinite))
    #expect(try evaluate("[1, 2] / 2").isFinite)
}
