import Foundation
import Testing
@testable import KineticScene

/// The loader's shortcuts for the common case (issue 42's fixed cost) give what the long
/// way gives: Foundation's trimming, YAML 1.2's number forms, the refused Apple names.
@Suite struct LoadShortcutTests {
    /// Against Foundation's own `trimmingCharacters(in: .whitespaces)`: ASCII ends, the
    /// tab, and the Unicode spaces (`Zs`) only Foundation knows, at either end.
    @Test func whitespaceTrimmingMatchesFoundation() {
        let texts = ["", " ", "\t", "0.5", " 0.5", "0.5\t", "\u{A0}0.5", "0.5\u{3000}", "\u{2003}x\u{2003}",
                     "x\n", "\ny", "é", " é ", "#FFF", "a b", "\u{A0}"]
        for text in texts {
            #expect(text.trimmingWhitespaces() == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }

    /// A number behind a no-break space still reads (Foundation trims it), as before.
    @Test func numberBehindANoBreakSpaceReads() throws {
        let scene = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [100, 100], duration: 1}
            layers:
              - {id: a, opacity: \u{A0}0.25}
            """, file: "t.yaml")
        #expect(scene.layers.first?.opacity == 0.25)
    }

    /// Text keys: YAML 1.2's numbers are refused whatever character they start with, and
    /// text starting with a sign, a digit or a point is still text.
    @Test func textKeysTellNumbersFromText() {
        let scene = "kinetic: 1\nscene: {size: [100, 100], duration: 1}\nlayers:\n  - id: a\n    type: text\n"
        for number in ["+1", "-2.5", ".5", "0x1F", "0o17", "1e3", ".inf", "-.inf", ".nan"] {
            #expect(loadProblems(scene + "    string: \(number)\n").map(\.message)
                    == ["expected text, found the number \(number) (quote it to mean the text)"])
        }
        for text in ["1st", "-x", ".hidden", "+", "0x", "1.2.3", "inf", "x1"] {
            #expect(loadProblems(scene + "    string: \(text)\n").isEmpty, "\(text)")
        }
    }

    /// Apple's names are refused with their owner when first met, in a layer of any type.
    @Test func appleNamesAreRefusedInEveryLayerMapping() {
        let scene = "kinetic: 1\nscene: {size: [100, 100], duration: 1}\nlayers:\n"
        let p = loadProblems(scene + "  - {id: a, isOpaque: true}\n  - {id: b, type: text, allowsFontSubpixelQuantization: true}\n")
        #expect(p.map(\.message).map { $0.prefix(60) } == [
            "'isOpaque' is not supported (CALayer.isOpaque): Kinetic does",
            "'allowsFontSubpixelQuantization' is not supported (CATextLay",
        ])
    }
}
