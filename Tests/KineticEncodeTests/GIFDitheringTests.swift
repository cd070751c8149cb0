import Testing
@testable import KineticEncode

/// Kinetic's own remapping to a shared palette with dithering: the nearest-entry search
/// (NearestPaletteEntry) and Floyd–Steinberg over the drawn pixels (FloydSteinberg).
@Suite struct GIFDitheringTests {
    /// The nearest opaque entry by squared RGB distance, the lowest index among equals,
    /// found by trying every entry.
    private static func bruteForce(_ palette: [ImageQuant.Entry], _ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        var best = -1, bestDistance = Int.max
        for (i, e) in palette.enumerated() where e.a >= 128 {
            let d = (Int(e.r) - r) * (Int(e.r) - r) + (Int(e.g) - g) * (Int(e.g) - g) + (Int(e.b) - b) * (Int(e.b) - b)
            if d < bestDistance { (best, bestDistance) = (i, d) }
        }
        return UInt8(best)
    }

    /// The search answers what trying every entry answers, for random colours, every cell
    /// corner and the palette's own colours, on palettes of 1, 7 and 255 opaque entries
    /// with repeated colours (ties) and the transparent entry among them; asked again
    /// (its recent colours), it answers the same.
    @Test(arguments: [1, 7, 255]) func nearestEntryIsTheBruteForceOne(count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(count)
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(state >> 56)
        }
        var palette = (0..<count).map { _ in ImageQuant.Entry(r: next(), g: next(), b: next(), a: 255) }
        if count > 2 { palette[count - 1] = palette[1] }  // a tie: index 1 wins
        palette.insert(ImageQuant.Entry(r: 0, g: 0, b: 0, a: 0), at: count / 2)
        var nearest = NearestPaletteEntry(palette: palette)
        var colours: [(Int, Int, Int)] = (0..<20_000).map { _ in (Int(next()), Int(next()), Int(next())) }
        for r in stride(from: 0, through: 255, by: 7) {
            for g in [0, 7, 8, 127, 128, 248, 255] { for b in [0, 15, 16, 255] { colours.append((r, g, b)) } }
        }
        colours += palette.map { (Int($0.r), Int($0.g), Int($0.b)) }
        for _ in 0..<2 {
            for (r, g, b) in colours {
                let found = nearest.index(red: Int32(r), green: Int32(g), blue: Int32(b))
                #expect(found == Self.bruteForce(palette, r, g, b), "(\(r), \(g), \(b))")
            }
        }
    }

    /// A grey ramp of 3 × 2 pixels dithered to black and white at full strength, worked
    /// out by hand (errors scaled by 15/16 when read; the entries' colours 0 and 255):
    /// - row 0, left to right: 100 → black, error 100; 120 + 43.75·15/16 = 161.0 (error²
    ///   over 4064, damped: 120 + 32.81 = 152.8) → white, error −102.19; 140 − 33.53 =
    ///   106.5 → black, error 106.47;
    /// - row 1 (errors from above: 31.25 − 19.16 = 12.09, 6.25 − 31.93 + 19.96 = −5.72,
    ///   −6.39 + 33.27 = 26.89), right to left: 120 + 25.20 = 145.2 → white, error −109.80;
    ///   110 + (−5.72 − 48.04)·15/16·0.8 = 69.7 → black, error 69.68; 100 + (12.09 +
    ///   30.49)·15/16·0.8 = 131.9 → white.
    /// Undithered, the ramp would be black, black, white and black, black, black.
    @Test func errorDiffusionOfAGreyRampMatchesAHandComputation() {
        let palette = [ImageQuant.Entry(r: 0, g: 0, b: 0, a: 255), ImageQuant.Entry(r: 255, g: 255, b: 255, a: 255),
                       ImageQuant.Entry(r: 0, g: 0, b: 0, a: 0)]
        let greys: [UInt8] = [100, 120, 140, 100, 110, 120]
        let rgba = greys.flatMap { grey -> [UInt8] in [grey, grey, grey, 255] }
        var nearest = NearestPaletteEntry(palette: palette)
        let (indices, error) = FloydSteinberg.remap(rgba: rgba, width: 3, height: 2, dithering: 1, transparent: 2,
                                                    palette: palette, nearest: &nearest)
        #expect(indices == [0, 1, 0, 1, 0, 1])
        // Against the source pixels, not the dithered colours.
        let squares = [100, 135, 140, 155, 110, 135].map { 3 * $0 * $0 }
        #expect(error == ImageQuant.Remapper.Distortion(sum: squares.reduce(0, +), count: 6))
        let undithered = FloydSteinberg.remap(rgba: rgba, width: 3, height: 2, dithering: 0, transparent: 2,
                                              palette: palette, nearest: &nearest)
        #expect(undithered.indices == [0, 0, 1, 0, 0, 0])
    }

    /// Error does not cross a transparent pixel (it shows the earlier frame): 100, a
    /// transparent pixel, 100 stays black, transparent, black, where three greys of 100
    /// give black, white (100 + 43.75·15/16·0.8 = 132.8, its error² over 4064 damped), black.
    @Test func errorStopsAtTransparentPixels() {
        let palette = [ImageQuant.Entry(r: 0, g: 0, b: 0, a: 255), ImageQuant.Entry(r: 255, g: 255, b: 255, a: 255),
                       ImageQuant.Entry(r: 0, g: 0, b: 0, a: 0)]
        var nearest = NearestPaletteEntry(palette: palette)
        let gap: [UInt8] = [100, 100, 100, 255, 0, 0, 0, 0, 100, 100, 100, 255]
        #expect(FloydSteinberg.remap(rgba: gap, width: 3, height: 1, dithering: 1, transparent: 2,
                                     palette: palette, nearest: &nearest).indices == [0, 2, 0])
        let solid = [UInt8](repeating: 100, count: 12).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
        #expect(FloydSteinberg.remap(rgba: solid, width: 3, height: 1, dithering: 1, transparent: 2,
                                     palette: palette, nearest: &nearest).indices == [0, 1, 0])
    }

    /// A shared palette's remapper dithers with these: its indices are FloydSteinberg's
    /// with a fresh search, frame after frame (the search kept between them changes
    /// nothing), and two blocks far apart in a transparent frame are each dithered as
    /// if alone.
    @Test func remapperDithersTheDrawnPixelsAsAlone() throws {
        let colors = (0..<200).map { (i: Int) -> GIFColor in
            GIFColor(red: UInt8(i * 6 % 256), green: UInt8(255 - i * 5 % 256), blue: UInt8(i * 37 % 256))
        }
        let palette = try GIFPalette(colors: colors)
        let settings = GIFOptions(dithering: 0.5).quantizerSettings
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func block(_ width: Int, _ height: Int) -> [UInt8] {
            (0..<(width * height)).flatMap { _ -> [UInt8] in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return [UInt8(state >> 40 & 0xFF), UInt8(state >> 48 & 0xFF), UInt8(state >> 56 & 0xFF), 255]
            }
        }
        func alone(_ rgba: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
            var nearest = NearestPaletteEntry(palette: palette.remapper.palette)
            return FloydSteinberg.remap(rgba: rgba, width: width, height: height, dithering: 0.5,
                                        transparent: UInt8(colors.count), palette: palette.remapper.palette,
                                        nearest: &nearest).indices
        }
        // Block a at (3, 4), 20 × 10; block b at (150, 62), 30 × 12 (even rows, so both start
        // left to right, as alone); the rest transparent.
        let width = 200, height = 80
        let a = block(20, 10), b = block(30, 12)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<10 { rgba.replaceSubrange(((4 + y) * width + 3) * 4..<((4 + y) * width + 23) * 4, with: a[(y * 80)..<((y + 1) * 80)]) }
        for y in 0..<12 { rgba.replaceSubrange(((62 + y) * width + 150) * 4..<((62 + y) * width + 180) * 4, with: b[(y * 120)..<((y + 1) * 120)]) }
        let (blockA, blockB) = (alone(a, 20, 10), alone(b, 30, 12))
        let transparent = UInt8(colors.count)
        for _ in 0..<2 {
            let remapped = try palette.remapper.remap(rgba: rgba, width: width, height: height, settings: settings)
            #expect(remapped == alone(rgba, width, height))
            for y in 0..<height {
                for x in 0..<width {
                    let expected = if (4..<14).contains(y), (3..<23).contains(x) { blockA[(y - 4) * 20 + x - 3] }
                        else if (62..<74).contains(y), (150..<180).contains(x) { blockB[(y - 62) * 30 + x - 150] }
                        else { transparent }
                    #expect(remapped[y * width + x] == expected, "(\(x), \(y))")
                }
            }
        }
        #expect(Set(blockA + blockB).count > 50 && !(blockA + blockB).contains(transparent))
    }

    /// Floyd–Steinberg as written down (whole error rows, cleared whole, every entry
    /// tried): the remap, which zeroes each column as it reads it and clears only the
    /// columns written and not read, answers the same
    /// on frames of scattered spans whose rows start and end in different places (error
    /// left from two rows up would show), at full and partial dithering. With `flat`, the
    /// spans are a gradient of flat rows whose colours are half of them palette entries,
    /// one pixel in eight random: runs of one colour (looked up once), pixels whose error
    /// is too small to add (their own colour looked up), and spans of one pixel. With
    /// `hidden`, one pixel in eight of a span has a colour but alpha 0: it takes no error
    /// and passes none on, in the row or below (the shares carried in registers, issue 42).
    @Test(arguments: [(1.0, false, false), (0.5, false, false), (0.5, true, false), (0.1, true, false),
                      (1.0, false, true), (0.5, true, true)])
    func sparseSpansDitherAsWholeRows(dithering: Double, flat: Bool, hidden: Bool) {
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(state >> 56)
        }
        var palette = (0..<24).map { _ in ImageQuant.Entry(r: next(), g: next(), b: next(), a: 255) }
        // The gradient's rows: every other one a palette entry's colour.
        let rowColors: [[UInt8]] = (0..<40).map { y in
            let entry = palette[(y / 2) % 24]
            return y % 2 == 0 ? [entry.r, entry.g, entry.b, 255] : [UInt8(y * 6), 191, UInt8(255 - y * 3), 255]
        }
        palette.append(ImageQuant.Entry(r: 0, g: 0, b: 0, a: 0))
        let width = 64, height = 40
        // Spans of 1–12 pixels at random places, a third of the pixels drawn.
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            var x = Int(next()) % 8
            while x < width {
                let length = 1 + Int(next()) % 12
                for c in x..<min(width, x + length) {
                    let random = [next(), next(), next(), 255]
                    var pixel = flat && random[0] >= 32 ? rowColors[y] : random
                    if hidden, next() < 32 { pixel = [random[0] | 1, random[1], random[2], 0] }
                    rgba.replaceSubrange((y * width + c) * 4..<(y * width + c + 1) * 4, with: pixel)
                }
                x += length + 1 + Int(next()) % 24
            }
        }
        var nearest = NearestPaletteEntry(palette: palette)
        let remapped = FloydSteinberg.remap(rgba: rgba, width: width, height: height, dithering: dithering,
                                            transparent: 24, palette: palette, nearest: &nearest)
        // The reference, with FloydSteinberg's constants.
        let level = FloydSteinberg.level(dithering: dithering)
        let colors = palette.map { SIMD4<Float>(Float($0.r), Float($0.g), Float($0.b), 0) }
        var this = [SIMD4<Float>](repeating: .zero, count: width + 2), below = this
        var expected = [UInt8](repeating: 24, count: width * height)
        for y in 0..<height {
            let step = y % 2 == 0 ? 1 : -1
            for x in stride(from: step == 1 ? 0 : width - 1, to: step == 1 ? width : -1, by: step) {
                let o = (y * width + x) * 4
                guard rgba[o + 3] != 0 else { continue }
                var target = SIMD4<Float>(Float(rgba[o]), Float(rgba[o + 1]), Float(rgba[o + 2]), 0)
                var error = this[x + 1] * level
                let size = error.x * error.x + error.y * error.y + error.z * error.z
                if size >= FloydSteinberg.tinyError {
                    if size > FloydSteinberg.largeError { error *= 0.8 }
                    target = (target + error).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
                }
                let index = Self.bruteForce(palette, Int(target.x + 0.5), Int(target.y + 0.5), Int(target.z + 0.5))
                expected[y * width + x] = index
                let residual = target - colors[Int(index)]
                this[x + 1 + step] += residual * (7.0 / 16)
                below[x + 1 - step] += residual * (3.0 / 16)
                below[x + 1] += residual * (5.0 / 16)
                below[x + 1 + step] += residual * (1.0 / 16)
            }
            this = below
            below = [SIMD4<Float>](repeating: .zero, count: width + 2)
        }
        #expect(remapped.indices == expected)
        #expect(Set(expected).count > 12)
    }

    /// The columns left to clear after a row: the previous row's spans' writes (each
    /// span's columns − 1 … + 1, margin-shifted lowerBound ..< upperBound + 2) less the
    /// current spans' own columns (lowerBound + 1 ..< upperBound + 1), which their pixels
    /// zeroed on reading, each column once. By hand on five cases, then against sets of
    /// columns on random spans.
    @Test func unreadColumnsAreThePreviousWritesLessTheColumnsRead() {
        func unread(_ previous: [Range<Int>], _ current: [Range<Int>]) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            FloydSteinberg.forEachUnread(previous: previous, current: current) { ranges.append($0) }
            return ranges
        }
        // A full row after a full row: its two margin columns only.
        #expect(unread([0..<5], [0..<5]) == [0..<1, 6..<7])
        #expect(unread([2..<4], []) == [2..<6])
        #expect(unread([0..<3, 10..<12], [1..<11]) == [0..<2, 12..<14])
        #expect(unread([5..<6], [0..<2, 8..<9]) == [5..<8])
        // Two spans a pixel apart both write the column between them: cleared once.
        #expect(unread([0..<2, 3..<5], []) == [0..<4, 4..<7])
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        func spans() -> [Range<Int>] {
            var result: [Range<Int>] = [], x = next(4)
            while x < 60 {
                let end = min(60, x + 1 + next(10))
                result.append(x..<end)
                x = end + 1 + next(8)
            }
            return result
        }
        for _ in 0..<200 {
            let previous = spans(), current = spans()
            var expected = Set(previous.flatMap { $0.lowerBound..<($0.upperBound + 2) })
            expected.subtract(current.flatMap { ($0.lowerBound + 1)..<($0.upperBound + 1) })
            let found = unread(previous, current)
            #expect(Set(found.flatMap { $0 }) == expected)
            #expect(found.map(\.count).reduce(0, +) == expected.count, "each column once")
        }
    }

    /// The unchecked roundings agree with the checked conversions: `floors` with
    /// `Int32(v.rounded(.down))` on every 1/256 from 0 to 300, the floats each side of
    /// every whole number and every half (ties, where rounding to even would go wrong),
    /// and 2²²; `wholeNumber` with `Int32(v)` on whole numbers up to 2²³ − 1.
    @Test func unsafeRoundingsMatchTheCheckedOnes() {
        var values: [Float] = (0...(300 * 256)).map { Float($0) / 256 }
        for k in 0...300 {
            for v in [Float(k), Float(k) + 0.5] { values += [v.nextDown, v, v.nextUp].filter { $0 >= 0 } }
        }
        values += [4_194_304, Float(4_194_304).nextDown]
        for start in stride(from: 0, to: values.count, by: 4) {
            let lanes = (0..<4).map { values[min(values.count - 1, start + $0)] }
            let v = SIMD4<Float>(lanes[0], lanes[1], lanes[2], lanes[3])
            let expected = SIMD4<Int32>(lanes.map { Int32($0.rounded(.down)) })
            #expect(FloydSteinberg.floors(v) == expected, "\(lanes)")
        }
        for v: Float in [0, 1, 2, 255, 195_075, 4_194_305, 8_388_607] {
            #expect(FloydSteinberg.wholeNumber(v) == Int32(v))
        }
    }
}
