import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

@Suite struct ShadowTests {
    /// A 100×100 white layer centred on the canvas casting a black shadow.
    private func shadowed(radius: Double, offset: Size = Size(0, 0)) -> Layer {
        var layer = solid(.white, size: Size(100, 100), at: Point(100, 100))
        layer.shadowOpacity = 1
        layer.shadowRadius = radius
        layer.shadowOffset = offset
        return layer
    }

    @Test func shadowFollowsAGaussianOfSigmaTheRadius() {
        // Beyond a straight edge a Gaussian blur of σ leaves 1 − Φ(d/σ) of the alpha at
        // distance d; shadowRadius 10 → σ 10 (main used σ 5: at x 160 alpha 4.5 instead of 37.6).
        // The bounds' right edge is at x = 150.
        let image = render([shadowed(radius: 10)], name: "shadow")
        let sigma = 10.0
        for x in [150, 153, 157, 160, 165, 175] {
            let d = Double(x) + 0.5 - 150
            let expected = 255 * 0.5 * erfc(d / sigma / 2.0.squareRoot())
            #expect(abs(Double(image.alpha(x, 100)) - expected) <= 6, "x \(x): \(image.alpha(x, 100)) vs \(expected)")
        }
        #expect(image.alpha(190, 100) == 0)
        #expect(image.isOpaque(.white, 100, 100))
    }

    @Test func wideShadowKeepsTheGaussianProfile() {
        // Radius 30 → σ 30, blurred at reduced resolution: the profile must still hold.
        var layer = solid(.white, size: Size(200, 200), at: Point(150, 150))
        layer.shadowOpacity = 1
        layer.shadowRadius = 30
        layer.shadowOffset = Size(0, 0)
        let image = render([layer], size: Size(400, 300), name: "wideShadow")
        for x in [250, 260, 280, 310] {  // the right edge is at x = 250
            let d = Double(x) + 0.5 - 250
            let expected = 255 * 0.5 * erfc(d / 30 / 2.0.squareRoot())
            #expect(abs(Double(image.alpha(x, 150)) - expected) <= 8, "x \(x): \(image.alpha(x, 150)) vs \(expected)")
        }
    }

    @Test func shadowOffsetMovesTheShadow() {
        let image = render([shadowed(radius: 4, offset: Size(0, 10))])
        #expect(image.alpha(100, 155) > 200)  // below: covered by the moved silhouette
        #expect(image.alpha(100, 47) < 20)    // above: only the faint blur tail
        #expect(image.rgba(x: 100, y: 155).r == 0)
    }

    @Test func aMaskedSublayerCastsItsParentsShadow() {
        // The silhouette is the layer's composited alpha, sublayers included: a sublayer
        // drawn through a mask casts the shadow too (it used to leave none).
        var card = Layer(place: "card")
        card.bounds = Rect(0, 0, 100, 100)
        card.position = Point(100, 100)
        card.shadowOpacity = 1
        card.shadowRadius = 0.1
        card.shadowOffset = Size(0, 20)
        var face = solid(.white, size: Size(100, 100), at: Point(50, 50), place: "face")
        face.mask = solid(.black, size: Size(100, 100), at: Point(50, 50), place: "mask")
        card.sublayers = [face]
        let image = render([card])
        #expect(image.alpha(100, 160) == 255 && image.rgba(x: 100, y: 160).r == 0)  // the moved silhouette, black
        #expect(image.isOpaque(.white, 100, 100))
    }

    @Test func shadowPathReplacesTheSilhouette() {
        var layer = shadowed(radius: 0.1)
        layer.shadowPath = BezierPath([.move(to: Point(100, 0)), .line(to: Point(140, 0)),
                                       .line(to: Point(140, 100)), .line(to: Point(100, 100)), .close])
        // The path spans x 100…140 of the layer: 150…190 on the canvas.
        let image = render([layer])
        #expect(image.alpha(185, 100) == 255 && image.alpha(191, 100) == 0)
        #expect(image.alpha(45, 100) == 0)  // no shadow left of the layer
    }

    @Test func masksToBoundsHidesTheShadowOutside() {
        var layer = shadowed(radius: 10)
        layer.masksToBounds = true
        #expect(render([layer]).alpha(155, 100) == 0)
    }

    @Test func boxWidthsMatchTheGaussianVariance() {
        for sigma in [1.0, 2.5, 5, 12.3] {
            let variance = GaussianBlur.boxWidths(sigma: sigma).map { Double($0 * $0 - 1) / 12 }.reduce(0, +)
            #expect(abs(variance - sigma * sigma) < sigma * 0.5 + 0.5)
        }
    }

    @Test func gaussianBlurIsWithinALevelOfTheExactBoxAverages() {
        // The blur's fixed-point passes against the same box averages in Double (zeros
        // past the edges), on an image with hard edges and noise; the bytes past each
        // row's width (the stride's padding) stay as they were.
        let width = 61, height = 47, stride = 64
        var bytes = [UInt8](repeating: 7, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let inBox = (10..<40).contains(x) && (12..<30).contains(y)
                bytes[y * stride + x] = inBox ? 255 : UInt8((x * 37 + y * 101) % 97)
            }
        }
        for sigma in [0.8, 3.0, 7.5, 40] {
            var exact = (0..<height).map { y in (0..<width).map { Double(bytes[y * stride + $0]) } }
            for w in GaussianBlur.boxWidths(sigma: sigma) where w > 1 {
                let r = w / 2
                exact = exact.map { row in
                    (0..<width).map { x in (max(0, x - r)...min(width - 1, x + r)).reduce(0) { $0 + row[$1] } / Double(w) }
                }
                exact = (0..<height).map { y in
                    (0..<width).map { x in (max(0, y - r)...min(height - 1, y + r)).reduce(0) { $0 + exact[$1][x] } / Double(w) }
                }
            }
            var blurred = bytes
            GaussianBlur.apply(to: &blurred, width: width, height: height, stride: stride, sigma: sigma)
            var worst = 0.0
            for y in 0..<height {
                for x in 0..<width { worst = max(worst, abs(Double(blurred[y * stride + x]) - exact[y][x])) }
                #expect(blurred[(y * stride + width)..<(y * stride + stride)].allSatisfy { $0 == 7 })
            }
            #expect(worst < 0.51, "σ \(sigma): \(worst) levels from the exact average")
        }
    }
}

@Suite struct ContentsTests {
    @Test func gravityPlacesTheImage() {
        let bounds = Rect(10, 20, 200, 100)
        let image = Size(50, 40)
        func at(_ g: ContentsGravity) -> Rect { contentsRect(gravity: g, imageSize: image, bounds: bounds) }
        #expect(at(.resize) == bounds)
        #expect(at(.center) == Rect(85, 50, 50, 40))
        #expect(at(.left) == Rect(10, 50, 50, 40))
        #expect(at(.right) == Rect(160, 50, 50, 40))
        // iOS: vertical names are of the unflipped (y-up) axis, so `top` sits at the
        // largest y, the bottom edge on screen.
        #expect(at(.top) == Rect(85, 80, 50, 40))
        #expect(at(.bottom) == Rect(85, 20, 50, 40))
        #expect(at(.topLeft) == Rect(10, 80, 50, 40))
        #expect(at(.topRight) == Rect(160, 80, 50, 40))
        #expect(at(.bottomLeft) == Rect(10, 20, 50, 40))
        #expect(at(.bottomRight) == Rect(160, 20, 50, 40))
        // Aspect fit: scale min(200/50, 100/40) = 2.5 → 125×100, centred.
        #expect(at(.resizeAspect) == Rect(47.5, 20, 125, 100))
        // Aspect fill: scale max(4, 2.5) = 4 → 200×160, centred.
        #expect(at(.resizeAspectFill) == Rect(10, -10, 200, 160))
    }

    /// A 20×10 PNG, red on the left half and blue on the right.
    private func writeTestPNG() throws -> String {
        var pixels = PixelImage(width: 20, height: 10)
        for y in 0..<10 {
            for x in 0..<20 {
                let i = y * pixels.stride + x * 4
                // B, G, R, A on little-endian machines.
                pixels.bytes[i] = x < 10 ? 0 : 255
                pixels.bytes[i + 2] = x < 10 ? 255 : 0
                pixels.bytes[i + 3] = 255
            }
        }
        let path = NSTemporaryDirectory() + "kinetic-render-test-\(UUID().uuidString).png"
        try writePNG(pixels, to: path)
        return path
    }

    @Test func contentsImageIsDrawnPerGravity() throws {
        let path = try writeTestPNG()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = try ImageCache(loading: [path])
        #expect(cache[path]?.width == 20 && cache[path]?.height == 10)
        var layer = Layer(place: "i", type: .image)
        layer.bounds = Rect(0, 0, 100, 50)
        layer.position = Point(50, 25)
        layer.contents = path
        let resized = Renderer(scale: 1, images: cache).render(frame([layer], size: Size(100, 50)))
        #expect(resized.isOpaque(red, 10, 25) && resized.isOpaque(blue, 90, 25) && resized.isOpaque(red, 45, 2))
        layer.contentsGravity = .center
        let centred = Renderer(scale: 1, images: cache).render(frame([layer], size: Size(100, 50)))
        // The 20×10 image at its own size in the middle: x 40…60, y 20…30.
        #expect(centred.isOpaque(red, 42, 25) && centred.isOpaque(blue, 57, 25))
        #expect(centred.isClear(38, 25) && centred.isClear(50, 18) && centred.isClear(61, 25))
    }

    @Test func missingAndBadImagesAreTypedErrors() throws {
        let missing = "/nonexistent/kinetic/image.png"
        #expect(throws: ImageCacheError.missingFile(path: missing)) { try ImageCache(loading: [missing]) }
        let bad = NSTemporaryDirectory() + "kinetic-render-bad-\(UUID().uuidString).png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: bad))
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect {
            try ImageCache(loading: [bad])
        } throws: { error in
            if case .unreadableImage(let path, _) = error as? ImageCacheError { return path == bad }
            return false
        }
    }
}

@Suite struct OutputTests {
    /// A frame using every kind of drawing: text, shadow, gradient, mask, shape, opacity.
    private func busyFrame() -> SceneFrame {
        var card = solid(.white, size: Size(120, 80), at: Point(100, 70))
        card.cornerRadius = 12
        card.shadowOpacity = 0.5
        card.shadowRadius = 6
        card.transform = .rotation(0.2, 0, 0, 1)
        var title = Layer(place: "t", type: .text)
        title.bounds = Rect(0, 0, 110, 30)
        title.position = Point(60, 20)
        title.text = { var t = TextStyle(); t.string = "Kinetic"; t.fontSize = 20; t.foregroundColor = blue; return t }()
        var g = Layer(place: "g", type: .gradient)
        g.bounds = Rect(0, 0, 100, 30)
        g.position = Point(60, 55)
        g.gradient = { var x = Gradient(); x.colors = [red, green, blue]; x.gradientType = .conic; return x }()
        g.mask = solid(.black, size: Size(50, 30), at: Point(25, 15))
        card.sublayers = [title, g]
        var ring = Layer(place: "s", type: .shape)
        ring.bounds = Rect(0, 0, 200, 200)
        ring.position = Point(100, 100)
        ring.opacity = 0.7
        ring.shape = {
            var s = ShapeStyle()
            s.path = BezierPath([.move(to: Point(30, 170)), .curve(to: Point(170, 170), control1: Point(60, 120), control2: Point(140, 220))])
            s.fillColor = red; s.strokeColor = .black; s.lineWidth = 6; s.strokeEnd = 0.8
            return s
        }()
        return frame([card, ring], background: .color(Color(red: 0.9, green: 0.9, blue: 0.95)))
    }

    @Test func concurrentRendersGiveIdenticalBytes() {
        let renderer = Renderer(scale: 2)
        let frame = busyFrame()
        let reference = renderer.render(frame)
        try? writePNG(reference, to: "/tmp/kinetic-render-busy.png")
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { i in results.set(i, renderer.render(frame).bytes) }
        #expect(results.all.count == 4)
        #expect(results.all.allSatisfy { $0 == reference.bytes })
    }

    @Test func vectorOutputWritesSVGAndPDF() throws {
        let dir = NSTemporaryDirectory() + "kinetic-render-vec-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let renderer = Renderer(scale: 2)
        try renderer.renderVector(busyFrame(), format: .svg, to: dir + "/f.svg")
        try renderer.renderVector(busyFrame(), format: .pdf, to: dir + "/f.pdf")
        let svg = try String(contentsOfFile: dir + "/f.svg", encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("width=\"200"))
        let pdf = try Data(contentsOf: URL(fileURLWithPath: dir + "/f.pdf"))
        #expect(pdf.starts(with: Data("%PDF".utf8)))
        // Nothing but the two outputs is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["f.pdf", "f.svg"])
    }

    @Test func unwritableVectorPathThrows() {
        #expect(throws: RenderError.self) {
            try Renderer(scale: 1).renderVector(frame([]), format: .svg, to: "/nonexistent/dir/f.svg")
        }
    }

    @Test func contactSheetLaysOutLabelledThumbnails() {
        let a = render([solid(red, size: Size(100, 100), at: Point(50, 50))], size: Size(100, 100))
        let b = render([solid(blue, size: Size(100, 100), at: Point(50, 50))], size: Size(100, 100))
        let sheet = ContactSheet.compose([("frame 0", a), ("frame 1", b), ("frame 2", a)], columns: 2, background: .white)
        try? writePNG(sheet, to: "/tmp/kinetic-render-sheet.png")
        // 8 pt padding, 100 px cells, 18 px label rows: 8 + 2·108 wide, 8 + 2·126 high.
        #expect(sheet.width == 224 && sheet.height == 260)
        #expect(sheet.isOpaque(red, 58, 58) && sheet.isOpaque(blue, 166, 58) && sheet.isOpaque(red, 58, 184))
        #expect(sheet.isOpaque(.white, 166, 184))  // no fourth frame
        var labelInk = 0
        for y in 108..<126 { for x in 8..<108 where sheet.rgba(x: x, y: y).r < 128 { labelInk += 1 } }
        #expect(labelInk > 20)
    }
}

/// Collects results from concurrent iterations.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: [UInt8]] = [:]
    func set(_ i: Int, _ v: [UInt8]) { lock.lock(); values[i] = v; lock.unlock() }
    var all: [[UInt8]] { lock.lock(); defer { lock.unlock() }; return Array(values.values) }
}
