import Foundation

/// libimagequant 2.17's importance map of an image ("noise" in its `contrast_maps`): how
/// much each pixel's colour counts in the histogram, 80 for a pixel amid noise up to 255
/// for one in a flat area or on a straight edge. Made here, the same bytes, and handed to
/// libimagequant (`liq_image_set_importance_map`), because libimagequant makes it together
/// with an edge map for its dither map, which the histogram never reads, and in floats a
/// pixel at a time: the two were 1.17 G of snow's 9.78 G instructions (issue 42).
///
/// Each step follows libimagequant 2.17 (`contrast_maps`, `liq_max3`, `liq_min3`,
/// `liq_blur`) in the same float and integer arithmetic, so the palette is the one
/// libimagequant's own map gives; `NoiseMapTests` compares the two.
enum NoiseMap {
    /// `rgba`'s map (4 bytes a pixel, `width × height`), or nil where libimagequant makes
    /// none (fewer than 4 rows or columns, or over its 64 MB limit for the maps).
    static func of(rgba: UnsafeRawBufferPointer, width: Int, height: Int) -> [UInt8]? {
        precondition(rgba.count >= width * height * 4)
        guard width >= 4, height >= 4, 3 * width * height <= 1 << 26 else { return nil }
        var noise = [UInt8](repeating: 0, count: width * height)
        var tmp = [UInt8](repeating: 0, count: width * height)
        noise.withUnsafeMutableBufferPointer { noise in
            tmp.withUnsafeMutableBufferPointer { tmp in
                let n = noise.baseAddress!, t = tmp.baseAddress!
                contrast(rgba, width: width, height: height, into: n)
                // Noise areas shrunk and expanded again, removing thin edges from the map.
                extreme(n, into: t, width: width, height: height, max: true)
                extreme(t, into: n, width: width, height: height, max: true)
                blur(n, scratch: t, width: width, height: height)
                extreme(n, into: t, width: width, height: height, max: true)
                extreme(t, into: n, width: width, height: height, max: false)
                extreme(n, into: t, width: width, height: height, max: false)
                extreme(t, into: n, width: width, height: height, max: false)
            }
        }
        return noise
    }

    /// libimagequant's internal gamma of an 8-bit level (`to_f_set_gamma` at the default
    /// image gamma 0.45455): `pow` in doubles of its float constant 0.5499.
    static let gammaLevels: [Float] = (0..<256).map { Float(pow(Double($0) / 255, Double(Float(0.5499)) / 0.45455)) }

    /// Each pixel's contrast with its neighbours (clamped at the borders): the largest
    /// channel's second difference across its row and across its column, premultiplied,
    /// in internal gamma, turned into 80…255 (low where both directions differ).
    /// Four columns at a time, the rows as planes of a, r, g, b with the border column
    /// repeated on each side.
    private static func contrast(_ rgba: UnsafeRawBufferPointer, width: Int, height: Int,
                                 into noise: UnsafeMutablePointer<UInt8>) {
        let padded = (width + 3) / 4 * 4 + 2
        // Three rows of four planes: row y in slot y % 3.
        let planes = UnsafeMutablePointer<Float>.allocate(capacity: 3 * 4 * padded)
        defer { planes.deallocate() }
        func plane(_ row: Int, _ channel: Int) -> UnsafeMutablePointer<Float> { planes + ((row % 3) * 4 + channel) * padded }
        gammaLevels.withUnsafeBufferPointer { levels in
            func convert(_ y: Int) {
                let a = plane(y, 0), r = plane(y, 1), g = plane(y, 2), b = plane(y, 3)
                let source = rgba.baseAddress! + y &* width &* 4
                // Wrapping offsets, in range by the loop's bounds.
                for x in 0..<width {
                    let p = source + x &* 4
                    let alpha = Float(p.load(fromByteOffset: 3, as: UInt8.self)) / 255
                    a[x &+ 1] = alpha
                    r[x &+ 1] = levels[Int(p.load(as: UInt8.self))] * alpha
                    g[x &+ 1] = levels[Int(p.load(fromByteOffset: 1, as: UInt8.self))] * alpha
                    b[x &+ 1] = levels[Int(p.load(fromByteOffset: 2, as: UInt8.self))] * alpha
                }
                func repeatBorders(_ c: UnsafeMutablePointer<Float>) {
                    c[0] = c[1]
                    for x in (width + 1)..<padded { c[x] = c[width] }
                }
                repeatBorders(a); repeatBorders(r); repeatBorders(g); repeatBorders(b)
            }
            convert(0)
            if height > 1 { convert(1) }
            var out = [UInt8](repeating: 0, count: padded)
            for y in 0..<height {
                if y + 1 < height, y >= 1 { convert(y + 1) }
                // A row's four planes follow one another: channel c at c × padded floats.
                let row = UnsafeRawPointer(plane(y, 0)), above = UnsafeRawPointer(plane(max(y - 1, 0), 0))
                let below = UnsafeRawPointer(plane(min(y + 1, height - 1), 0)), planeBytes = padded &* 4
                out.withUnsafeMutableBufferPointer { out in
                    for x in stride(from: 0, to: width, by: 4) {
                        var horizontal = SIMD4<Float>(repeating: 0), vertical = SIMD4<Float>(repeating: 0)
                        for channel in 0..<4 {
                            // Wrapping offsets, in range by the loops' bounds.
                            let at = channel &* planeBytes &+ x &* 4
                            let before = row.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self)
                            let here = row.loadUnaligned(fromByteOffset: at &+ 4, as: SIMD4<Float>.self)
                            let after = row.loadUnaligned(fromByteOffset: at &+ 8, as: SIMD4<Float>.self)
                            let up = above.loadUnaligned(fromByteOffset: at &+ 4, as: SIMD4<Float>.self)
                            let down = below.loadUnaligned(fromByteOffset: at &+ 4, as: SIMD4<Float>.self)
                            horizontal = greater(horizontal, magnitude((before + after) - here * 2))
                            vertical = greater(vertical, magnitude((up + down) - here * 2))
                        }
                        let edge = greater(horizontal, vertical)
                        var z = edge - magnitude(horizontal - vertical) * 0.5
                        z = 1 - greater(z, horizontal.replacing(with: vertical, where: vertical .< horizontal))
                        z *= z  // noise amplified
                        z *= z
                        // z is 0…1: libimagequant's truncation to an integer.
                        let level = FloydSteinberg.floors(z * 176) &+ 80
                        let capped = level.replacing(with: 255, where: level .> 255)
                        UnsafeMutableRawPointer(out.baseAddress! + x)
                            .storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: capped), as: SIMD4<UInt8>.self)
                    }
                    (noise + y * width).update(from: out.baseAddress!, count: width)
                }
            }
        }
    }

    /// The greater of each lane (`pointwiseMax`, generic, was not inlined: half of the
    /// map's instructions).
    @inline(__always)
    private static func greater(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        a.replacing(with: b, where: b .> a)
    }

    /// The absolute values (the sign bit cleared, as `fabsf`).
    @inline(__always)
    private static func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    }

    /// `liq_max3` or `liq_min3`: each pixel's greatest (least) of itself and its four
    /// neighbours, the border pixels repeated.
    private static func extreme(_ source: UnsafeMutablePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
                                width: Int, height: Int, max takesMaximum: Bool) {
        // Wrapping index arithmetic (in range by the loops' bounds): checked, it kept the
        // loops from being vectorized.
        for y in 0..<height {
            let row = source + y &* width, up = source + Swift.max(y &- 1, 0) &* width
            let down = source + Swift.min(y &+ 1, height &- 1) &* width, out = destination + y &* width
            let last = width &- 1
            if takesMaximum {
                out[0] = Swift.max(Swift.max(row[0], row[1]), Swift.max(up[0], down[0]))
                for x in 1..<last {
                    out[x] = Swift.max(Swift.max(row[x], Swift.max(row[x &- 1], row[x &+ 1])), Swift.max(up[x], down[x]))
                }
                out[last] = Swift.max(Swift.max(row[last &- 1], row[last]), Swift.max(up[last], down[last]))
            } else {
                out[0] = Swift.min(Swift.min(row[0], row[1]), Swift.min(up[0], down[0]))
                for x in 1..<last {
                    out[x] = Swift.min(Swift.min(row[x], Swift.min(row[x &- 1], row[x &+ 1])), Swift.min(up[x], down[x]))
                }
                out[last] = Swift.min(Swift.min(row[last &- 1], row[last]), Swift.min(up[last], down[last]))
            }
        }
    }

    /// `liq_blur` at size 3: each row's running sum over a window of 6 (the first value
    /// counted 3 more times at the start, the last repeated at the end) divided by 6, then
    /// each column's the same way. libimagequant writes each pass transposed and runs the
    /// row pass twice; here the column pass keeps a running sum for every column and steps
    /// down the rows, so both passes read and write rows (the same integers: the sums are
    /// exact). Skipped, as libimagequant does, below 7 rows or columns.
    private static func blur(_ map: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
                             width: Int, height: Int) {
        let size = 3, divisor = UInt32(2 * size)
        guard width >= 2 * size + 1, height >= 2 * size + 1 else { return }
        for y in 0..<height {
            let row = map + y &* width, out = scratch + y &* width
            var sum = UInt32(row[0]) &* UInt32(size)
            for x in 0..<size { sum &+= UInt32(row[x]) }
            // In three stretches, so that only the first `size` pixels clamp on the left
            // and the last `size` on the right (`width` ≥ 7), not every pixel (issue 42).
            for x in 0..<size {
                sum &-= UInt32(row[0])
                sum &+= UInt32(row[x &+ size])
                out[x] = UInt8(truncatingIfNeeded: sum / divisor)
            }
            for x in size..<(width &- size) {
                sum &-= UInt32(row[x &- size])
                sum &+= UInt32(row[x &+ size])
                out[x] = UInt8(truncatingIfNeeded: sum / divisor)
            }
            for x in (width &- size)..<width {
                sum &-= UInt32(row[x &- size])
                sum &+= UInt32(row[width &- 1])
                out[x] = UInt8(truncatingIfNeeded: sum / divisor)
            }
        }
        // Wrapping arithmetic throughout: the bounds keep every index in range.
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { sums.deallocate() }
        for x in 0..<width { sums[x] = UInt32(scratch[x]) &* UInt32(size) }
        for y in 0..<size {
            let row = scratch + y &* width
            for x in 0..<width { sums[x] &+= UInt32(row[x]) }
        }
        for y in 0..<height {
            let leaving = scratch + Swift.max(y &- size, 0) &* width
            let entering = scratch + Swift.min(y &+ size, height &- 1) &* width
            let out = map + y &* width
            for x in 0..<width {
                let sum = sums[x] &- UInt32(leaving[x]) &+ UInt32(entering[x])
                sums[x] = sum
                out[x] = UInt8(truncatingIfNeeded: sum / divisor)
            }
        }
    }
}
