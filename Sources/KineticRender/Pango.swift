import CPango
import Foundation
import KineticCairo
import KineticGeometry

// The thin wrapper over Pango (pangocairo): every pango_* call of the renderer lives in
// this file. Pango's default font map is per thread, so layouts made on different
// threads share nothing mutable.

/// How a paragraph's lines sit in the layout width.
enum TextLineAlignment {
    case left, center, right
}

/// Where Pango's ellipsis replaces text that does not fit (PangoEllipsizeMode).
enum TextEllipsis {
    case start, middle, end
}

/// One laid-out paragraph of text (an owned PangoLayout) bound to a Cairo context.
final class PangoTextLayout {
    private let raw: OpaquePointer

    /// Lays `text` out for drawing on `context`.
    /// - Parameters:
    ///   - font: the family, weight and slant to look for.
    ///   - size: the font size in the context's user units (points).
    ///   - wrapWidth: wrap at word boundaries to this width; nil keeps each paragraph on one line.
    ///   - justify: stretch wrapped lines to the full width (all but the last of a paragraph).
    ///   - followsWritingDirection: mirror the alignment for right-to-left paragraphs
    ///     (CATextLayer's `natural`).
    ///   - ellipsis: cut what does not fit `box` with an ellipsis: each line at the box's
    ///     width, or, when wrapping, the last line that fits its height.
    init(context: CairoContext, text: String, font: FontName, size: Double,
         wrapWidth: Double?, alignment: TextLineAlignment, justify: Bool,
         followsWritingDirection: Bool = false, ellipsis: (mode: TextEllipsis, box: Size)? = nil) {
        context.disableFontHinting()
        raw = pango_cairo_create_layout(context.raw)
        let description = pango_font_description_new()
        pango_font_description_set_family(description, font.family ?? "sans")
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(font.weight)))
        switch font.slant {
        case .upright: pango_font_description_set_style(description, PANGO_STYLE_NORMAL)
        case .italic: pango_font_description_set_style(description, PANGO_STYLE_ITALIC)
        case .oblique: pango_font_description_set_style(description, PANGO_STYLE_OBLIQUE)
        }
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(raw, description)
        pango_font_description_free(description)
        if let wrapWidth {
            pango_layout_set_width(raw, Int32(max(0, wrapWidth) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(raw, PANGO_WRAP_WORD_CHAR)
        } else {
            pango_layout_set_width(raw, -1)
        }
        switch alignment {
        case .left: pango_layout_set_alignment(raw, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(raw, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(raw, PANGO_ALIGN_RIGHT)
        }
        if let (mode, box) = ellipsis {
            pango_layout_set_width(raw, Int32(min(max(0, box.width), 1e6) * Double(PANGO_SCALE)))
            if wrapWidth != nil { pango_layout_set_height(raw, Int32(min(max(0, box.height), 1e6) * Double(PANGO_SCALE))) }
            switch mode {
            case .start: pango_layout_set_ellipsize(raw, PANGO_ELLIPSIZE_START)
            case .middle: pango_layout_set_ellipsize(raw, PANGO_ELLIPSIZE_MIDDLE)
            case .end: pango_layout_set_ellipsize(raw, PANGO_ELLIPSIZE_END)
            }
        }
        pango_layout_set_justify(raw, justify ? 1 : 0)
        pango_layout_set_auto_dir(raw, followsWritingDirection ? 1 : 0)
        pango_layout_set_text(raw, text, -1)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(raw)) }

    /// The logical extent of the laid-out text in user units.
    var size: Size {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(raw, &ink, &logical)
        return Size(Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
    }

    /// Whether an ellipsis replaced some of the text.
    var isEllipsized: Bool { pango_layout_is_ellipsized(raw) != 0 }

    /// The family Pango draws the layout's font with (fontconfig's best match for it).
    var resolvedFamily: String? {
        guard let context = pango_layout_get_context(raw),
              let font = pango_context_load_font(context, pango_layout_get_font_description(raw)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        guard let description = pango_font_describe(font) else { return nil }
        defer { pango_font_description_free(description) }
        return pango_font_description_get_family(description).map { String(cString: $0) }
    }

    /// Adds the layout's glyph outlines to the context's path, its top-left at `origin`.
    func appendPath(in context: CairoContext, at origin: Point) {
        context.move(to: origin)
        pango_cairo_layout_path(context.raw, raw)
    }

    /// Adds the layout's glyph outlines to the context's path, its top-left at `origin`,
    /// each glyph's origin (its pen position, in the context's user space) moved where
    /// `place` puts it. Returns false, adding nothing, when a glyph has no outline to place
    /// (a missing glyph, which Pango draws as a hex box); `appendPath(in:at:)` draws those.
    /// Colour bitmap glyphs (an emoji font's PNG strikes) have no outline, only a box
    /// Cairo would trace: they are left out of the path and handed to `colorGlyphs`.
    func appendPath(in context: CairoContext, at origin: Point, placingGlyphs place: (Point) -> Point,
                    colorGlyphs: ((PlacedColorGlyph) -> Void)? = nil) -> Bool {
        guard let iter = pango_layout_get_iter(raw) else { return false }
        defer { pango_layout_iter_free(iter) }
        // Pango's PANGO_GLYPH_EMPTY and PANGO_GLYPH_UNKNOWN_FLAG (casts Swift does not import).
        let empty: PangoGlyph = 0x0FFF_FFFF, unknown: PangoGlyph = 0x1000_0000
        var runs: [(font: UnsafeMutablePointer<PangoFont>, glyphs: [cairo_glyph_t])] = []
        repeat {
            // A line's end has no run.
            guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
                  let string = run.pointee.glyphs, let font = item.pointee.analysis.font else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_run_extents(iter, nil, &logical)
            // A run's own baseline shift (Pango 1.50 aligns a fallback font's run, an
            // emoji's, on the line's baseline this way), up as the renderer draws it.
            let baseline = Double(pango_layout_iter_get_baseline(iter) - run.pointee.y_offset) / Double(PANGO_SCALE)
            var pen = Double(logical.x) / Double(PANGO_SCALE)
            var glyphs: [cairo_glyph_t] = []
            for k in 0..<Int(string.pointee.num_glyphs) {
                let info = string.pointee.glyphs[k]
                defer { pen += Double(info.geometry.width) / Double(PANGO_SCALE) }
                if info.glyph == empty { continue }
                if info.glyph & unknown != 0 { return false }
                let laid = Point(origin.x + pen + Double(info.geometry.x_offset) / Double(PANGO_SCALE),
                                 origin.y + baseline + Double(info.geometry.y_offset) / Double(PANGO_SCALE))
                if let colorGlyphs, Self.isColorBitmap(info.glyph, of: font) {
                    // Unplaced: Cairo rounds a bitmap's corner, not the glyph's origin.
                    colorGlyphs(PlacedColorGlyph(font: OpaquePointer(font), glyph: cairo_glyph_t(index: UInt(info.glyph), x: laid.x, y: laid.y)))
                    continue
                }
                let at = place(laid)
                glyphs.append(cairo_glyph_t(index: UInt(info.glyph), x: at.x, y: at.y))
            }
            runs.append((font, glyphs))
        } while pango_layout_iter_next_run(iter) != 0
        for (font, glyphs) in runs where !glyphs.isEmpty {
            guard let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font))
            else { return false }
            cairo_set_scaled_font(context.raw, scaled)
            glyphs.withUnsafeBufferPointer { cairo_glyph_path(context.raw, $0.baseAddress, Int32($0.count)) }
        }
        // Where pango_cairo_layout_path leaves the current point.
        context.move(to: origin)
        return true
    }

    /// Whether `glyph` of `font` is drawn from a colour bitmap (a CBDT or sbix PNG, as
    /// Noto Color Emoji's are), read from the font's own tables through HarfBuzz.
    private static func isColorBitmap(_ glyph: PangoGlyph, of font: UnsafeMutablePointer<PangoFont>) -> Bool {
        guard let hb = pango_font_get_hb_font(font), hb_ot_color_has_png(hb_font_get_face(hb)) != 0,
              let blob = hb_ot_color_glyph_reference_png(hb, glyph) else { return false }
        defer { hb_blob_destroy(blob) }
        return hb_blob_get_length(blob) > 0
    }

    /// Draws the layout with its top-left at `origin`, in the context's current source.
    func show(in context: CairoContext, at origin: Point) {
        context.move(to: origin)
        pango_cairo_show_layout(context.raw, raw)
    }
}

/// A colour bitmap glyph as a layout lays it out: its font (borrowed from the layout, valid
/// while the layout lives) and its glyph at its origin in user space, as Pango lays it
/// out (Cairo draws a bitmap glyph from there, its corner rounded to a whole pixel).
struct PlacedColorGlyph {
    fileprivate let font: OpaquePointer
    fileprivate let glyph: cairo_glyph_t

    /// Its ink box in the context's user space (where Cairo's image backend puts pixels).
    func inkExtents(in context: CairoContext) -> Rect {
        guard let scaled = pango_cairo_font_get_scaled_font(font) else { return Rect(0, 0, 0, 0) }
        cairo_set_scaled_font(context.raw, scaled)
        var extents = cairo_text_extents_t()
        var g = glyph
        cairo_glyph_extents(context.raw, &g, 1, &extents)
        return Rect(glyph.x + extents.x_bearing, glyph.y + extents.y_bearing, extents.width, extents.height)
    }

    /// Draws it in the context's current source, as `show(in:at:)` draws it.
    func show(in context: CairoContext) {
        guard let scaled = pango_cairo_font_get_scaled_font(font) else { return }
        cairo_set_scaled_font(context.raw, scaled)
        var g = glyph
        cairo_show_glyphs(context.raw, &g, 1)
    }
}

/// Font files scenes name, added to fontconfig's current configuration (the one Pango's
/// font maps read), and the fonts already checked for falling back. Shared by every
/// thread, behind a lock.
final class PangoFonts: @unchecked Sendable {
    static let shared = PangoFonts()
    private let lock = NSLock()
    private var families: [String: String?] = [:]
    /// Counts the files added: a thread's font map made before the last one is refreshed.
    private var generation = 0
    private var checked: Set<String> = []

    /// The family of the font file at `path` (its first face), the file added to
    /// fontconfig first; nil when it holds no font FreeType reads.
    func family(ofFile path: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let known = families[path] { return known }
        let family: String? = path.withCString { cPath in
            cPath.withMemoryRebound(to: FcChar8.self, capacity: path.utf8.count + 1) { file -> String? in
                var count: Int32 = 0
                guard let pattern = FcFreeTypeQuery(file, 0, nil, &count) else { return nil }
                defer { FcPatternDestroy(pattern) }
                var name: UnsafeMutablePointer<FcChar8>? = nil
                guard FcPatternGetString(pattern, "family", 0, &name) == FcResultMatch, let name,
                      FcConfigAppFontAddFile(nil, file) != 0 else { return nil }
                return String(cString: name)
            }
        }
        families[path] = family
        if family != nil { generation += 1 }
        return family
    }

    /// Makes this thread's font map (Pango keeps one a thread) see the files added since
    /// it last looked.
    func refreshThreadFontMap() {
        lock.lock()
        let current = generation
        lock.unlock()
        guard current > 0 else { return }
        let key = "kinetic.fontGeneration", dictionary = Thread.current.threadDictionary
        guard dictionary[key] as? Int != current else { return }
        if let map = pango_cairo_font_map_get_default() {
            pango_fc_font_map_config_changed(OpaquePointer(map))
        }
        dictionary[key] = current
    }

    /// Whether `requested` was already checked; marks it checked.
    func firstCheck(of requested: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return checked.insert(requested).inserted
    }
}
