import Testing
@testable import KineticExpressions

@Test(arguments: [
    ("", 0, "expected a number or a name, found the end of the expression"),
    ("1 +", 3, "expected a number or a name, found the end of the expression"),
    ("1 + ", 3, "expected a number or a name, found the end of the expression"),   // just after the '+', not the space
    ("sin(", 4, "expected a number or a name, found the end of the expression"),
    ("  ", 0, "expected a number or a name, found the end of the expression"),
    ("1 + * 2", 4, "expected a number or a name, found '*'"),
    ("+1", 0, "expected a number or a name, found '+'"),
    ("1 + 2)", 5, "unexpected ')'"),
    ("[1, 2]]", 6, "unexpected ']'"),
    ("1, 2", 1, "unexpected ','"),
    ("(1 + 2", 6, "expected ')', found the end of the expression"),
    ("(1 2)", 3, "expected ')', found '2'"),
    ("1 2", 2, "expected an operator, found '2'"),
    ("t frame", 2, "expected an operator, found 'frame'"),
    ("sinn(1)", 0, "unknown function 'sinn' (did you mean 'sin'?)"),
    ("1 + smoothstp(0, 1, t)", 4, "unknown function 'smoothstp' (did you mean 'smoothstep'?)"),
    ("foo(1)", 0, "unknown function 'foo'"),
    ("sin(1, 2)", 0, "sin takes 1 argument, found 2"),
    ("2 * atan2(1)", 4, "atan2 takes 2 arguments, found 1"),
    ("random(1)", 0, "random takes no arguments, found 1"),
    ("clamp(1, 2)", 0, "clamp takes 3 arguments, found 2"),
    ("min(1)", 0, "min takes at least 2 arguments, found 1"),
    ("2 * fram", 4, "unknown name 'fram' (did you mean 'frame'?)"),
    ("ball", 0, "unknown name 'ball' (a reference names a property: 'ball.position.x')"),
    ("pj * 2", 0, "unknown name 'pj' (did you mean 'pi'?)"),
    ("sin + 1", 4, "expected '(' after 'sin', found '+'"),
    ("sin", 3, "expected '(' after 'sin', found the end of the expression"),
    ("1 # 2", 2, "unexpected '#'"),
    ("1 + 2 + 🇫🇷", 8, "unexpected '🇫🇷'"),    // one Character, two scalars
    ("45deg", 2, "degrees are not supported inside expressions (write 45 * pi / 180)"),
    ("1e999", 0, "number '1e999' is out of range"),
    ("[1]", 0, "a point has 2 components, found 1"),
    ("2 * [1, 2, 3]", 4, "a point has 2 components, found 3"),
    ("[]", 0, "a point has 2 components, found 0"),
    ("[1, 2", 5, "expected ',' or ']', found the end of the expression"),
    ("sin(1", 5, "expected ',' or ')', found the end of the expression"),
    ("sin(1 2)", 6, "expected ',' or ')', found '2'"),
    ("a.", 2, "expected a property name after '.'"),
    ("a.5", 2, "expected a property name after '.'"),
    ("[1, 2].z", 7, "expected 'x' or 'y' after '.'"),
    ("@ 1", 1, "expected a layer id after '@'"),
    ("1 + @", 5, "expected a layer id after '@'"),
    ("@a-", 3, "expected a number or a name, found the end of the expression"),
])
func syntaxErrors(source: String, offset: Int, message: String) {
    #expect(parseError(source) == ExpressionError(offset: offset, message: message))
}

@Test(arguments: [
    ("[1, 2] + 3", 7, "cannot add a point and a number"),
    ("3 - [1, 2]", 2, "cannot subtract a point from a number"),
    ("[1, 2] * [3, 4]", 7, "cannot multiply a point by a point"),
    ("1 / [1, 2]", 2, "cannot divide a number by a point"),
    ("[1, 2] ^ 2", 0, "expected a number, found a point"),
    ("2 ^ @a", 5, "expected a number, found a point"),
    ("sin([1, 2])", 4, "expected a number, found a point"),
    ("1 + max(2, @a + [1, 1])", 12, "expected a number, found a point"),   // at the operand's start
    ("(1).x", 3, "'.x' needs a point, found a number"),
    ("[[1, 2], 3]", 1, "expected a number, found a point"),
    ("lerp(1, [1, 2], 0.5)", 8, "expected a number, found a point"),
    ("lerp([0, 0], [1, 1], [1, 1])", 21, "expected a number, found a point"),
    ("sin(a.b + 1)", 8, "cannot add a point and a number"),
    ("1 + a.color", 4, "'a.color' is neither a number nor a point"),
])
func typeErrors(source: String, offset: Int, message: String) throws {
    let kinds: [String: ValueKind] = ["a.position": .vector, "a.b": .vector]
    #expect(try typeError(source, kinds: kinds) == ExpressionError(offset: offset, message: message))
}

@Test func depthIsBoundedSoAHostileFileCannotOverflowTheStack() throws {
    let tooDeep = "expression is too deep (more than 256 nested operations)"
    // 255 negations of a leaf is 256 levels: allowed, and evaluates.
    #expect(try number(String(repeating: "-", count: 255) + "1") == -1)
    #expect(parseError(String(repeating: "-", count: 256) + "1")
        == ExpressionError(offset: 256, message: tooDeep))
    // A sum of n terms is n levels deep (left-associative).
    #expect(try number("1" + String(repeating: "+1", count: 255)) == 256)
    #expect(parseError("1" + String(repeating: "+1", count: 256))
        == ExpressionError(offset: 511, message: tooDeep))       // at the 256th '+'
    // Parentheses nest the parser without making nodes.
    let parens = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
    #expect(parseError(parens) == ExpressionError(offset: 256, message: tooDeep))
}
