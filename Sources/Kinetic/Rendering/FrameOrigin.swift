import Foundation
import KineticFiles
import KineticScene

/// Where a PNG frame comes from, written into every frame `render` writes to a folder
/// or pattern (a `tEXt` chunk, keyword `kinetic`): the scene's identity, its frame rate
/// and frame count. Shards rendered on other machines carry it along with their pixels,
/// so `encode` needs no `--fps` and refuses frames of different scenes.
package struct FrameOrigin: Equatable {
    /// 16 hex digits: FNV-1a of the scene file's bytes and the settings that shape its
    /// frames (size, scale, fps, duration).
    package var scene: String
    package var fps: Double
    package var frameCount: Int

    /// `scene=0123456789abcdef fps=50.0 frames=25`.
    package var text: String { "scene=\(scene) fps=\(fps) frames=\(frameCount)" }

    package init(scene: String, fps: Double, frameCount: Int) {
        self.scene = scene
        self.fps = fps
        self.frameCount = frameCount
    }

    /// The origin of `scene`'s frames.
    package init(of scene: KineticScene.Scene) {
        let s = scene.settings
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) { for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 } }
        if let file = scene.sourceMap?.file, let bytes = try? GuardedFile.read(file, maxBytes: 1 << 30) { mix(bytes) }
        mix("\(s.size.width) \(s.size.height) \(s.scale) \(s.fps) \(s.duration)".utf8)
        let hex = String(hash, radix: 16)
        self.init(scene: String(repeating: "0", count: 16 - hex.count) + hex, fps: s.fps, frameCount: scene.frameCount)
    }

    /// Reads ``text``; nil for anything else (a hand-made PNG's chunk, a hostile one).
    package init?(text: String) {
        var fields: [Substring: Substring] = [:]
        for part in text.split(separator: " ") {
            guard let eq = part.firstIndex(of: "=") else { return nil }
            fields[part[..<eq]] = part[part.index(after: eq)...]
        }
        guard let scene = fields["scene"], scene.count == 16, scene.allSatisfy(\.isHexDigit),
              let fps = fields["fps"].flatMap({ Double($0) }), fps.isFinite, fps > 0,
              let frames = fields["frames"], frames.count <= 9, let count = Int(frames), count > 0 else { return nil }
        self.init(scene: String(scene), fps: fps, frameCount: count)
    }
}
