import Foundation
import KineticCairo
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender
import KineticScene

/// Fonts beyond Latin, font files beside the scene, and the warning when a font falls back.
@Suite struct FontTests {
    /// The family Pango draws `name` with.
    static func resolved(_ name: String?) -> String? {
        let ctx = CairoContext(CairoSurface.image(.argb32, width: 10, height: 10))
        PangoFonts.shared.refreshThreadFontMap()
        return PangoTextLayout(context: ctx, text: "A", font: LayerRenderer.font(name), size: 12, wrapWidth: nil,
                               alignment: .left, justify: false).resolvedFamily
    }

    static func render(_ text: String, font: String, folder: String = ".", size: Double = 32) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 60], scale: 1, duration: 1, background: white}
        layers:
          - {type: text, frame: [0, 0, 200, 60], string: "\(text)", font: "\(font)", fontSize: \(size), foregroundColor: black}
        """, file: "t.yaml", baseDirectory: folder)
        return Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
    }

    /// DejaVu Serif with its family renamed "Kinetic Test" (same length, so the name
    /// table's offsets hold): a font no system has installed.
    static func renamedFont(in folder: String) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")))
        for (old, new) in [("DejaVu Serif", "Kinetic Test")] {
            // The name table holds it in Mac Roman and in UTF-16BE.
            for (o, n) in [(Array(old.utf8), Array(new.utf8)),
                           (old.utf8.flatMap { [0, $0] }, new.utf8.flatMap { [0, $0] })] {
                var i = 0
                while i + o.count <= bytes.count {
                    if Array(bytes[i..<i + o.count]) == o { bytes.replaceSubrange(i..<i + o.count, with: n); i += o.count } else { i += 1 }
                }
            }
        }
        let path = (folder as NSString).appendingPathComponent("KineticTest.ttf")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aMissingFontFallsBackWithAWarning() {
        // fontconfig's best match for a family it lacks is the default sans.
        let fallback = Self.resolved("NoSuchFontXYZ")
        #expect(fallback == "DejaVu Sans")
        let warning = LayerRenderer.fallbackWarning(requested: "NoSuchFontXYZ-Bold", family: "NoSuchFontXYZ", resolved: fallback)
        #expect(warning == "warning: font 'NoSuchFontXYZ-Bold' (family 'NoSuchFontXYZ') is not available; text is drawn in 'DejaVu Sans'")
        // Installed families, in any case, and the generic ones, do not warn.
        #expect(Self.resolved("DejaVu Serif Bold") == "DejaVu Serif")
        #expect(LayerRenderer.fallbackWarning(requested: "dejavu serif", family: "dejavu serif", resolved: "DejaVu Serif") == nil)
        #expect(LayerRenderer.fallbackWarning(requested: "monospace", family: "monospace", resolved: "DejaVu Sans Mono") == nil)
    }

    @Test func chineseAndEmojiHaveFonts() throws {
        // `make deps` installs Noto CJK and Noto Color Emoji.
        #expect(Self.resolved("Noto Sans CJK SC") == "Noto Sans CJK SC")
        // The emoji is drawn in color (from the emoji font, whatever the foreground).
        let image = try Self.render("👋", font: "Noto Sans CJK SC")
        var colored = 0
        for y in 0..<60 { for x in 0..<200 {
            let p = image.rgba(x: x, y: y)
            if Int(p.r) - Int(p.b) > 60 { colored += 1 }
        } }
        #expect(colored > 100)
        // 你 is a glyph of the CJK font, not a box: its ink differs from a missing glyph's.
        let hanzi = try Self.render("你", font: "Noto Sans CJK SC"), missing = try Self.render("\u{E000}", font: "Noto Sans CJK SC")
        #expect(hanzi.bytes != missing.bytes)
    }

    @Test func aFontFileBesideTheSceneIsLoaded() throws {
        let folder = NSTemporaryDirectory() + "kinetic-font-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.renamedFont(in: folder)
        #expect(PangoFonts.shared.family(ofFile: path) == "Kinetic Test")
        #expect(Self.resolved(path) == "Kinetic Test")
        // Drawn from the file: the same glyphs as DejaVu Serif, not the default sans.
        let fromFile = try Self.render("Kinetic", font: "KineticTest.ttf", folder: folder)
        #expect(fromFile.bytes == (try Self.render("Kinetic", font: "DejaVu Serif")).bytes)
        #expect(fromFile.bytes != (try Self.render("Kinetic", font: "DejaVu Sans")).bytes)
    }

    @Test func fontFilesFollowTheAssetPolicy() throws {
        let folder = NSTemporaryDirectory() + "kinetic-font-policy-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("not a font\n".utf8).write(to: URL(fileURLWithPath: folder + "/text.ttf"))
        func problem(_ font: String) -> String? {
            do { _ = try Self.render("a", font: font, folder: folder); return nil } catch let error as SceneLoadError {
                return error.problems.first.map { "\($0.location.line):\($0.location.column): \($0.keyPath): \($0.message)" }
            } catch { return "\(error)" }
        }
        #expect(problem("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")?.hasPrefix(
            "4:61: layers[0].font: font file '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf' is outside the scene's folder (an absolute path)") == true)
        #expect(problem("../DejaVuSerif.ttf")?.contains("is outside the scene's folder") == true
                || problem("../DejaVuSerif.ttf")?.contains("missing font file") == true)
        #expect(problem("text.ttf")?.hasSuffix("cannot read font file 'text.ttf': not a TrueType or OpenType font") == true)
        // The same file is read where it is inside the folder.
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", toPath: folder + "/serif.ttf")
        #expect(problem("serif.ttf") == nil)
    }

    @Test func aMissingFontFileIsALocatedError() {
        #expect(throws: SceneLoadError.self) { _ = try Self.render("a", font: "Nope.otf", folder: NSTemporaryDirectory()) }
    }
}
