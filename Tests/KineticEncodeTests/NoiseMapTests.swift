import Testing
@testable import KineticEncode

/// ``NoiseMap``: the importance map libimagequant 2.17 makes for its histogram, made by
/// kinetic instead (issue 42).
@Suite struct NoiseMapTests {
    /// Reds scattered at random over the top half (noise, which the map weighs down to
    /// about a third), a smooth blue ramp below, and a band of half-transparent greens:
    /// a picture whose palette depends on the weights (of eight entries, uniform weights
    /// gave its top and middle five reds and three blues, the noise map four and four).
    static func picture(width: Int, height: Int) -> [UInt8] {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                seed = seed &* 1_103_515_245 &+ 12345
                if y < height / 2 {
                    rgba[i] = UInt8(128 + 4 * Int((seed >> 16) % 32)); rgba[i + 1] = 0; rgba[i + 2] = 0
                } else if y < height * 3 / 4 {
                    rgba[i] = 0; rgba[i + 1] = 0; rgba[i + 2] = UInt8(128 + (127 * x) / max(1, width - 1))
                } else {
                    rgba[i] = 0; rgba[i + 1] = UInt8(100 + (seed >> 16) % 8); rgba[i + 2] = 0; rgba[i + 3] = 128
                }
            }
        }
        return rgba
    }

    /// The palette of a histogram weighted by our map is the one libimagequant's own map
    /// gives, at every size either side of the blur's 7 pixels and the map's 4, wide and
    /// tall, at the palette's speed and a frame's.
    @Test(arguments: [(64, 64), (7, 9), (6, 40), (40, 5), (4, 4), (3, 30), (375, 667), (101, 33)], [1, 4])
    func paletteIsLibimagequants(size: (Int, Int), speed: Int) throws {
        let (width, height) = size
        let rgba = Self.picture(width: width, height: height)
        func palette(ours: Bool) throws -> [ImageQuant.Entry] {
            let histogram = try ImageQuant.Histogram(settings: .init(maxColors: 9, speed: speed, quality: 100, dithering: 0),
                                                     makesNoiseMap: ours)
            try histogram.add(rgba: rgba, width: width, height: height)
            return try histogram.palette()
        }
        #expect(try palette(ours: true) == palette(ours: false))
    }

    /// By hand: a flat picture weighs every pixel fully (no contrast: 80 + 176, capped at
    /// 255); below 4 rows or columns libimagequant makes no map (every pixel 255).
    @Test func flatPictureWeighsEveryPixelFully() {
        let flat = [UInt8](repeating: 200, count: 20 * 10 * 4)
        let map = flat.withUnsafeBytes { NoiseMap.of(rgba: $0, width: 20, height: 10) }
        #expect(map == [UInt8](repeating: 255, count: 200))
        #expect(flat.withUnsafeBytes { NoiseMap.of(rgba: $0, width: 3, height: 10) } == nil)
    }

    /// By hand: a pixel in a field of alternating black and white columns differs from
    /// both neighbours of its row by the whole range (second difference 2 in internal
    /// gamma) and not at all from its column's: z = 2 − 2 / 2 = 1, 1 − max(1, 0) = 0,
    /// so 80, the least weight — in the middle, far enough from the borders that the
    /// widening and narrowing passes see only stripes.
    @Test func stripesWeighLeast() {
        let width = 32, height = 32
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height { for x in stride(from: 0, to: width, by: 2) { for c in 0..<3 { rgba[(y * width + x) * 4 + c] = 0 } } }
        let map = rgba.withUnsafeBytes { NoiseMap.of(rgba: $0, width: width, height: height) } ?? []
        #expect(map.count == width * height)
        #expect(map.isEmpty ? false : map[16 * width + 16] == 80)
        #expect(NoiseMap.gammaLevels[0] == 0 && NoiseMap.gammaLevels[255] == 1)
    }
}
