import Foundation
import KineticLayers

/// Flat renderings of projected (3D) layers, kept from frame to frame.
///
/// Core Animation rasterizes a layer's content once and recomposites it while only its
/// transform animates; this is the same economy for our projected layers. A card tilting
/// in perspective is drawn flat — gradient, mask, text, shadow blur — on its first frame,
/// and every later frame only resamples that image through the new 4×4.
///
/// An entry is found by everything the flat image depends on: the layer with its place
/// in the superlayer neutralized (`position`, `transform`, `zPosition`, which only move the
/// image), its group opacity, and the raster scale. Equal keys give byte-identical
/// images, so a hit draws exactly what a miss would, and frames rendered on several
/// threads stay deterministic whichever thread filled the entry.
///
/// Shared by the frames of one scene (one `Renderer`); bounded by `capacityBytes`, the
/// least recently used entries going first.
public final class FlatRasterCache: Sendable {
    struct Key: Equatable {
        var layer: Layer
        var opacity: Double
        var scale: Double

        init(layer: Layer, opacity: Double, scale: Double) {
            var flat = layer
            flat.position = .zero
            flat.transform = .identity
            flat.zPosition = 0
            // Names do not draw: replicator copies differing only in place share an entry.
            flat.id = nil
            flat.place = ""
            self.layer = flat; self.opacity = opacity; self.scale = scale
        }
    }

    /// A flat rendering and the extra resolution factor `rasterize` chose (below 1 when
    /// the image would have exceeded its budget); nil `raster` when nothing has ink.
    struct Entry {
        var raster: Raster?
        var extra: Double
    }

    private let entries: RecentlyUsed<Key, Entry>

    /// `capacityBytes`: pixel memory the cache may hold (64 MB by default: four flat
    /// images at the 2048² budget).
    public init(capacityBytes: Int = 64 << 20, capacityEntries: Int = 32) {
        entries = RecentlyUsed(capacityBytes: capacityBytes, capacityEntries: capacityEntries)
    }

    /// The entry for `key`, made by `make` (outside the lock) when missing.
    func entry(for key: Key, make: () -> Entry) -> Entry {
        entries.value(for: key, size: { $0.raster?.bytes.count ?? 0 }, make: make)
    }

    /// How many entries are held (tests).
    var count: Int { entries.count }
}
