import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `path: {svg: FILE}` and `contents: FILE.svg` as the loader reads them: the file read
/// through libxml2 under the asset rules, mapped into the layer's bounds, its fill-rule
/// carried over, bad and hostile files reported at the key's FILE:LINE:COL.
@Suite struct SVGPathSceneTests {
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
          <circle id="dot" cx="12" cy="12" r="12"/>
        </svg>
        """

    /// A folder holding `files` and `scene.yaml` (`body` under a 100 × 100 pt scene).
    func folder(_ body: String, files: [String: String]) throws -> String {
        let dir = NSTemporaryDirectory() + "kinetic-svg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8) }
        try ("kinetic: 1\nscene: {size: [100, 100], duration: 1, fps: 10}\n" + body)
            .write(toFile: dir + "/scene.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    func load(_ body: String, files: [String: String], limits: SceneLimits = SceneLimits()) throws -> Scene {
        try SceneLoader.load(path: try folder(body, files: files) + "/scene.yaml", limits: limits)
    }

    func problems(_ body: String, files: [String: String], limits: SceneLimits = SceneLimits()) throws -> [SceneProblem] {
        let dir = try folder(body, files: files)
        return sceneProblems(try SceneLoader.load(path: dir + "/scene.yaml", limits: limits))
    }

    @Test func aShapeLayersSVGPathFillsItsBounds() throws {
        let scene = try load("""
            layers:
              - {id: s, type: shape, frame: [0, 0, 48, 96], path: {svg: icon.svg}}
              - {id: t, type: shape, position: [0, 0], path: {svg: icon.svg, element: dot}}
            """, files: ["icon.svg": Self.icon])
        // viewBox 24 × 24 meets 48 × 96: scale 2, centred vertically (ty = 24).
        #expect(findLayer(scene.layers, id: "s")?.shape?.path.boundingBox == Rect(0, 24, 48, 48))
        // No bounds: the file's own size.
        #expect(findLayer(scene.layers, id: "t")?.shape?.path.boundingBox == Rect(0, 0, 24, 24))
        #expect(scene.importedFiles.count == 1 && scene.assets.isEmpty)
    }

    @Test func theFilesFillRuleIsCarriedUnlessTheLayerSetsOne() throws {
        let evenOdd = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" fill-rule="evenodd"><rect width="10" height="10"/><rect x="2" y="2" width="6" height="6"/></svg>"#
        let scene = try load("""
            layers:
              - {id: a, type: shape, frame: [0, 0, 10, 10], path: {svg: ring.svg}}
              - {id: b, type: shape, frame: [0, 0, 10, 10], path: {svg: ring.svg}, fillRule: nonZero}
            """, files: ["ring.svg": evenOdd])
        #expect(findLayer(scene.layers, id: "a")?.shape?.fillRule == .evenOdd)
        #expect(findLayer(scene.layers, id: "b")?.shape?.fillRule == .nonZero)
        let mixed = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="1" height="1"/><rect width="1" height="1" fill-rule="evenodd"/></svg>"#
        let found = try problems("layers:\n  - {type: shape, path: {svg: mixed.svg}}\n", files: ["mixed.svg": mixed])
        #expect(found.count == 1 && found[0].message.contains("both nonzero and evenodd"))
    }

    @Test func aMalformedFileGetsLibxml2sMessageWithTheSVGsLineAtTheKey() throws {
        let bad = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">\n<path d=\"M0 0 L 5 5\">\n</svg>\n"
        let found = try problems("layers:\n  - type: shape\n    path: {svg: bad.svg}\n", files: ["bad.svg": bad])
        #expect(found.count == 1)
        guard let p = found.first else { return }
        // `bad.svg` is written on line 5 of scene.yaml at column 17.
        #expect(p.location.line == 5 && p.location.column == 17 && p.keyPath == "layers[0].path.svg")
        #expect(p.message.contains("line 3") && p.message.contains("Opening and ending tag mismatch"), "\(p.message)")
    }

    @Test func badGeometryIsReportedWithTheSVGsLine() throws {
        let bad = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">\n\n<path d=\"M0 0 L 5\"/>\n</svg>\n"
        let found = try problems("layers:\n  - {type: shape, path: {svg: bad.svg}}\n", files: ["bad.svg": bad])
        #expect(found.count == 1 && found[0].message.contains("SVG file 'bad.svg', line 3: <path> d:"), "\(found)")
        let unknown = try problems("layers:\n  - {type: shape, path: {svg: icon.svg, element: dott}}\n",
                                   files: ["icon.svg": Self.icon])
        #expect(unknown.count == 1 && unknown[0].keyPath == "layers[0].path.element" && unknown[0].message.contains("ids: dot"))
    }

    @Test func entitiesAndExternalEntitiesAreRefused() throws {
        let declared = "<!DOCTYPE svg [<!ENTITY x \"boom\">]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><rect width=\"1\" height=\"1\"/></svg>"
        let external = "<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><title>&x;</title><rect width=\"1\" height=\"1\"/></svg>"
        // A public DOCTYPE is fine (never fetched); a reference to an entity it would define is not.
        let reference = "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">\n<title>&nbsp;</title><rect width=\"1\" height=\"1\"/></svg>"
        let found = try problems("""
            layers:
              - {type: shape, path: {svg: internal.svg}}
              - {type: shape, path: {svg: external.svg}}
              - {type: shape, path: {svg: reference.svg}}
              - {contents: external.svg}
            """, files: ["internal.svg": declared, "external.svg": external, "reference.svg": reference])
        #expect(found.map(\.location.line) == [4, 5, 6, 7])
        #expect(found[0].message.contains("declares the entity 'x'") && found[1].message.contains("declares the entity 'x'"))
        #expect(found[2].message.contains("line 3") && found[2].message.contains("&nbsp;"), "\(found[2].message)")
    }

    @Test func contentsThatReferToOtherFilesAreRefused() throws {
        let image = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" viewBox=\"0 0 10 10\">\n<image xlink:href=\"secret.png\" width=\"10\" height=\"10\"/></svg>"
        let style = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">\n<style>@import url(http://example.com/a.css);</style></svg>"
        let fill = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><rect width=\"1\" height=\"1\" fill=\"url(other.svg#g)\"/></svg>"
        let local = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><linearGradient id=\"g\"/><rect width=\"1\" height=\"1\" fill=\"url(#g)\"/></svg>"
        let found = try problems("""
            layers:
              - {contents: image.svg}
              - {contents: style.svg}
              - {contents: fill.svg}
              - {contents: local.svg}
            """, files: ["image.svg": image, "style.svg": style, "fill.svg": fill, "local.svg": local])
        #expect(found.map(\.location.line) == [4, 5, 6])
        #expect(found[0].message.contains("line 2: refers to 'secret.png'"), "\(found[0].message)")
    }

    @Test func theAssetRulesApply() throws {
        let dir = try folder("layers:\n  - {type: shape, path: {svg: ../outside.svg}}\n  - {type: shape, path: {svg: big.svg}}\n",
                             files: ["big.svg": Self.icon + String(repeating: " ", count: 2_000)])
        try Self.icon.write(toFile: dir + "/../outside.svg", atomically: true, encoding: .utf8)
        var limits = SceneLimits()
        limits.assets.maxSVGBytes = 1_000
        let found = sceneProblems(try SceneLoader.load(path: dir + "/scene.yaml", limits: limits))
        #expect(found.count == 2)
        #expect(found.first?.message.contains("outside the scene's folder") == true)
        #expect(found.last?.message.contains("over the limit of 1000 bytes") == true)
    }

    @Test func theElementCountIsBounded() throws {
        let many = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">" + String(repeating: "<g/>", count: 20_000) + "</svg>"
        let found = try problems("layers:\n  - {type: shape, path: {svg: many.svg}}\n", files: ["many.svg": many])
        #expect(found.count == 1 && found[0].message.contains("more than 20000 elements"), "\(found)")
    }

    @Test func pathKeyframesMorphBetweenTwoImportedPathsOfOneStructure() throws {
        let small = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="10" y="10" width="20" height="20"/></svg>"#
        let large = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="30" y="30" width="60" height="60"/></svg>"#
        let scene = try load("""
            layers:
              - {id: s, type: shape, frame: [0, 0, 100, 100], path: {svg: small.svg}}
            animations:
              - {layer: s, keyPath: path, values: [{svg: small.svg}, {svg: large.svg}], duration: 1}
            """, files: ["small.svg": small, "large.svg": large])
        // Halfway, each corner is halfway: the box from (20, 20) to (60, 60).
        #expect(timelineLayer(scene, "s", at: 0.5)?.shape?.path.boundingBox == Rect(20, 20, 40, 40))
        let circle = try problems("""
            layers:
              - {id: s, type: shape, frame: [0, 0, 100, 100], path: {svg: small.svg}}
            animations:
              - {layer: s, keyPath: path, to: {svg: icon.svg}, duration: 1}
            """, files: ["small.svg": small, "icon.svg": Self.icon])
        #expect(circle.count == 1 && circle[0].message.contains("structure"), "\(circle)")
    }

    @Test func anSVGPathIsUsableWhereverAPathIs() throws {
        let scene = try load("""
            layers:
              - id: l
                frame: [0, 0, 48, 48]
                shadowPath: {svg: icon.svg}
                mask: {type: shape, frame: [0, 0, 48, 48], path: {svg: icon.svg}}
              - id: e
                type: emitter
                emitterCells: [{name: c, birthRate: 1, lifetime: 1, contents: {path: {svg: icon.svg}, size: [12, 12]}}]
            animations:
              - {layer: l, keyPath: position, path: {svg: icon.svg}, duration: 1}
            dynamics:
              behaviors: [{collision: {items: [l], boundaries: [{identifier: g, path: {svg: icon.svg}}]}}]
            """, files: ["icon.svg": Self.icon])
        let layer = findLayer(scene.layers, id: "l")
        #expect(layer?.shadowPath?.boundingBox == Rect(0, 0, 48, 48))
        #expect(layer?.mask?.shape?.path.boundingBox == Rect(0, 0, 48, 48))
        if case .path(let path, _, _)? = findLayer(scene.layers, id: "e")?.emitter?.emitterCells.first?.contents {
            #expect(path.boundingBox == Rect(0, 0, 12, 12))
        } else {
            Issue.record("no path contents")
        }
    }

    @Test func svgContentsAreAssetsAndParticlesPointToThePathForm() throws {
        let scene = try load("layers:\n  - {contents: icon.svg}\n", files: ["icon.svg": Self.icon])
        #expect(scene.assets.count == 1 && scene.assets.first?.hasSuffix("/icon.svg") == true)
        let particle = try problems("""
            layers:
              - {type: emitter, emitterCells: [{name: c, contents: icon.svg}]}
            """, files: ["icon.svg": Self.icon])
        #expect(particle.count == 1 && particle[0].message.contains("{path: {svg: 'icon.svg'}"))
        let sizeless = try problems("layers:\n  - {contents: s.svg}\n",
                                    files: ["s.svg": #"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>"#])
        #expect(sizeless.count == 1 && sizeless[0].message.contains("has no size"))
    }

    @Test func anSVGFileWrittenAsPathDataIsPointedToTheSVGForm() {
        let found = loadProblems("kinetic: 1\nscene: {size: [10, 10], duration: 1}\nlayers:\n  - {type: shape, path: icon.svg}\n")
        #expect(found.count == 1 && found[0].message.contains("{svg: icon.svg}"), "\(found)")
    }
}
