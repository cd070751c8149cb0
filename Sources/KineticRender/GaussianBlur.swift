/// A Gaussian blur of one-byte-per-pixel rows by three successive box blurs along each
/// axis: boxes of widths chosen so their combined variance is σ². Box blurs along rows
/// and along columns commute, so the three horizontal passes run first, then the three
/// vertical ones.
enum GaussianBlur {
    /// Odd box widths whose three variances (w² − 1) / 12 sum closest to σ².
    static func boxWidths(sigma: Double, passes n: Int = 3) -> [Int] {
        let ideal = (12 * sigma * sigma / Double(n) + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let l = Double(lower), nd = Double(n)
        // How many passes use the lower width.
        let mIdeal = (12 * sigma * sigma - nd * l * l - 4 * nd * l - 3 * nd) / (-4 * l - 4)
        let m = Int(mIdeal.rounded())
        return (0..<n).map { $0 < m ? lower : upper }
    }

    /// Below this σ (pixels) the blur changes nothing visible and is skipped.
    static let minimumSigma = 0.2

    static func apply(to bytes: inout [UInt8], width: Int, height: Int, stride: Int, sigma: Double) {
        bytes.withUnsafeMutableBufferPointer { apply(to: $0, width: width, height: height, stride: stride, sigma: sigma) }
    }

    /// Blurs the rows in place. Values are fixed-point integers between passes (16
    /// fractional bits while the boxes are narrower than 256 pixels), each pass rounding
    /// to the nearest step, so the result is within a level of the exact average and the
    /// same on every machine; sums of a box fit 32 bits. Every pass runs down columns,
    /// all columns at once (the horizontal ones on the image transposed): a running sum
    /// along a row would be one long chain of dependent additions.
    static func apply(to pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        guard sigma > minimumSigma, width > 0, height > 0, stride >= width,
              pixels.count >= stride * (height - 1) + width, let bytes = pixels.baseAddress else { return }
        let boxes = boxWidths(sigma: sigma).filter { $0 > 1 }.map(Box.init)
        guard let widest = boxes.map(\.width).max(), 256 * widest <= Int(UInt32.max) else { return }
        // As many fractional bits as keep a box's sum within 32 bits (256: room for rounding).
        var shift = 16
        while shift > 0, (256 << shift) * widest > Int(UInt32.max) { shift -= 1 }
        let side = max(width, height)
        let planes = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 2 * width * height)
        // The column sums, then a row of zeros: the rows past either end (the shadow fades beyond the edge).
        let sums = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 2 * side)
        defer { planes.deallocate(); sums.deallocate() }
        sums.initialize(repeating: 0)
        guard let a = planes.baseAddress, let s = sums.baseAddress else { return }
        var from = a, to = a + width * height
        // Transposed: row x holds column x.
        for y in 0..<height {
            let row = bytes + y * stride
            for x in 0..<width { from[x * height + y] = UInt32(row[x]) << UInt32(shift) }
        }
        for box in boxes {
            box.blurColumns(from, into: to, columns: height, rows: width, sums: s, zeros: s + side)
            swap(&from, &to)
        }
        for x in 0..<width {
            let column = from + x * height
            for y in 0..<height { to[y * width + x] = column[y] }
        }
        swap(&from, &to)
        for box in boxes {
            box.blurColumns(from, into: to, columns: width, rows: height, sums: s, zeros: s + side)
            swap(&from, &to)
        }
        let half = (UInt32(1) << UInt32(shift)) >> 1
        for y in 0..<height {
            let row = from + y * width, target = bytes + y * stride
            for x in 0..<width { target[x] = UInt8(truncatingIfNeeded: min(255, (row[x] &+ half) >> UInt32(shift))) }
        }
    }

    /// One box blur: a running sum of `width` samples, divided by multiplying with a
    /// 32-bit reciprocal (the sums are below 2³², so the products fit 64 bits).
    private struct Box {
        var width: Int
        var reciprocal: UInt32

        init(_ width: Int) {
            self.width = width
            reciprocal = UInt32(((UInt64(1) << 32) + UInt64(width / 2)) / UInt64(width))
        }

        @inline(__always) func average(_ sum: UInt32) -> UInt32 {
            UInt32(truncatingIfNeeded: (UInt64(sum) &* UInt64(reciprocal) &+ (UInt64(1) << 31)) >> 32)
        }

        /// Down each column of a plane, the sums of all columns kept and advanced a row at a time,
        /// so memory is read row by row; `zeros` (a row of them) stands for the rows
        /// past either end.
        func blurColumns(_ src: UnsafeMutablePointer<UInt32>, into dst: UnsafeMutablePointer<UInt32>, columns: Int, rows: Int,
                         sums: UnsafeMutablePointer<UInt32>, zeros: UnsafePointer<UInt32>) {
            let r = width / 2
            sums.update(repeating: 0, count: columns)
            for i in 0..<min(r, rows) {
                let row = src + i * columns
                for x in 0..<columns { sums[x] &+= row[x] }
            }
            for i in 0..<rows {
                let enter = i + r < rows ? UnsafePointer(src + (i + r) * columns) : zeros
                let leave = i - r - 1 >= 0 ? UnsafePointer(src + (i - r - 1) * columns) : zeros
                let out = dst + i * columns
                for x in 0..<columns {
                    let sum = sums[x] &+ enter[x] &- leave[x]
                    sums[x] = sum
                    out[x] = average(sum)
                }
            }
        }
    }
}
