import Foundation
import KineticCairo
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender
import KineticScene

/// CATextLayer's `truncationMode`: Pango's ellipsis where the text passes the bounds.
@Suite struct TextTruncationTests {
    static let sentence = "The quick brown fox jumps over the lazy dog"

    static func layout(_ text: String, wrap: Double? = nil, ellipsis: (TextEllipsis, Size)?) -> PangoTextLayout {
        let ctx = CairoContext(CairoSurface.image(.argb32, width: 10, height: 10))
        PangoFonts.shared.refreshThreadFontMap()
        return PangoTextLayout(context: ctx, text: text, font: FontName("DejaVu Sans"), size: 20, wrapWidth: wrap,
                               alignment: .left, justify: false, ellipsis: ellipsis)
    }

    @Test func aLineThatPassesTheWidthEndsInAnEllipsis() {
        let plain = Self.layout(Self.sentence, ellipsis: nil)
        #expect(!plain.isEllipsized && plain.size.width > 150)
        for mode in [TextEllipsis.start, .middle, .end] {
            let cut = Self.layout(Self.sentence, ellipsis: (mode, Size(150, 40)))
            #expect(cut.isEllipsized && cut.size.width <= 150, "\(mode)")
        }
        // What fits is left alone.
        #expect(!Self.layout("Hi", ellipsis: (.end, Size(150, 40))).isEllipsized)
    }

    @Test func wrappedTextIsCutInTheLastLineThatFitsTheHeight() {
        let wrapped = Self.layout(Self.sentence, wrap: 150, ellipsis: nil)
        #expect(wrapped.size.height > 50)
        let cut = Self.layout(Self.sentence, wrap: 150, ellipsis: (.end, Size(150, 50)))
        #expect(cut.isEllipsized && cut.size.height <= 50)
    }

    static func render(_ mode: String) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [160, 30], scale: 1, duration: 1, background: white}
        layers:
          - {type: text, frame: [0, 0, 160, 30], string: "\(sentence)", font: "DejaVu Sans", fontSize: 20,
             foregroundColor: black, truncationMode: \(mode)}
        """, file: "t.yaml")
        return Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
    }

    /// Whether columns `xs` of two images hold the same pixels.
    static func same(_ a: PixelImage, _ b: PixelImage, columns xs: Range<Int>) -> Bool {
        xs.allSatisfy { x in (0..<a.height).allSatisfy { y in a.rgba(x: x, y: y) == b.rgba(x: x, y: y) } }
    }

    @Test func endKeepsTheStartAndStartKeepsTheEnd() throws {
        let none = try Self.render("none"), end = try Self.render("end"), start = try Self.render("start")
        // `none` runs into the clip; `end` draws the same first words, then "…".
        #expect(Self.same(none, end, columns: 0..<40))
        #expect(!Self.same(none, end, columns: 0..<160))
        // `start` replaces the first words: its left edge differs from them.
        #expect(!Self.same(none, start, columns: 0..<40))
    }
}
