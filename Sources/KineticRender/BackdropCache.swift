import Foundation
import KineticCairo

/// Blurred backdrops (`backgroundFilters`), kept from frame to frame.
///
/// A blur view over content that holds still — the screen under a sliding menu — blurs
/// the same pixels every frame; its downsampling and blur were most of gooey-slide-menu's
/// drawing. An entry is found by everything the blur reads: the whole target surface it
/// samples (pixels and layout), the rectangle sampled with its raster scale, and σ. Equal
/// keys give byte-identical pixels, so a hit draws exactly what a miss would, whichever
/// thread filled the entry.
///
/// Shared by the frames of one scene (one `Renderer`); bounded in bytes (a key holds a
/// copy of its target) and entries, the least recently used going first.
public final class BackdropCache: Sendable {
    struct Key: Equatable, Sendable {
        // The cheap field first: the synthesized == stops at the first difference.
        /// The sampled rectangle in raster pixels (left, top, width, height), raster
        /// pixels a device unit, and σ in device pixels.
        var region: [Double]
        var target: SurfaceSnapshot
    }

    private let entries: RecentlyUsed<Key, Raster>

    /// `capacityBytes`: memory the keys' targets and the blurred rasters may hold (32 MB
    /// by default: a few full frames of a phone screen at 2×).
    public init(capacityBytes: Int = 32 << 20, capacityEntries: Int = 4) {
        entries = RecentlyUsed(capacityBytes: capacityBytes, capacityEntries: capacityEntries)
    }

    /// The blurred backdrop of `region` (``Key/region``) sampled from `target`, made by
    /// `make` (outside the lock) when missing. A target that is no image, or too large
    /// for half the budget, is not copied into a key (a huge canvas would double its
    /// memory every frame): its backdrop is made anew.
    func raster(sampling target: CairoSurface, region: [Double], make: () -> Raster) -> Raster {
        guard let snapshot = target.snapshot(maxBytes: entries.capacityBytes / 2) else { return make() }
        return entries.value(for: Key(region: region, target: snapshot), size: { snapshot.bytes.count + $0.bytes.count },
                             make: make)
    }

    /// How many entries are held (tests).
    var count: Int { entries.count }
}
