// The one file that touches libimagequant's C API (Debian's 2.17).
import CImageQuant
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Palette quantization and remapping of straight (un-premultiplied) RGBA pixels.
///
/// Determinism: libimagequant 2.17 has no random choices, but Debian builds it with
/// OpenMP, and two things then depend on the thread count: `liq_set_speed` enables the
/// dither map at speeds 6–7 only when OpenMP has more than one thread, and K-means sums
/// per-thread partial averages (floating-point order). Every call here therefore first
/// limits the calling thread's OpenMP team to one thread, so output is the same on any
/// machine. Parallelism comes from preparing several frames at once instead, which also
/// avoids oversubscribing cores with nested thread teams.
enum ImageQuant {
    struct Settings: Hashable {
        var maxColors: Int
        var speed: Int
        var quality: Int
        var dithering: Double
    }

    /// One palette entry as libimagequant returns it (straight alpha).
    struct Entry: Equatable {
        var r, g, b, a: UInt8
    }

    /// Builds a palette of at most `settings.maxColors` entries from the histogram of
    /// `sample` (the pixels themselves, or a subsample of them) and remaps `rgba`
    /// (4 bytes a pixel, `width × height`) to it with Floyd–Steinberg dithering.
    /// The transparent colour (0, 0, 0, 0) always gets an entry of its own (counted in
    /// `settings.maxColors`, so the GIF's table holds it too); the `fixed` colours are in
    /// the palette exactly.
    static func quantize(rgba: [UInt8], width: Int, height: Int,
                         sample: (rgba: [UInt8], width: Int, height: Int),
                         fixed: [Entry] = [],
                         settings: Settings) throws(EncodeError) -> (palette: [Entry], indices: [UInt8]) {
        precondition(rgba.count == width * height * 4 && sample.rgba.count == sample.width * sample.height * 4)
        singleThreadedOpenMP()
        guard let attr = makeAttributes(settings) else { throw .quantizationFailed(reason: "out of memory") }
        defer { liq_attr_destroy(attr) }
        guard let histogram = liq_histogram_create(attr) else { throw .quantizationFailed(reason: "out of memory") }
        defer { liq_histogram_destroy(histogram) }
        for entry in [Entry(r: 0, g: 0, b: 0, a: 0)] + fixed {
            let added = liq_histogram_add_fixed_color(histogram, liq_color(r: entry.r, g: entry.g, b: entry.b, a: entry.a), 0)
            guard added == LIQ_OK else { throw .quantizationFailed(reason: message(added)) }
        }
        try addImage(sample.rgba, width: sample.width, height: sample.height, to: histogram, attr: attr,
                     speed: settings.speed)
        var result: OpaquePointer? = nil
        let quantized = liq_histogram_quantize(histogram, attr, &result)
        guard quantized == LIQ_OK, let result else { throw .quantizationFailed(reason: message(quantized)) }
        defer { liq_result_destroy(result) }
        return try remap(rgba: rgba, width: width, height: height, attr: attr, result: result,
                         dithering: settings.dithering)
    }

    /// Remaps images to exactly the colours of one palette (≤ 256 entries), frame after
    /// frame, from any thread.
    ///
    /// A fixed-palette result is made once per thread that remaps at the same time and
    /// reused: making one costs libimagequant a gamma table (256 `pow` calls) for each
    /// fixed colour, which was 16 % of flow-menu's render when done for every frame.
    /// Reuse does not change the output: remapping refines a copy of the result's
    /// palette (`liq_remapping_result`), never the result's own, and fixed colours do not
    /// move anyway.
    // @unchecked: `idle` and `searches` are only touched with `lock` held, and a result or
    // a search is used by one thread at a time (taken out while it remaps).
    final class Remapper: @unchecked Sendable {
        let palette: [Entry]
        /// A fixed-palette result and the translation of its palette (as remapping left
        /// it, the key) to `palette`'s indices: the same every frame, so made once.
        private struct Pair {
            let attr: OpaquePointer, result: OpaquePointer
            var translation: (entries: [Entry], indices: [UInt8])?
        }
        private var idle: [Settings: [Pair]] = [:]
        /// Nearest-entry searches of `palette` not in use (their cells and recent colours
        /// filled by earlier frames).
        private var searches: [NearestPaletteEntry] = []
        private let lock = NSLock()

        init(palette: [Entry]) { self.palette = palette }

        deinit {
            for pair in idle.values.joined() {
                liq_result_destroy(pair.result)
                liq_attr_destroy(pair.attr)
            }
        }

        /// `rgba` remapped, with dithering at `settings.dithering`; the indices refer to
        /// `palette`.
        ///
        /// Without dithering, each pixel's entry depends on its colour alone, so
        /// libimagequant remaps each distinct colour once, as a one-row image, and every
        /// pixel takes its colour's entry: the same indices, without a nearest-colour
        /// search for each of the frame's pixels (remapping was a third of the gallery
        /// batch's CPU).
        ///
        /// With dithering, the drawn pixels (alpha > 0) are dithered here, not by
        /// libimagequant (``FloydSteinberg``), and the others take the transparent entry.
        /// `asOneImage` remaps every pixel with libimagequant as one image (the undithered
        /// colours, tests).
        func remap(rgba: [UInt8], width: Int, height: Int, settings: Settings,
                   asOneImage: Bool = false) throws(EncodeError) -> [UInt8] {
            precondition(rgba.count == width * height * 4)
            if settings.dithering == 0, !asOneImage, let (colors, runs) = ColorCounts.indexed(rgba) {
                return try remapByColor(colors, runs, pixels: width * height, settings: settings).indices
            }
            if settings.dithering > 0, !asOneImage, let dithered = dithered(rgba: rgba, width: width, height: height,
                                                                            settings: settings) {
                return dithered.indices
            }
            singleThreadedOpenMP()
            var key = settings
            key.maxColors = max(2, palette.count)
            var pair = try take(key)
            defer { lock.withLock { idle[key, default: []].append(pair) } }
            let (result, indices) = try ImageQuant.remap(rgba: rgba, width: width, height: height, attr: pair.attr,
                                                         result: pair.result, dithering: settings.dithering)
            // libimagequant orders its palette its own way; translate back to ours.
            if pair.translation?.entries != result {
                pair.translation = (result, result.map { entry in
                    UInt8(palette.indices.min { distance(palette[$0], entry) < distance(palette[$1], entry) } ?? 0)
                })
            }
            // 256 entries, so any index finds one.
            var translation = Array((pair.translation?.indices ?? []).prefix(256))
            translation += [UInt8](repeating: 0, count: 256 - translation.count)
            return Self.lookUp(indices, in: translation)
        }

        /// The summed squared error, over the three channels, of the pixels of `rgba`
        /// with alpha > 0 that get an opaque entry, and how many there are.
        struct Distortion: Equatable {
            var sum = 0, count = 0

            /// The mean squared error a channel (0 when no pixel counts).
            var meanSquaredError: Double { count == 0 ? 0 : Double(sum) / Double(3 * count) }
        }

        /// ``remap(rgba:width:height:settings:asOneImage:)`` and its ``Distortion``, when it
        /// comes free: without dithering, as each pixel's entry is looked up by its colour
        /// (the frame's mean squared error, a pass of its own, was 3 % of the gallery
        /// batch's CPU), and with it, as each drawn pixel's entry is known when chosen.
        /// nil otherwise.
        func remapMeasuringError(rgba: [UInt8], width: Int, height: Int,
                                 settings: Settings) throws(EncodeError) -> (indices: [UInt8], error: Distortion?) {
            precondition(rgba.count == width * height * 4)
            guard settings.dithering == 0 else {
                if let dithered = dithered(rgba: rgba, width: width, height: height, settings: settings) {
                    return (dithered.indices, dithered.error)
                }
                return (try remap(rgba: rgba, width: width, height: height, settings: settings), nil)
            }
            // Too many colours to index: remapped as one image, as `remap` would.
            guard let (colors, runs) = ColorCounts.indexed(rgba) else {
                return (try remap(rgba: rgba, width: width, height: height, settings: settings, asOneImage: true), nil)
            }
            let (indices, error) = try remapByColor(colors, runs, pixels: width * height, settings: settings)
            return (indices, error)
        }

        /// Undithered remapping of `pixels` pixels given as their distinct `colors` (RGBA
        /// bytes) and runs of one colour (``ColorCounts/ColorRun``, covering them in
        /// order): each colour is remapped once, as a one-row image, and its error against
        /// its entry found once; every run takes its colour's entry, and its error times
        /// its length, on the way.
        private func remapByColor(_ colors: [UInt8], _ runs: [ColorCounts.ColorRun], pixels: Int,
                                  settings: Settings) throws(EncodeError) -> (indices: [UInt8], error: Distortion) {
            precondition((runs.last?.end ?? 0) == pixels)
            let entries = try remap(rgba: colors, width: colors.count / 4, height: 1, settings: settings, asOneImage: true)
            precondition(entries.count == colors.count / 4)
            // Each colour's error against its entry; -1 for one not counted.
            let errors = entries.indices.map { id -> Int32 in
                let entry = palette[Int(entries[id])], o = id * 4
                guard colors[o + 3] != 0, entry.a != 0 else { return -1 }
                let dr = Int32(colors[o]) - Int32(entry.r), dg = Int32(colors[o + 1]) - Int32(entry.g)
                let db = Int32(colors[o + 2]) - Int32(entry.b)
                return dr * dr + dg * dg + db * db
            }
            var error = Distortion()
            let indices = [UInt8](unsafeUninitializedCapacity: pixels) { out, initialized in
                guard let base = out.baseAddress else { return }
                runs.withUnsafeBufferPointer { runs in
                    entries.withUnsafeBufferPointer { entries in
                        errors.withUnsafeBufferPointer { errors in
                            var sum = 0, count = 0, start = 0
                            for run in runs {
                                let id = Int(run.id), length = run.end &- start
                                memset(base + start, Int32(entries[id]), length)
                                let e = errors[id]
                                if e >= 0 { sum &+= Int(e) &* length; count &+= length }
                                start = run.end
                            }
                            error = Distortion(sum: sum, count: count)
                        }
                    }
                }
                initialized = pixels
            }
            return (indices, error)
        }

        /// `table[key]` for every key, in a tight loop (`map` with a bounds-checked array
        /// grew its result element by element: 2 % of the gallery batch's CPU).
        /// - Precondition: every key is an index of `table`.
        private static func lookUp<Key: FixedWidthInteger>(_ keys: [Key], in table: [UInt8]) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: keys.count) { out, initialized in
                keys.withUnsafeBufferPointer { keys in
                    table.withUnsafeBufferPointer { table in
                        for i in 0..<keys.count { out[i] = table[Int(keys[i])] }
                    }
                }
                initialized = keys.count
            }
        }

        /// ``FloydSteinberg`` dithering of `rgba` to `palette`, with a nearest-entry search
        /// of this palette kept between frames (one per thread remapping at once); nil when
        /// the palette lacks the transparent entry or any opaque one.
        private func dithered(rgba: [UInt8], width: Int, height: Int,
                              settings: Settings) -> (indices: [UInt8], error: Distortion)? {
            guard let transparent = palette.firstIndex(of: Entry(r: 0, g: 0, b: 0, a: 0)) else { return nil }
            var nearest = lock.withLock { searches.popLast() } ?? NearestPaletteEntry(palette: palette)
            defer { lock.withLock { searches.append(nearest) } }
            guard !nearest.isEmpty else { return nil }
            return FloydSteinberg.remap(rgba: rgba, width: width, height: height, dithering: settings.dithering,
                                        transparent: UInt8(transparent), palette: palette, nearest: &nearest)
        }

        private func take(_ settings: Settings) throws(EncodeError) -> Pair {
            if let pair = lock.withLock({ idle[settings]?.popLast() }) { return pair }
            guard let attr = makeAttributes(settings) else { throw .quantizationFailed(reason: "out of memory") }
            var result: OpaquePointer? = nil
            let status = fixedPaletteResult(palette, attr: attr, &result)
            guard status == LIQ_OK, let result else {
                liq_attr_destroy(attr)
                throw .quantizationFailed(reason: message(status))
            }
            return Pair(attr: attr, result: result)
        }
    }

    /// One palette for many images added one at a time (libimagequant's histogram keeps
    /// their colour counts, not the images): a whole animation's palette without holding
    /// its frames. Its palette has at most `settings.maxColors` entries, one of them the
    /// transparent colour (0, 0, 0, 0), always reserved. Use from one thread at a time.
    final class Histogram {
        private let attr: OpaquePointer
        private let histogram: OpaquePointer
        private let speed: Int
        /// Whether the pixels' weights come from our ``NoiseMap`` (false: libimagequant's own).
        private let makesNoiseMap: Bool

        init(settings: Settings, makesNoiseMap: Bool = true) throws(EncodeError) {
            speed = settings.speed
            self.makesNoiseMap = makesNoiseMap
            guard let attr = makeAttributes(settings) else { throw .quantizationFailed(reason: "out of memory") }
            guard let histogram = liq_histogram_create(attr) else {
                liq_attr_destroy(attr)
                throw .quantizationFailed(reason: "out of memory")
            }
            self.attr = attr; self.histogram = histogram
            try addFixed(Entry(r: 0, g: 0, b: 0, a: 0))
        }

        deinit {
            liq_histogram_destroy(histogram)
            liq_attr_destroy(attr)
        }

        /// Counts the colours of `rgba` (4 bytes a pixel, `width × height`), each pixel
        /// weighted by `importance` when given (``ImageQuant/importanceMap(rgba:width:height:speed:)``
        /// of the same pixels at this histogram's speed, made ahead on another thread),
        /// else by a map made here.
        func add(rgba: [UInt8], width: Int, height: Int, importance: [UInt8]? = nil) throws(EncodeError) {
            precondition(rgba.count == width * height * 4)
            singleThreadedOpenMP()
            try addImage(rgba, width: width, height: height, to: histogram, attr: attr, speed: speed,
                         ownMap: makesNoiseMap, importance: importance)
        }

        /// Makes `entry` a palette entry exactly.
        func addFixed(_ entry: Entry) throws(EncodeError) {
            let added = liq_histogram_add_fixed_color(histogram, liq_color(r: entry.r, g: entry.g, b: entry.b, a: entry.a), 0)
            guard added == LIQ_OK else { throw .quantizationFailed(reason: message(added)) }
        }

        /// The palette of everything added, without the transparent entry.
        func palette() throws(EncodeError) -> [Entry] {
            singleThreadedOpenMP()
            var result: OpaquePointer? = nil
            let status = liq_histogram_quantize(histogram, attr, &result)
            guard status == LIQ_OK, let result else { throw .quantizationFailed(reason: message(status)) }
            defer { liq_result_destroy(result) }
            return entries(liq_get_palette(result)).filter { $0.a >= 128 }
        }
    }

    /// Adds the colours of `rgba` (4 bytes a pixel, `width × height`) to `histogram`, each
    /// pixel weighted as libimagequant would: by its ``NoiseMap``, made here at the speeds
    /// where libimagequant makes one (1…7, `use_contrast_maps` in 2.17), so that it does
    /// not make it with the edge map the histogram never reads. The same counts, so the
    /// same palette (`NoiseMapTests`).
    /// - Parameters:
    ///   - ownMap: false to leave the map to libimagequant (tests compare the two).
    ///   - importance: `rgba`'s ``importanceMap(rgba:width:height:speed:)``, when made
    ///     already (a palette sample's, on a worker thread); nil to make it here.
    static func addImage(_ rgba: [UInt8], width: Int, height: Int, to histogram: OpaquePointer, attr: OpaquePointer,
                         speed: Int, ownMap: Bool = true, importance: [UInt8]? = nil) throws(EncodeError) {
        precondition(importance.map { $0.count == width * height } ?? true, "one weight a pixel")
        let added: liq_error = rgba.withUnsafeBytes { pixels in
            guard let image = liq_image_create_rgba(attr, pixels.baseAddress!, Int32(width), Int32(height), 0)
            else { return LIQ_OUT_OF_MEMORY }
            defer { liq_image_destroy(image) }
            if ownMap, let map = importance ?? importanceMap(rgba: pixels, width: width, height: height, speed: speed) {
                // Copied: 2.17 frees a map it owns with its own allocator. It only reads
                // ours, so a map shared with the sample it came with is not copied first.
                let set = map.withUnsafeBufferPointer { map in
                    liq_image_set_importance_map(image, UnsafeMutablePointer(mutating: map.baseAddress!), map.count,
                                                 LIQ_COPY_PIXELS)
                }
                guard set == LIQ_OK else { return set }
            }
            return liq_histogram_add_image(histogram, attr, image)
        }
        guard added == LIQ_OK else { throw .quantizationFailed(reason: message(added)) }
    }

    /// The weights ``addImage(_:width:height:to:attr:speed:ownMap:importance:)`` gives
    /// `rgba`'s pixels at `speed`: its ``NoiseMap``, at the speeds where libimagequant
    /// makes one (1…7); nil where it makes none. A pure function of the pixels, so it
    /// can be made on any thread before the pixels are added in order.
    static func importanceMap(rgba: UnsafeRawBufferPointer, width: Int, height: Int, speed: Int) -> [UInt8]? {
        speed <= 7 ? NoiseMap.of(rgba: rgba, width: width, height: height) : nil
    }

    /// Remaps `rgba` with `result`'s palette; the palette as refined by remapping.
    private static func remap(rgba: [UInt8], width: Int, height: Int, attr: OpaquePointer, result: OpaquePointer,
                              dithering: Double) throws(EncodeError) -> (palette: [Entry], indices: [UInt8]) {
        var indices = [UInt8](repeating: 0, count: width * height)
        let status: liq_error = rgba.withUnsafeBytes { pixels in
            guard let image = liq_image_create_rgba(attr, pixels.baseAddress!, Int32(width), Int32(height), 0)
            else { return LIQ_OUT_OF_MEMORY }
            defer { liq_image_destroy(image) }
            let dithered = liq_set_dithering_level(result, Float(dithering))
            guard dithered == LIQ_OK else { return dithered }
            return indices.withUnsafeMutableBytes { out in
                liq_write_remapped_image(result, image, out.baseAddress!, out.count)
            }
        }
        guard status == LIQ_OK else { throw .quantizationFailed(reason: message(status)) }
        // Read after remapping: remapping refines the palette (a last K-means pass).
        return (entries(liq_get_palette(result)), indices)
    }

    /// A result whose palette is exactly `fixed`, from a histogram of just those colours:
    /// much cheaper than analysing the image when the palette is known.
    private static func fixedPaletteResult(_ fixed: [Entry], attr: OpaquePointer,
                                           _ result: inout OpaquePointer?) -> liq_error {
        guard let histogram = liq_histogram_create(attr) else { return LIQ_OUT_OF_MEMORY }
        defer { liq_histogram_destroy(histogram) }
        for entry in fixed {
            let added = liq_histogram_add_fixed_color(histogram, liq_color(r: entry.r, g: entry.g, b: entry.b, a: entry.a), 0)
            guard added == LIQ_OK else { return added }
        }
        // libimagequant refuses a histogram that never saw any colours (bitmap not
        // available), so the palette's colours also go in as ordinary entries.
        let entries = fixed.map { liq_histogram_entry(color: liq_color(r: $0.r, g: $0.g, b: $0.b, a: $0.a), count: 1) }
        let added = liq_histogram_add_colors(histogram, attr, entries, Int32(entries.count), 0)
        guard added == LIQ_OK else { return added }
        return liq_histogram_quantize(histogram, attr, &result)
    }

    private static func makeAttributes(_ settings: Settings) -> OpaquePointer? {
        guard let attr = liq_attr_create() else { return nil }
        // Values were validated by GIFOptions; these calls only fail on out-of-range values.
        _ = liq_set_max_colors(attr, Int32(settings.maxColors))
        _ = liq_set_speed(attr, Int32(settings.speed))
        _ = liq_set_quality(attr, 0, Int32(settings.quality))  // minimum 0: never fail a frame
        liq_set_last_index_transparent(attr, 1)
        return attr
    }

    private static func entries(_ palette: UnsafePointer<liq_palette>?) -> [Entry] {
        guard let palette else { return [] }
        let count = Int(palette.pointee.count)
        return withUnsafeBytes(of: palette.pointee.entries) { raw in
            let colors = raw.bindMemory(to: liq_color.self)
            return (0..<min(count, colors.count)).map { Entry(r: colors[$0].r, g: colors[$0].g, b: colors[$0].b, a: colors[$0].a) }
        }
    }

    private static func distance(_ p: Entry, _ q: Entry) -> Int {
        func d(_ x: UInt8, _ y: UInt8) -> Int { (Int(x) - Int(y)) * (Int(x) - Int(y)) }
        return d(p.r, q.r) + d(p.g, q.g) + d(p.b, q.b) + 4 * d(p.a, q.a)
    }

    private static func message(_ error: liq_error) -> String {
        switch error {
        case LIQ_QUALITY_TOO_LOW: "quality too low"
        case LIQ_VALUE_OUT_OF_RANGE: "value out of range"
        case LIQ_OUT_OF_MEMORY: "out of memory"
        case LIQ_ABORTED: "aborted"
        case LIQ_BITMAP_NOT_AVAILABLE: "bitmap not available"
        case LIQ_BUFFER_TOO_SMALL: "buffer too small"
        case LIQ_INVALID_POINTER: "invalid pointer"
        case LIQ_UNSUPPORTED: "unsupported"
        default: "error \(error.rawValue)"
        }
    }

    /// `omp_set_num_threads`, if the loaded libimagequant brought OpenMP with it
    /// (looked up at run time: builds without OpenMP are single-threaded anyway).
    private static let setOpenMPThreads: (@convention(c) (Int32) -> Void)? = {
        guard let symbol = dlsym(nil, "omp_set_num_threads") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Void).self)
    }()

    /// OpenMP's thread count is per calling thread, so this runs before each use.
    private static func singleThreadedOpenMP() {
        setOpenMPThreads?(1)
    }
}
