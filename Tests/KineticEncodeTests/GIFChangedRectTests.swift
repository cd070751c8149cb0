import Testing
@testable import KineticEncode
import KineticGeometry

/// `GIFFramePreparer.changedRect`: the smallest rectangle holding every pixel that differs,
/// against a pixel-by-pixel search, on frames with padded rows.
@Suite struct GIFChangedRectTests {
    /// Every pixel compared, the obvious way.
    func bruteForce(_ a: PixelImage, _ b: PixelImage) -> GIFRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<a.height {
            for x in 0..<a.width where (0..<4).contains(where: { a.bytes[y * a.stride + x * 4 + $0] != b.bytes[y * b.stride + x * 4 + $0] }) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// A frame sharing its pixels with the frame before it (a scene at rest) is
    /// unchanged; once written to, its own copy is compared as any other.
    @Test func aFrameSharingThePixelsBeforeItIsUnchanged() {
        let a = PixelImage(width: 5, height: 3, stride: 24, bytes: [UInt8](repeating: 7, count: 72))
        let shared = a
        #expect(GIFFramePreparer.changedRect(shared, a) == nil)
        var changed = a
        changed.bytes[24 + 8] = 9
        #expect(GIFFramePreparer.changedRect(changed, a) == GIFRect(x: 2, y: 1, width: 1, height: 1))
    }

    @Test func findsTheSmallestRectangleOfChangedPixels() {
        var rng = SystemRandomNumberGenerator()
        for trial in 0..<300 {
            let width = Int.random(in: 1...37, using: &rng), height = Int.random(in: 1...23, using: &rng)
            // Padding past each row differs between the frames and must not count.
            let strideA = width * 4 + 4 * Int.random(in: 0...3, using: &rng)
            let strideB = width * 4 + 4 * Int.random(in: 0...3, using: &rng)
            var a = PixelImage(width: width, height: height, stride: strideA,
                               bytes: (0..<(strideA * height)).map { _ in UInt8.random(in: 0...3, using: &rng) })
            var b = PixelImage(width: width, height: height, stride: strideB, bytes: [UInt8](repeating: 0xEE, count: strideB * height))
            for y in 0..<height { for x in 0..<(width * 4) { b.bytes[y * strideB + x] = a.bytes[y * strideA + x] } }
            // 0 (identical), 1 or a few changes, each in one byte of a pixel.
            for _ in 0..<(trial % 5) {
                let x = Int.random(in: 0..<width, using: &rng), y = Int.random(in: 0..<height, using: &rng)
                a.bytes[y * strideA + x * 4 + Int.random(in: 0..<4, using: &rng)] &+= 1
            }
            #expect(GIFFramePreparer.changedRect(a, b) == bruteForce(a, b), "trial \(trial): \(width)×\(height)")
        }
    }

    /// The one pass over both frames finds what the rectangle and then the comparison of
    /// the whole of it find: the same rectangle, drawn rows and their straight pixels, whatever
    /// the buffer it writes into held (a pool's buffers hold earlier frames' bytes), on
    /// frames wider than a few of its 64-pixel blocks, with padded rows; half of them
    /// opaque (over an opaque background: four opaque pixels go as one vector), where a
    /// change of the alpha byte leaves a pixel of another alpha among them.
    @Test func onePassFindsTheRectangleItsPixelsAndRows() {
        var rng = SystemRandomNumberGenerator()
        let pool = FrameBufferPool(limit: 1)
        for trial in 0..<300 {
            let width = Int.random(in: 1...300, using: &rng), height = Int.random(in: 1...12, using: &rng)
            let strideA = width * 4 + 4 * Int.random(in: 0...3, using: &rng)
            let strideB = width * 4 + 4 * Int.random(in: 0...3, using: &rng)
            var a = PixelImage(width: width, height: height, stride: strideA,
                               bytes: (0..<(strideA * height)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            // Cairo's ARGB32 native word: alpha in the top byte, the fourth in memory here.
            if trial % 8 >= 4 { for i in stride(from: 3, to: a.bytes.count, by: 4) { a.bytes[i] = 255 } }
            var b = PixelImage(width: width, height: height, stride: strideB,
                               bytes: [UInt8](repeating: 0xEE, count: strideB * height))
            for y in 0..<height { for x in 0..<(width * 4) { b.bytes[y * strideB + x] = a.bytes[y * strideA + x] } }
            // None, a few or many changed pixels, some in one channel only, some premultiplied-transparent.
            let changes = [0, 1, 3, width * height / 3][trial % 4]
            for _ in 0..<changes {
                let x = Int.random(in: 0..<width, using: &rng), y = Int.random(in: 0..<height, using: &rng)
                a.bytes[y * strideA + x * 4 + Int.random(in: 0..<4, using: &rng)] &+= 1
            }
            // A buffer of garbage for the pass to write into: every byte must be written.
            pool.recycle(bytes: (0..<(width * height * 4)).map { _ in UInt8.random(in: 1...255, using: &rng) })
            let buffers: FrameBufferPool? = trial % 3 == 0 ? nil : pool
            let found = GIFFramePreparer.changedPixels(a, b, buffers: buffers)
            let rect = bruteForce(a, b)
            #expect(found?.rect == rect, "trial \(trial): \(width)×\(height)")
            guard let rect, let found else { continue }
            // Pixel by pixel: 0 where unchanged, else the pixel straight and opaque; the rows
            // holding a changed pixel only, one after another.
            var straight: [UInt8] = [], rows: [Int] = []
            for y in rect.y..<(rect.y + rect.height) {
                var row: [UInt8] = []
                for x in rect.x..<(rect.x + rect.width) {
                    let word = a.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: y * strideA + x * 4, as: UInt32.self) }
                    let was = b.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: y * strideB + x * 4, as: UInt32.self) }
                    withUnsafeBytes(of: word == was ? 0 : GIFFramePreparer.opaqueStraightWord(word)) { row += $0 }
                }
                if row.contains(where: { $0 != 0 }) {
                    straight += row
                    rows.append(y - rect.y)
                }
            }
            #expect(found.rgba == straight && found.drawnRows == rows, "trial \(trial): \(width)×\(height)")
        }
    }

    /// Straight pixels read from runs (the changed ones) are those read by comparing
    /// the whole rectangle (and so are the rows found holding drawn pixels), and the frame prepared from the runs is the one prepared by
    /// comparing; a frame whose runs leave the canvas is compared whole.
    @Test func runsGiveTheStraightPixelsOfTheWholeRectangle() throws {
        var rng = SystemRandomNumberGenerator()
        for trial in 0..<100 {
            let width = Int.random(in: 2...40, using: &rng), height = Int.random(in: 2...20, using: &rng)
            let previous = PixelImage(width: width, height: height, stride: width * 4 + 8,
                                      bytes: (0..<((width * 4 + 8) * height)).map { _ in UInt8.random(in: 0...2, using: &rng) })
            var frame = previous
            var runs: [PixelRun] = []
            for y in 0..<height where Bool.random(using: &rng) {
                let x = Int.random(in: 0..<width, using: &rng), count = Int.random(in: 1...(width - x), using: &rng)
                // Some pixels of a run stay as they were.
                for i in x..<(x + count) where Int.random(in: 0..<3, using: &rng) > 0 {
                    frame.bytes[y * frame.stride + i * 4 + Int.random(in: 0..<4, using: &rng)] &+= 1
                }
                runs.append(PixelRun(y: Int32(y), x: Int32(x), count: Int32(count)))
            }
            guard let rect = GIFFramePreparer.changedRect(frame, previous) else { continue }
            // The runs cut to the rectangle: they still hold every changed pixel.
            let inside = runs.compactMap { run -> PixelRun? in
                let x0 = max(Int(run.x), rect.x), x1 = min(Int(run.x + run.count), rect.x + rect.width)
                return x1 > x0 && (rect.y..<(rect.y + rect.height)).contains(Int(run.y))
                    ? PixelRun(y: run.y, x: Int32(x0), count: Int32(x1 - x0)) : nil
            }
            #expect(!inside.isEmpty && inside.allSatisfy { rect.holds($0) })
            #expect(GIFFramePreparer.straightPixels(frame, in: rect, previous: previous, keepAlpha: false, runs: inside)
                    == GIFFramePreparer.straightPixels(frame, in: rect, previous: previous, keepAlpha: false), "trial \(trial)")
            // The rows found drawn on the way are those holding a word not 0, with runs or not.
            let straight = GIFFramePreparer.straightPixels(frame, in: rect, previous: previous, keepAlpha: false)
            let scanned = (0..<rect.height).filter { y in
                (0..<(rect.width * 4)).contains { straight[y * rect.width * 4 + $0] != 0 }
            }
            for known in [inside, nil] {
                let (rgba, rows) = GIFFramePreparer.straightPixelsAndRows(frame, in: rect, previous: previous, runs: known)
                #expect(rgba == straight && rows == scanned, "trial \(trial), runs: \(known != nil)")
            }
            let options = GIFOptions()
            #expect(try GIFFramePreparer.prepare(frame, previous: previous, change: .runs(inside), options: options)
                    == GIFFramePreparer.prepare(frame, previous: previous, options: options))
            let outside = inside + [PixelRun(y: Int32(rect.y), x: Int32(width - 1), count: 2)]
            #expect(try GIFFramePreparer.prepare(frame, previous: previous, change: .runs(outside), options: options)
                    == GIFFramePreparer.prepare(frame, previous: previous, options: options))
        }
    }

    /// The mean squared error of remapped pixels, stepping over runs of zero words, is
    /// the error summed pixel by pixel: opaque pixels only (alpha 0 with a colour too is
    /// left out), indices past the palette left out.
    @Test func meanSquaredErrorCountsTheDrawnPixels() {
        var rng = SystemRandomNumberGenerator()
        let colors = (0..<20).map { _ in GIFColor(red: .random(in: 0...255, using: &rng), green: .random(in: 0...255, using: &rng),
                                                  blue: .random(in: 0...255, using: &rng)) }
        for trial in 0..<200 {
            let count = Int.random(in: 0...70, using: &rng)
            var rgba: [UInt8] = [], indices: [UInt8] = []
            while indices.count < count {
                let run = min(count - indices.count, Int.random(in: 1...9, using: &rng))
                let kind = Int.random(in: 0..<4, using: &rng)
                for _ in 0..<run {
                    switch kind {
                    case 0, 1: rgba += [0, 0, 0, 0]
                    case 2: rgba += [.random(in: 0...255, using: &rng), 5, 6, 0]
                    default: rgba += [.random(in: 0...255, using: &rng), .random(in: 0...255, using: &rng), 9, 255]
                    }
                    indices.append(UInt8.random(in: 0...22, using: &rng))
                }
            }
            var sum = 0, drawn = 0
            for i in 0..<count where rgba[i * 4 + 3] != 0 && Int(indices[i]) < colors.count {
                let c = colors[Int(indices[i])]
                sum += [Int(c.red), Int(c.green), Int(c.blue)].enumerated().map { (k, v) in (Int(rgba[i * 4 + k]) - v) * (Int(rgba[i * 4 + k]) - v) }.reduce(0, +)
                drawn += 1
            }
            let expected = drawn == 0 ? 0 : Double(sum) / Double(3 * drawn)
            #expect(GIFFramePreparer.meanSquaredError(rgba, indices, colors) == expected, "trial \(trial)")
        }
    }

    /// The rows quantized without the rows of no changed pixel go back to their places,
    /// the rows left out (first, between, last) transparent: worked by hand, 3 wide.
    @Test func quantizedRowsGoBackToTheirPlaces() {
        let compact: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let t = PreparedGIFFrame.transparentIndex
        #expect(GIFFramePreparer.spreadRows(compact, to: [1, 3, 4], width: 3, height: 6, filling: t)
                == [t, t, t, 1, 2, 3, t, t, t, 4, 5, 6, 7, 8, 9, t, t, t])
        #expect(GIFFramePreparer.spreadRows(compact, to: [0, 1, 2], width: 3, height: 3, filling: t) == compact)
        #expect(GIFFramePreparer.spreadRows([], to: [], width: 3, height: 2, filling: t) == [t, t, t, t, t, t])
    }
}
