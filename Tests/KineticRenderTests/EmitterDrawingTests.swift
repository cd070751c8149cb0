import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender
@testable import KineticScene

/// Particles are drawn where the simulation puts them, tinted by their colour.
@Suite struct EmitterDrawingTests {
    func snapshot(_ items: [(x: Double, y: Double, scale: Double, color: Color)]) -> ParticleSnapshot {
        var p = ParticleSnapshot()
        p.alive = [items.count]; p.born = [items.count]
        for (i, it) in items.enumerated() {
            p.appendResting(x: it.x, y: it.y, age: Double(items.count - i), scale: it.scale,
                            color: (Float(it.color.red), Float(it.color.green), Float(it.color.blue), Float(it.color.alpha)))
        }
        return p
    }

    @Test func aParticleIsAScaledTintedSquareAtItsPosition() {
        let layer = squareEmitter(side: 10, particles: snapshot([(60, 80, 2, red)]))
        let image = render([layer], scale: 2, name: "particle")
        // 10 pt × scale 2 = 20 pt around (60, 80): 50…70 × 70…90 pt, 100…140 × 140…180 px.
        let inside = image.isOpaque(red, 120, 160) && image.isOpaque(red, 102, 142) && image.isOpaque(red, 137, 177)
        let outside = image.isClear(96, 160) && image.isClear(144, 160) && image.isClear(120, 136) && image.isClear(120, 184)
        #expect(inside && outside)
    }

    /// Turned particles are drawn from pre-turned sprites: contents 40 × 8 pt filled on their
    /// right half, turned a quarter turn (the same angle less or plus whole turns) about
    /// their centre, point down (angles turn x toward y, as the layer's rotation does).
    @Test func aTurnedParticleIsTurnedAboutItsCentre() {
        for angle in [Double.pi / 2, -3 * Double.pi / 2, Double.pi / 2 + 20 * Double.pi] {
            var particles = snapshot([(100, 100, 1, red)])
            particles.angle[0] = angle
            var layer = squareEmitter(side: 1, particles: particles)
            guard case .emitter(var style) = layer.content else { Issue.record("no emitter"); return }
            style.emitterCells[0].contents = .path(BezierPath.rect(Rect(20, 0, 20, 8)), size: Size(40, 8), fillColor: .white)
            layer.content = .emitter(style)
            let image = render([layer], scale: 2, name: "turned")
            // Below the centre: x 96…104 pt, y 100…120 pt (192…208 × 200…240 px).
            let bar = image.isOpaque(red, 200, 204) && image.isOpaque(red, 200, 236) && image.isOpaque(red, 194, 220)
            let around = image.isClear(200, 164) && image.isClear(170, 200) && image.isClear(230, 200) && image.isClear(200, 246)
            #expect(bar && around, "angle \(angle)")
        }
    }

    @Test func renderModesOrderAndAdd() {
        // Two overlapping particles: the older (first) is red, the newer blue.
        let items: [(x: Double, y: Double, scale: Double, color: Color)] = [(50, 50, 1, red), (55, 50, 1, blue)]
        let first = render([squareEmitter(side: 20, particles: snapshot(items), mode: .oldestFirst)])
        #expect(first.isOpaque(blue, 52, 50))
        let last = render([squareEmitter(side: 20, particles: snapshot(items), mode: .oldestLast)])
        #expect(last.isOpaque(red, 52, 50))
        let added = render([squareEmitter(side: 20, particles: snapshot(items), mode: .additive)])
        #expect(added.isOpaque(Color(red: 1, green: 0, blue: 1), 52, 50))
    }

    @Test func simulatedParticleIsDrawnWhereTheSimulationSays() throws {
        let yaml = """
        kinetic: 1
        scene: {size: [200, 200], duration: 3, scale: 1}
        layers:
          - id: e
            type: emitter
            frame: [0, 0, 200, 200]
            emitterPosition: [20, 30]
            emitterCells:
              - {name: a, birthRate: 1, lifetime: 10, velocity: 40, emissionLongitude: 30deg, yAcceleration: 10,
                 color: green, contents: {path: {rect: [0, 0, 6, 6]}, size: [6, 6]}}
        """
        let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
        var sim = ParticleSimulation(scene: scene)
        let frame = try sim.frame(Timeline(scene: scene).frame(at: 2.5, index: 0))
        // Born at 1 s and 2 s: ages 1.5 and 0.5, by hand.
        let image = Renderer(scale: 1).render(frame)
        try? writePNG(image, to: "/tmp/kinetic-render-simulated-particle.png")
        for age in [1.5, 0.5] {
            let x = 20 + 40 * cos(.pi / 6) * age, y = 30 + 40 * sin(.pi / 6) * age + 5 * age * age
            let drawn = image.isOpaque(green, Int(x), Int(y)), clearBeside = image.isOpaque(.white, Int(x + 5), Int(y))  // the scene background
            #expect(drawn && clearBeside, "particle of age \(age) at (\(x), \(y))")
        }
    }

    /// A 20×10 PNG in the temporary folder, white on its left half and blue on its right
    /// (a four-channel sprite); returns its path.
    private static func writeHalfWhiteHalfBlueSprite(named name: String) throws -> String {
        var bytes = [UInt8](repeating: 0, count: 20 * 10 * 4)
        for y in 0..<10 {
            for x in 0..<20 {
                let i = (y * 20 + x) * 4
                bytes[i] = 255; bytes[i + 1] = x < 10 ? 255 : 0; bytes[i + 2] = x < 10 ? 255 : 0; bytes[i + 3] = 255
            }
        }
        let path = NSTemporaryDirectory() + "\(name)-\(getpid()).png"
        try writePNG(PixelImage(width: 20, height: 10, stride: 80, bytes: bytes), to: path)
        return path
    }

    @Test func imageContentsAreMultipliedByTheParticleColour() throws {
        // A 20×10 image: white on the left, blue on the right (a four-channel sprite).
        let path = try Self.writeHalfWhiteHalfBlueSprite(named: "kinetic-particle")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var layer = squareEmitter(side: 1, particles: snapshot([(50, 50, 2, Color(red: 1, green: 0.5, blue: 1))]))
        layer.emitter?.emitterCells[0].contents = .image(path)
        let image = Renderer(scale: 1, images: try ImageCache(loading: [path])).render(frame([layer]))
        // 40×20 pt around (50, 50): white × (1, 0.5, 1) on the left, blue × it on the right.
        let left = image.rgba(x: 38, y: 50), right = image.rgba(x: 62, y: 50)
        #expect(left.r == 255 && abs(Int(left.g) - 128) <= 1 && left.b == 255 && left.a == 255)
        #expect(right.r == 0 && right.g == 0 && right.b == 255 && right.a == 255)
        #expect(image.isClear(50, 38) && image.isClear(26, 50))
    }

    @Test func hugeOrNonFiniteParticlesDrawNothingAndDoNotCrash() {
        let items: [(x: Double, y: Double, scale: Double, color: Color)] = [
            (1e300, 50, 1, red), (.infinity, 50, 1, red), (.nan, 50, 1, red), (50, 50, 1e200, blue), (-1e18, -1e18, 1e17, blue),
            (50, 50, 1e6, red),
        ]
        let image = render([squareEmitter(side: 10, particles: snapshot(items))])
        // The million-fold particle covers the canvas; the absurd ones must not break the frame.
        #expect(image.isOpaque(red, 10, 10) && image.isOpaque(red, 190, 190))
    }

    /// CAEmitterCell.contentsRect: a particle draws only that part of its contents, at the
    /// part's size. The 20×10 image white on its left half and blue on its right; the
    /// right half ([0.5, 0, 0.5, 1]) is a 10×10 pt blue square, so at scale 2 a 20×20 pt
    /// square around (50, 50): 40…60 pt, with no white anywhere.
    @Test func aContentsRectDrawsThatPartAtItsSize() throws {
        let path = try Self.writeHalfWhiteHalfBlueSprite(named: "kinetic-particle-part")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var layer = squareEmitter(side: 1, particles: snapshot([(50, 50, 2, .white)]))
        layer.emitter?.emitterCells[0].contents = .image(path)
        layer.emitter?.emitterCells[0].contentsRect = Rect(0.5, 0, 0.5, 1)
        let image = Renderer(scale: 1, images: try ImageCache(loading: [path])).render(frame([layer]))
        for (x, y) in [(41, 41), (50, 50), (58, 58), (41, 58), (58, 41)] {
            let c = image.rgba(x: x, y: y)
            #expect(c.r == 0 && c.g == 0 && c.b == 255 && c.a == 255, "(\(x), \(y)): \(c)")
        }
        #expect(image.isClear(37, 50) && image.isClear(62, 50) && image.isClear(50, 37) && image.isClear(50, 62))
    }

    /// A path's part, turned: contents 40 × 8 pt filled on their right half, its right
    /// half selected (a 20 × 8 pt bar, all filled), a quarter turn: 8 pt wide and 20 tall
    /// about (100, 100), x 96…104, y 90…110 pt (192…208 × 180…220 px at scale 2).
    @Test func aTurnedParticleDrawsItsPart() {
        var particles = snapshot([(100, 100, 1, red)])
        particles.angle[0] = .pi / 2
        var layer = squareEmitter(side: 1, particles: particles)
        layer.emitter?.emitterCells[0].contents = .path(BezierPath.rect(Rect(20, 0, 20, 8)), size: Size(40, 8), fillColor: .white)
        layer.emitter?.emitterCells[0].contentsRect = Rect(0.5, 0, 0.5, 1)
        let image = render([layer], scale: 2, name: "turned-part")
        let bar = image.isOpaque(red, 200, 184) && image.isOpaque(red, 200, 216) && image.isOpaque(red, 194, 200)
        let around = image.isClear(200, 174) && image.isClear(200, 226) && image.isClear(188, 200) && image.isClear(212, 200)
        #expect(bar && around)
    }

    /// Turned sprites are found by a number standing for a cell's contents and part: equal
    /// contents and part share it, other contents or another part get their own, and when
    /// the cache starts over (past its capacity) a number already handed out is never given
    /// to other contents, so a drawing still holding it cannot get their sprite.
    @Test func turnedSpritesNeverMixContents() {
        let cache = TurnedSprites(capacity: 2)
        let whole = Rect(0, 0, 1, 1)
        let square = ParticleContents.path(BezierPath.rect(Rect(0, 0, 4, 4)), size: Size(4, 4), fillColor: .white)
        let bar = ParticleContents.path(BezierPath.rect(Rect(0, 0, 4, 1)), size: Size(4, 4), fillColor: .white)
        let a = cache.source(square, part: whole)
        #expect(cache.source(.path(BezierPath.rect(Rect(0, 0, 4, 4)), size: Size(4, 4), fillColor: .white), part: whole) == a)
        #expect(cache.source(bar, part: whole) != a)
        #expect(cache.source(square, part: Rect(0, 0, 0.5, 1)) != a)
        // Sprites told apart by their width.
        func made(_ width: Int) -> Sprite {
            Sprite(width: width, height: 1, channels: 1, samples: [], coverage: [UInt8](repeating: 255, count: width),
                   color: (1, 1, 1), pixelsPerPoint: 1)
        }
        #expect(cache.sprite(source: a, level: 0, turn: 0) { made(1) }.width == 1)
        #expect(cache.sprite(source: a, level: 0, turn: 0) { made(9) }.width == 1)
        #expect(cache.sprite(source: a, level: 1, turn: 0) { made(2) }.width == 2)
        // The third sprite starts the tables over; `a` still stands for the square only.
        #expect(cache.sprite(source: a, level: 0, turn: 1) { made(3) }.width == 3)
        let b = cache.source(bar, part: whole)
        #expect(b != a)
        #expect(cache.sprite(source: b, level: 0, turn: 1) { made(4) }.width == 4)
        #expect(cache.sprite(source: a, level: 0, turn: 1) { made(5) }.width == 3)
    }

    /// The scene file's `contentsRect` on a cell, and `emitterCells.NAME.contentsRect`
    /// animated (a sprite sheet stepping on): the presentation value at t = 0.5 of a 1 s
    /// linear animation from [0, 0, 0.5, 1] to [0.5, 0, 0.5, 1] is [0.25, 0, 0.5, 1].
    @Test func aCellsContentsRectLoadsAndAnimates() throws {
        let yaml = """
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers:
          - id: e
            type: emitter
            emitterCells:
              - {name: a, birthRate: 1, lifetime: 1, contentsRect: [0, 0, 0.5, 1],
                 contents: {path: {rect: [0, 0, 6, 6]}, size: [6, 6]}}
              - {name: b, contentsRect: [0.5, 0.25, 0.5, 0.5]}
        animations:
          - {layer: e, keyPath: emitterCells.a.contentsRect, from: [0, 0, 0.5, 1], to: [0.5, 0, 0.5, 1], duration: 1}
        """
        let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
        #expect(scene.layers[0].emitter?.emitterCells[1].contentsRect == Rect(0.5, 0.25, 0.5, 0.5))
        let cells = Timeline(scene: scene).frame(at: 0.5, index: 0).layers[0].emitter?.emitterCells
        #expect(cells?[0].contentsRect == Rect(0.25, 0, 0.5, 1))
        #expect(cells?[1].contentsRect == Rect(0.5, 0.25, 0.5, 0.5))
    }
}
