import KineticGeometry

/// One opaque palette entry of a GIF colour table.
public struct GIFColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red; self.green = green; self.blue = blue
    }
}

/// A palette shared by every frame of a GIF (written once as the global colour table).
public struct GIFPalette: Hashable, Sendable {
    /// At most 255 colours: index 255 stays reserved for transparency.
    public let colors: [GIFColor]

    /// Whether the palette was made for a scene of few colours, from every frame's exact
    /// colours (``GIFPaletteBuilder``). Its frames are remapped without dithering unless
    /// a level is asked for (``AnimationSettings/dithering``): the table holds the flat
    /// fills and the edge shades that err most, and dithering only scatters the error
    /// of a one-pixel antialiased edge into its neighbours. On the gallery's 49 scenes
    /// of few colours at scale 2, no dithering gave GIFs of 0.97–1.0002× the size at
    /// +0.00 to +0.25 dB (issue 15); without it, each colour is remapped once instead
    /// of each pixel (``ImageQuant/Remapper/remap(rgba:width:height:settings:asOneImage:)``).
    public let isOfFewColors: Bool

    /// - Throws: ``EncodeError/invalidOptions(reason:)`` unless there are 1…255 colours.
    public init(colors: [GIFColor], isOfFewColors: Bool = false) throws(EncodeError) {
        guard (1...255).contains(colors.count) else {
            throw .invalidOptions(reason: "a shared palette needs 1…255 colours, not \(colors.count)")
        }
        self.colors = colors
        self.isOfFewColors = isOfFewColors
        remapper = ImageQuant.Remapper(palette: colors.map { ImageQuant.Entry(r: $0.red, g: $0.green, b: $0.blue, a: 255) }
                                       + [ImageQuant.Entry(r: 0, g: 0, b: 0, a: 0)])
    }

    /// Remaps frames to these colours, the transparent one last (entry `colors.count`);
    /// made once for every frame (see ``ImageQuant/Remapper``).
    let remapper: ImageQuant.Remapper

    public static func == (a: GIFPalette, b: GIFPalette) -> Bool { a.colors == b.colors }
    public func hash(into hasher: inout Hasher) { hasher.combine(colors) }
}

/// How frames get their colours.
public enum GIFPaletteMode: Hashable, Sendable {
    /// Each frame gets the best colours for the part of it that changed (a local colour
    /// table): frames can be prepared independently. Transparent-background GIFs, whose
    /// frames are stored whole, use it.
    case perFrame
    /// Every frame is remapped to one palette, built beforehand from sample frames with
    /// ``GIFPaletteBuilder`` (what `render` and `encode` do for opaque scenes): no colour
    /// tables after the global one, one quantization instead of one a frame, and the
    /// same colour stays the same index from frame to frame, which LZW codes shorter.
    case shared(GIFPalette)
}

/// Settings of the GIF encoder.
public struct GIFOptions: Hashable, Sendable {
    /// Floyd–Steinberg dithering strength, 0 (none) … 1 (full), libimagequant's dithering
    /// level (`--dither`). The default 0.15: with one palette for the whole animation,
    /// dithering noise is most of what grows the file and what lowers PSNR, and 0.15 still
    /// breaks up the bands of slow gradients. On rope (issue 17), 0.5 gave 3.10 MB at
    /// 54.6 dB, 0.2 2.99 MB at 55.1 dB (0 2.96 MB at 55.1 dB, banded; ffmpeg 53.4 dB); with
    /// the palette built at libimagequant's speed 1, 0.2 gave 3.010 MB at 55.17 dB and 0.15
    /// 2.997 MB at 55.21 dB, and 0.15 was as small or smaller at equal or higher PSNR on
    /// the bench scene, flow-menu, snow and fireworks-button too. With a
    /// palette a frame, 0.5 had been chosen on the bench scene's first frame (96.6 kB at
    /// 49.8 dB, against 150.2 kB at 47.7 dB at 1.0).
    public var dithering: Double
    /// libimagequant's speed/quality trade-off, 1 (slowest, best palettes) … 10.
    /// The default 7 is the fastest setting that keeps full input precision: from 8 on,
    /// libimagequant drops the lowest bit of each channel before building the palette,
    /// which cost about 6 dB PSNR on a gradient-and-circles animation (54.7 dB at 7,
    /// 48.8 dB at 8); speeds ≤ 5 were several times slower for under 1 dB more.
    public var speed: Int
    /// libimagequant's target quality, 0…100 (100 = as close as 255 colours get): a frame
    /// uses only as many colours as reach it, and fewer colours compress better. There is
    /// no minimum: a frame that cannot reach the target still gets its best palette.
    public var quality: Int
    /// Per-frame or shared palettes.
    public var palette: GIFPaletteMode
    /// Colour table entries at most, 2…256 (`--colors`), the transparent index included:
    /// frames show at most `colors − 1` colours, and tables shrink to the power of two
    /// that holds them (16 colours: 4 bits a pixel before LZW).
    public var colors: Int
    /// The scene's background is not opaque: frames keep transparency (alpha < 128 becomes
    /// transparent), each frame replaces the previous one entirely. When false, frames are
    /// treated as opaque and only the changed part of each frame is stored.
    public var transparentBackground: Bool
    /// NETSCAPE2.0 loop count: 0 loops forever; n repeats the animation n more times.
    public var loopCount: Int
    /// Opaque output only: a changed pixel whose colour on screen (what earlier frames
    /// actually displayed) is within this many levels, in every channel, of its new colour
    /// is left transparent instead of being redrawn (0…255). Whatever the tolerance, a
    /// pixel is also left transparent when the displayed colour is no farther from its
    /// new colour (squared RGB distance) than the palette colour it would be redrawn
    /// with: redrawing it could only add error. ``GIFWriter`` compares against the
    /// displayed colour, never the previous source frame, so the error stays bounded
    /// however slowly a colour drifts.
    ///
    /// The default 0 loses nothing to skipping: tolerance 2 left up to 2 levels stale on
    /// every slowly changing pixel, MSE 0.13–0.23 a frame on flow-menu against 0.04 for
    /// ffmpeg's palettegen/paletteuse (issue 15).
    public var tolerance: Int

    public init(dithering: Double = 0.15, speed: Int = 7, quality: Int = 100,
                palette: GIFPaletteMode = .perFrame, transparentBackground: Bool = false,
                loopCount: Int = 0, tolerance: Int = 0, colors: Int = 256) {
        self.dithering = dithering; self.speed = speed; self.quality = quality; self.colors = colors
        self.palette = palette; self.transparentBackground = transparentBackground
        self.loopCount = loopCount; self.tolerance = tolerance
    }

    /// - Throws: ``EncodeError/invalidOptions(reason:)`` naming the first bad setting.
    public func validate() throws(EncodeError) {
        guard dithering >= 0, dithering <= 1 else {
            throw .invalidOptions(reason: "dithering \(dithering) is outside 0…1")
        }
        guard (1...10).contains(speed) else { throw .invalidOptions(reason: "speed \(speed) is outside 1…10") }
        guard (0...100).contains(quality) else {
            throw .invalidOptions(reason: "quality \(quality) is outside 0…100")
        }
        guard (0...65535).contains(loopCount) else {
            throw .invalidOptions(reason: "loop count \(loopCount) is outside 0…65535")
        }
        guard (0...255).contains(tolerance) else {
            throw .invalidOptions(reason: "tolerance \(tolerance) is outside 0…255")
        }
        guard (2...256).contains(colors) else { throw .invalidOptions(reason: "colors \(colors) is outside 2…256") }
        if case let .shared(palette) = palette, palette.colors.count >= colors {
            throw .invalidOptions(reason: "a shared palette of \(palette.colors.count) colours needs colors above that, not \(colors)")
        }
    }

    /// libimagequant's settings for these options (the transparent entry among `colors`).
    var quantizerSettings: ImageQuant.Settings {
        ImageQuant.Settings(maxColors: colors, speed: speed, quality: quality, dithering: dithering)
    }

    /// Exact palette entries for the flat colours of a frame or sample, at most 4, and
    /// fewer when the palette is small (libimagequant still needs room for the rest).
    var maximumFixedColors: Int { min(4, max(0, colors - 3)) }
}

/// A pixel rectangle of the GIF canvas.
public struct GIFRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Whether every pixel of `run` (at least one) is inside.
    func holds(_ run: PixelRun) -> Bool {
        let (rx, ry, count) = (Int(run.x), Int(run.y), Int(run.count))
        return count > 0 && ry >= y && ry < y + height && rx >= x && rx + count <= x + width
    }

    /// The smallest rectangle holding `runs`, nil for none.
    init?(bounding runs: [PixelRun]) {
        guard let first = runs.first else { return nil }
        var (left, top, right, bottom) = (Int(first.x), Int(first.y), Int(first.x) + Int(first.count), Int(first.y))
        for run in runs.dropFirst() {
            left = min(left, Int(run.x)); right = max(right, Int(run.x) + Int(run.count))
            top = min(top, Int(run.y)); bottom = max(bottom, Int(run.y))
        }
        self.init(x: left, y: top, width: right - left, height: bottom - top + 1)
    }
}

/// Where a frame differs from the frame before it, when whoever made the frames knows
/// (frames replayed from their changes), so that the GIF's frame differencing need not
/// compare the two frames again.
public enum FrameChange: Hashable, Sendable {
    /// Not known: the frames are compared.
    case unknown
    /// The runs of pixels outside which none differs, each from a differing pixel to a
    /// differing pixel, so that their bounds are the changed rectangle (none: the frames
    /// are the same).
    case runs([PixelRun])
}

/// `count` pixels of a row of a frame, from (`x`, `y`).
public struct PixelRun: Hashable, Sendable {
    public var y: Int32
    public var x: Int32
    public var count: Int32

    public init(y: Int32, x: Int32, count: Int32) {
        self.y = y; self.x = x; self.count = count
    }
}

/// What a decoder does with a frame's rectangle before drawing the next frame.
public enum GIFDisposal: Hashable, Sendable {
    /// Leave it on screen (DISPOSE_DO_NOT): the next frame draws over it.
    case doNotDispose
    /// Clear it to transparent (DISPOSE_BACKGROUND).
    case restoreToBackground
}

/// A frame ready to be written: colour indices for one rectangle of the canvas.
public struct PreparedGIFFrame: Hashable, Sendable {
    /// Pixels with this index are transparent: they show what is already on screen.
    public static let transparentIndex: UInt8 = 255

    /// The part of the canvas this frame draws.
    public var rect: GIFRect
    /// `rect.width × rect.height` palette indices, row by row.
    public var indices: [UInt8]
    /// The frame's own colours (at most 255), or nil to use the shared palette.
    public var localPalette: [GIFColor]?
    public var disposal: GIFDisposal
    /// The straight RGBA colours the indices stand for (4 bytes a pixel, like `indices`),
    /// for ``GIFWriter``'s near-unchanged skipping (see ``GIFOptions/tolerance``); nil
    /// writes the indices as they are.
    public var sourcePixels: [UInt8]?
    /// The rows of `rect` (from 0, ascending) whose colours ``sourcePixels`` holds, one
    /// after another, when not every row's (nil): the rows left out draw nothing, and a
    /// frame's source colours need not be written for them (a snowfall's rectangle is
    /// the canvas, three quarters of its rows unchanged; issue 42). A drawn pixel of a
    /// row left out counts as the colour (0, 0, 0, 0).
    public var sourceRows: [Int]?

    public init(rect: GIFRect, indices: [UInt8], localPalette: [GIFColor]?, disposal: GIFDisposal,
                sourcePixels: [UInt8]? = nil) {
        self.rect = rect; self.indices = indices; self.localPalette = localPalette; self.disposal = disposal
        self.sourcePixels = sourcePixels
    }
}

/// Frame delays for GIF's centisecond clock.
public enum GIFTiming {
    /// Browsers show delays below this (0 or 1 cs) as 10 cs, so frame rates above 50 fps
    /// play slowly; render at ≤ 50 fps for GIFs.
    public static let minimumBrowserDelay = 2

    /// Delay of each frame in centiseconds. Rounding is cumulative: frame `i` starts at
    /// `round(i × 100 / fps)` cs, so the delays add up to `round(frameCount × 100 / fps)`
    /// and no drift builds up (30 fps gives 3, 4, 3, 3, 4, 3, …; 50 fps exactly 2).
    /// Empty for a non-positive frame count or fps.
    public static func delays(frameCount: Int, fps: Double) -> [Int] {
        guard frameCount > 0, fps > 0, fps.isFinite else { return [] }
        func start(_ i: Int) -> Int { Int((Double(i) * 100 / fps).rounded()) }
        return (0..<frameCount).map { start($0 + 1) - start($0) }
    }
}

extension GIFPalette {
    /// The best ≤ `options.colors − 1` colours for `frames` together, for
    /// ``GIFPaletteMode/shared(_:)`` (``GIFPaletteBuilder`` with every frame added).
    /// - Throws: `.invalidImage` for no frames, `.quantizationFailed`.
    public static func make(from frames: [PixelImage], options: GIFOptions) throws(EncodeError) -> GIFPalette {
        let builder = try GIFPaletteBuilder(options: options)
        for frame in frames { try builder.add(GIFPaletteBuilder.sample(frame)) }
        return try builder.palette()
    }
}
