import Testing
import KineticCairo
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// `ScratchImages`: a surface a frame draws in and drops lends its memory to the next
/// frame's, cleared, so reusing it draws the bytes a fresh surface draws.
@Suite struct ScratchImagesTests {
    /// The address of a surface's pixels.
    static func address(_ surface: CairoSurface) -> UnsafeMutableRawPointer? {
        var base: UnsafeMutableRawPointer?
        surface.withBytes { bytes, _ in base = bytes.baseAddress.map(UnsafeMutableRawPointer.init) }
        return base
    }

    @Test func aBlockHandedBackIsLentAgainCleared() {
        let scratch = ScratchImages(limit: 1)
        var first: UnsafeMutableRawPointer?
        scratch.withImage(.argb32, width: 40, height: 30) { surface in
            first = Self.address(surface)
            surface.withPixels { pixels, wordsPerRow in
                for i in 0..<(wordsPerRow * 30) { pixels[i] = 0xFF12_3456 }
            }
        }
        // Smaller, so it fits the block handed back: the same memory, every byte 0 again.
        scratch.withImage(.argb32, width: 20, height: 30) { surface in
            #expect(Self.address(surface) == first)
            #expect(surface.bytes().allSatisfy { $0 == 0 })
        }
        #expect(scratch.counts.lent == 2)
        #expect(scratch.counts.reused == 1)
    }

    /// A body that says which boxes it wrote has only those cleared, at its own stride:
    /// the next surface, narrower (another stride), is still all zeros.
    @Test func theBoxesABodyWroteAreClearedAtItsStride() {
        let scratch = ScratchImages(limit: 1)
        scratch.withWrittenImage(.argb32, width: 40, height: 30) { surface in
            surface.withPixels { pixels, wordsPerRow in
                for y in 10..<14 { for x in 25..<37 { pixels[y * wordsPerRow + x] = 0xFF12_3456 } }
            }
            return [PixelBox(x0: 25, y0: 10, x1: 37, y1: 14)]
        }
        scratch.withImage(.argb32, width: 20, height: 30) { surface in
            #expect(surface.bytes().allSatisfy { $0 == 0 })
        }
        #expect(scratch.counts.reused == 1)
    }

    /// Boxes are only what is cleared: a pixel written outside them is lent again (which
    /// is why the particle compositor reports every pixel it visits).
    @Test func onlyTheBoxesSaidWrittenAreCleared() {
        let scratch = ScratchImages(limit: 1)
        scratch.withWrittenImage(.a8, width: 16, height: 4) { surface in
            surface.withBytes { bytes, stride in bytes[stride + 3] = 9; bytes[2 * stride + 8] = 7 }
            return [PixelBox(x0: 2, y0: 1, x1: 5, y1: 2)]
        }
        scratch.withImage(.a8, width: 16, height: 4) { surface in
            surface.withBytes { bytes, stride in
                #expect(bytes[stride + 3] == 0)
                #expect(bytes[2 * stride + 8] == 7)
            }
        }
    }

    /// Blocks lent at once are different memory; beyond the limit, those handed back are
    /// freed (the smallest first).
    @Test func blocksLentAtOnceAreDistinctAndTheFreeOnesBounded() {
        let scratch = ScratchImages(limit: 1)
        scratch.withImage(.a8, width: 300, height: 300) { outer in
            scratch.withImage(.a8, width: 10, height: 10) { inner in
                #expect(Self.address(outer) != Self.address(inner))
            }
        }
        #expect(scratch.held.blocks == 1)
        #expect(scratch.held.bytes >= 300 * 300)
    }

    /// A square flake at each of `places` (points) on a 200 × 200 emitter layer.
    static func flakes(at places: [(x: Double, y: Double)], background: Background = .color(.black)) -> SceneFrame {
        var p = ParticleSnapshot()
        p.alive = [places.count]; p.born = [places.count]
        for (x, y) in places { p.appendResting(x: x, y: y, age: 1) }
        return frame([squareEmitter(side: 6, particles: p)], background: background)
    }

    /// A flake that moved leaves nothing where it was: the particle buffer lent to the
    /// next frame is cleared where the last one drew, in the last one's geometry (here
    /// the same extent; the flake in the middle moves by 60 points).
    @Test func aFlakeThatMovedLeavesNoGhost() {
        var renderer = Renderer(scale: 2, flatRasters: nil, shadows: nil)
        renderer.scratch = ScratchImages(limit: 1)
        let corners: [(x: Double, y: Double)] = [(5, 5), (195, 195)]
        let before = renderer.render(Self.flakes(at: corners + [(60, 60)]))
        let after = renderer.render(Self.flakes(at: corners + [(120, 120)]))
        func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [UInt8] {
            Array(image.bytes[(y * image.stride + x * 4)..<(y * image.stride + x * 4 + 4)])
        }
        // (60, 60) points: white before, the black background after.
        #expect(pixel(before, 120, 120) == [255, 255, 255, 255])
        #expect(pixel(after, 120, 120) == [0, 0, 0, 255])
        #expect(pixel(after, 240, 240) == [255, 255, 255, 255])
        #expect(renderer.scratch?.counts.reused == 1)
    }

    /// Flakes whose extent, hence the buffer's size and stride, changes every frame
    /// (falling, spreading and gathering; the first frame's the widest, so its block serves
    /// every later one): each frame drawn in the block the last one used is the frame
    /// drawn fresh.
    @Test func framesWhoseBufferChangesSizeAreTheFreshFrames() {
        let spreads: [Double] = [15, 4, 11, 3, 13, 6, 14, 2]
        var frames: [SceneFrame] = []
        for (k, spread) in spreads.enumerated() {
            var places: [(x: Double, y: Double)] = []
            for i in 0..<12 {
                let x: Double = 100 + Double(i - 6) * spread, y: Double = 20 + Double(i * 5 + k * 9)
                places.append((x, y))
            }
            frames.append(Self.flakes(at: places))
        }
        var fresh = Renderer(scale: 2, flatRasters: nil, shadows: nil)
        fresh.scratch = nil
        var reusing = fresh
        let scratch = ScratchImages(limit: 1)
        reusing.scratch = scratch
        for (k, f) in frames.enumerated() {
            // A Bool: a failure prints no megabytes of pixels.
            let same = reusing.render(f).bytes == fresh.render(f).bytes
            #expect(same, "frame \(k)")
        }
        #expect(scratch.counts.reused == frames.count - 1)
    }

    /// A snowfall: particles that fall between frames, casting a crisp shadow and a blurred
    /// one (a silhouette surface of its own), drawn with the render's scratch memory and
    /// without. Every frame is byte for byte the frame drawn in fresh surfaces, while
    /// after the first frame every particle buffer and silhouette is a reused block.
    @Test(arguments: [0.0, 4.0])
    func framesDrawnInReusedBlocksAreTheFreshFrames(shadowRadius: Double) {
        let frames = (0..<6).map { k -> SceneFrame in
            var p = ParticleSnapshot()
            let count = 30
            p.alive = [count]; p.born = [count]
            for i in 0..<count {
                // The first two stay in opposite corners: the particles' extent, hence the
                // buffer's size, is the same every frame.
                let (x, y) = i < 2 ? (i == 0 ? (5.0, 5.0) : (195.0, 195.0))
                    : (Double(i * 37 % 190) + 5, Double(i * 53 % 150) + Double(k * 7) + 10)
                p.appendResting(x: x, y: y, age: Double(count - i), scale: 1 + Double(i % 3) / 2, angle: Double(i) / 5,
                                color: (0.6, 0.66, 0.74, 1))
            }
            var layer = squareEmitter(side: 6, particles: p)
            layer.shadowColor = .white
            layer.shadowOpacity = 1
            layer.shadowOffset = Size(0, 1)
            layer.shadowRadius = shadowRadius
            return frame([layer], background: .color(Color(red: 0.04, green: 0.09, blue: 0.2, alpha: 1)))
        }
        var fresh = Renderer(scale: 2, flatRasters: nil, shadows: nil)
        fresh.scratch = nil
        var reusing = fresh
        let scratch = ScratchImages(limit: 2)
        reusing.scratch = scratch
        for (k, f) in frames.enumerated() {
            #expect(reusing.render(f).bytes == fresh.render(f).bytes, "frame \(k)")
        }
        // One particle buffer a frame, and a silhouette where the shadow is blurred.
        let perFrame = shadowRadius > 0 ? 2 : 1
        #expect(scratch.counts.lent == frames.count * perFrame)
        #expect(scratch.counts.reused == (frames.count - 1) * perFrame)
    }
}
