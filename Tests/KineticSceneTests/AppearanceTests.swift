import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Semantic UIColors resolved by `scene.appearance` (and the `--appearance` override).
@Suite struct AppearanceTests {
    static func colors(_ appearance: String?, override: Appearance? = nil) throws -> [String: Color] {
        var limits = SceneLimits()
        limits.appearance = override
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], duration: 1, background: systemBackground\(appearance.map { ", appearance: \($0)" } ?? "")}
        layers:
          - {id: card, frame: [0, 0, 10, 10], backgroundColor: secondarySystemBackground, borderColor: separator}
          - {id: title, type: text, frame: [0, 0, 10, 10], foregroundColor: secondaryLabel}
          - {id: button, frame: [0, 0, 10, 10], backgroundColor: systemBlue}
        """, file: "t.yaml", limits: limits)
        guard case .color(let background) = scene.settings.background,
              let card = scene.layers.first(where: { $0.id == "card" }),
              let title = scene.layers.first(where: { $0.id == "title" })?.text,
              let button = scene.layers.first(where: { $0.id == "button" })?.backgroundColor,
              let cardColor = card.backgroundColor else { return [:] }
        return ["background": background, "card": cardColor, "separator": card.borderColor,
                "secondaryLabel": title.foregroundColor, "systemBlue": button]
    }

    static func rgba(_ c: Color?) -> [Int] {
        guard let c else { return [] }
        return [c.red, c.green, c.blue].map { Int(($0 * 255).rounded()) } + [Int((c.alpha * 100).rounded())]
    }

    @Test func lightIsTheDefaultAndDarkSwitchesEveryNamedColor() throws {
        // Apple's values: systemBackground white / black; secondarySystemBackground
        // #F2F2F7 / #1C1C1E; separator #3C3C43 at 29 % / #545458 at 60 %;
        // secondaryLabel #3C3C43 at 60 % / #EBEBF5 at 60 %; systemBlue #007AFF / #0A84FF.
        let light = try Self.colors(nil), dark = try Self.colors("dark")
        #expect(Self.rgba(light["background"]) == [255, 255, 255, 100])
        #expect(Self.rgba(dark["background"]) == [0, 0, 0, 100])
        #expect(Self.rgba(light["card"]) == [242, 242, 247, 100])
        #expect(Self.rgba(dark["card"]) == [28, 28, 30, 100])
        #expect(Self.rgba(light["separator"]) == [60, 60, 67, 29])
        #expect(Self.rgba(dark["separator"]) == [84, 84, 88, 60])
        #expect(Self.rgba(light["secondaryLabel"]) == [60, 60, 67, 60])
        #expect(Self.rgba(dark["secondaryLabel"]) == [235, 235, 245, 60])
        #expect(Self.rgba(light["systemBlue"]) == [0, 122, 255, 100])
        #expect(Self.rgba(dark["systemBlue"]) == [10, 132, 255, 100])
        #expect(Self.rgba(try Self.colors("light")["card"]) == [242, 242, 247, 100])
    }

    @Test func theCommandLineOverridesTheScene() throws {
        #expect(Self.rgba(try Self.colors("light", override: .dark)["card"]) == [28, 28, 30, 100])
        #expect(Self.rgba(try Self.colors("dark", override: .light)["card"]) == [242, 242, 247, 100])
    }

    @Test func everyDarkNameHasALightValueAndAnUnknownAppearanceIsAnError() throws {
        #expect(Set(ColorNames.dark.keys).isSubset(of: Set(ColorNames.all.keys)))
        #expect(ColorNames.dark.count == 36)
        #expect(throws: SceneLoadError.self) { _ = try Self.colors("dim") }
    }
}
