import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

/// Blurred shadow silhouettes, kept from frame to frame.
///
/// A layer that keeps its silhouette and its device map (up to a translation) casts the
/// same blurred shadow: a card sliding, or standing still while others move. An entry is
/// found by everything the silhouette depends on — the layer with what only places or
/// tints its shadow neutralized (position, anchor point, transform, opacity, the shadow's
/// color, opacity and offset, names), the device map without its whole-pixel
/// translation, and σ. Equal keys give byte-identical pixels, so a hit draws exactly what
/// a miss would, whichever thread filled the entry.
///
/// Shared by the frames of one scene (one `Renderer`); bounded in bytes and entries, the
/// least recently used going first.
public final class ShadowCache: Sendable {
    struct Key: Equatable {
        // The cheap fields first: the synthesized == stops at the first difference.
        var matrix: [Double]
        var sigma: Double
        var bounds: Rect
        var layer: Layer

        init(layer: Layer, matrix m: Affine, sigma: Double) {
            var flat = layer
            flat.position = .zero
            flat.anchorPoint = .zero
            flat.transform = .identity
            flat.zPosition = 0
            flat.opacity = 1
            flat.shadowColor = .black
            flat.shadowOpacity = 1
            flat.shadowOffset = Size(0, 0)
            // An opaque background's colour does not shape the silhouette, only its alpha
            // (a shadow path replaces it). What the sublayers add depends on geometry:
            // LayerRenderer drops them from the key where the background covers them.
            if flat.shadowPath == nil, let background = flat.backgroundColor, background.alpha >= 1 {
                flat.backgroundColor = .black
            }
            ShadowCache.unname(&flat)
            self.layer = flat
            bounds = layer.bounds
            matrix = [m.a, m.b, m.c, m.d, m.tx, m.ty]
            self.sigma = sigma
        }
    }

    /// Names do not draw: copies differing only in them (a card grid, replicator copies)
    /// share an entry.
    fileprivate static func unname(_ layer: inout Layer) {
        layer.id = nil
        layer.place = ""
        for i in layer.sublayers.indices { unname(&layer.sublayers[i]) }
        if var mask = layer.mask {
            unname(&mask)
            layer.mask = mask
        }
    }

    /// The largest silhouette kept, in pixels (a 1024² alpha image, 1 MB).
    static let maxEntryPixels = 1024 * 1024

    private let entries: RecentlyUsed<Key, ShadowPixels>

    public init(capacityBytes: Int = 32 << 20, capacityEntries: Int = 256) {
        entries = RecentlyUsed(capacityBytes: capacityBytes, capacityEntries: capacityEntries)
    }

    /// How many entries are held (tests).
    var count: Int { entries.count }

    /// The pixels stored for `key`, nil when there are none.
    func pixels(for key: Key) -> ShadowPixels? { entries.value(for: key) }

    /// Keeps `pixels` for `key`, dropping the least recently used entries beyond capacity.
    func store(_ pixels: ShadowPixels, for key: Key) { entries.store(pixels, size: pixels.bytes.count, for: key) }
}
