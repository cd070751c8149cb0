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
public final class FlatRasterCache: @unchecked Sendable {
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

    /// Guards `entries` and `bytes` (frames may render on several threads).
    private let lock = NSLock()
    /// Most recently used last.
    private var entries: [(key: Key, entry: Entry)] = []
    private var bytes = 0
    let capacityBytes: Int
    /// Bounds the deep comparisons a lookup makes.
    let capacityEntries: Int

    /// `capacityBytes`: pixel memory the cache may hold (64 MB by default: four flat
    /// images at the 2048² budget).
    public init(capacityBytes: Int = 64 << 20, capacityEntries: Int = 32) {
        self.capacityBytes = capacityBytes; self.capacityEntries = capacityEntries
    }

    /// The entry for `key`, made by `make` (outside the lock) when missing.
    func entry(for key: Key, make: () -> Entry) -> Entry {
        if let hit = lookUp(key) { return hit }
        let made = make()
        store(made, for: key)
        return made
    }

    /// How many entries are held (tests).
    var count: Int { lock.withLock { entries.count } }

    private func lookUp(_ key: Key) -> Entry? {
        lock.withLock {
            guard let i = entries.lastIndex(where: { $0.key == key }) else { return nil }
            let found = entries.remove(at: i)
            entries.append(found)
            return found.entry
        }
    }

    private func store(_ entry: Entry, for key: Key) {
        let size = entry.raster?.bytes.count ?? 0
        guard size <= capacityBytes else { return }
        lock.withLock {
            // Another thread may have made the same entry meanwhile: keep one.
            guard !entries.contains(where: { $0.key == key }) else { return }
            entries.append((key, entry))
            bytes += size
            while bytes > capacityBytes || entries.count > capacityEntries {
                bytes -= entries.removeFirst().entry.raster?.bytes.count ?? 0
            }
        }
    }
}
