import Testing
@testable import KineticRender

/// Font names as iOS code writes them resolve to a family, weight and slant.
@Suite struct FontNameTests {
    func font(_ family: String?, _ weight: Int = 400, _ slant: FontName.Slant = .upright) -> FontName {
        var f = FontName(nil)
        f.family = family; f.weight = weight; f.slant = slant
        return f
    }

    @Test func postScriptNamesTakeTheirFaceAfterTheHyphen() {
        #expect(FontName("Helvetica-Bold") == font("Helvetica", 700))
        #expect(FontName("HelveticaNeue-MediumItalic") == font("HelveticaNeue", 500, .italic))
        #expect(FontName("Avenir-Heavy") == font("Avenir", 800))
        #expect(FontName("AvenirNext-DemiBold") == font("AvenirNext", 600))
        #expect(FontName("Helvetica-BoldOblique") == font("Helvetica", 700, .oblique))
        #expect(FontName("SFProText-Semibold") == font("SFProText", 600))
        #expect(FontName("Times-Roman") == font("Times", 400))
        #expect(FontName("HelveticaNeue-UltraLight") == font("HelveticaNeue", 200))
    }

    @Test func familiesTakeStyleWordsFromTheEnd() {
        #expect(FontName("DejaVu Sans Bold") == font("DejaVu Sans", 700))
        #expect(FontName("Noto Serif Light Italic") == font("Noto Serif", 300, .italic))
        #expect(FontName("DejaVu Sans") == font("DejaVu Sans"))
        // A lone word is a family even when it looks like a style.
        #expect(FontName("Black") == font("Black"))
        #expect(FontName(nil) == font(nil))
        #expect(FontName("") == font(nil))
    }
}
