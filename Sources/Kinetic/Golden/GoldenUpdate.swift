import Foundation
import KineticEncode
import KineticFiles
import KineticGeometry
import KineticScene

/// `golden update`: a scene's goldens re-blessed, each file said with how it changed.
package enum GoldenUpdate {
    /// Writes the goldens of `rendered` (each file atomically, one left alone when its
    /// bytes are unchanged) and says for each whether it is new, unchanged, or changed and
    /// by how much; golden files no longer wanted are said, not deleted.
    ///
    /// - Throws: The error of a golden that cannot be written.
    package static func write(_ rendered: RenderedGoldens, say: (String) -> Void) throws {
        try FileManager.default.createDirectory(atPath: rendered.folder, withIntermediateDirectories: true)
        for picture in rendered.pictures {
            let file = rendered.path(picture.file)
            let bytes = try PNGWriter.encode(picture.image)
            let old = Self.oldBytes(file, root: rendered.root)
            let change = old.map { $0 == bytes ? nil : describeChange(picture.image, oldFile: file, root: rendered.root,
                                                                       spec: rendered.scene.golden) }
            try write(bytes, to: file, label: "\(rendered.name) \(picture.name)", change: change, say: say)
        }
        if let state = rendered.state {
            let file = rendered.path(StateTable.fileName)
            let text = state.encoded()
            let change = Self.oldBytes(file, root: rendered.root).map { old -> String? in
                if String(decoding: old, as: UTF8.self) == text { return nil }
                switch StateTable.read(file, root: rendered.root) {
                case .success(let golden?):
                    if let d = state.difference(from: golden) { return "changed: \(d.description)" }
                    let added = state.newKeys(since: golden).count
                    return "changed within tolerance" + (added > 0 ? ", \(added) new keys" : "")
                case .success(nil), .failure: return "changed (the old file was not a readable state file)"
                }
            }
            try write(Array(text.utf8), to: file, label: "\(rendered.name) state", change: change, say: say)
        }
        reportStale(rendered, say: say)
    }

    /// Writes a golden file; `change` is nil for an existing file left as it is, and
    /// how it changed otherwise (no file: new).
    private static func write(_ bytes: [UInt8], to file: String, label: String, change: String??,
                              say: (String) -> Void) throws {
        switch change {
        case .some(nil):
            say("\(label)  unchanged")
        case .some(let how?):
            try AtomicFile.write(bytes, to: file)
            say("\(label)  \(how)  → \(file)")
        case nil:
            try AtomicFile.write(bytes, to: file)
            say("\(label)  new  → \(file)")
        }
    }

    /// Lists golden files of the folder the scene no longer has.
    private static func reportStale(_ rendered: RenderedGoldens, say: (String) -> Void) {
        var kept = Set(rendered.pictures.map(\.file))
        if rendered.state != nil { kept.insert(StateTable.fileName) }
        let present = (try? FileManager.default.contentsOfDirectory(atPath: rendered.folder)) ?? []
        for stale in present.sorted() where !kept.contains(stale) {
            let golden = (stale.hasPrefix("frame-") && stale.hasSuffix(".png")) || stale == GoldenFrames.filmstripFileName
                || stale == StateTable.fileName
            if golden { say("\(rendered.name) \(stale)  stale: no longer a golden (delete it if it is not needed)") }
        }
    }

    /// The bytes of the golden file `file` replaces: nil when there is none; empty when
    /// it cannot be read (a corrupt golden, a FIFO, a file over the limit) — then it
    /// is written over (re-blessing always works), or refused by the writer if it is
    /// not a regular file.
    package static func oldBytes(_ file: String, root: String?) -> [UInt8]? {
        guard GuardedFile.kind(of: file, followingLinks: false) != nil else { return nil }
        return (try? GuardedFile.read(file, maxBytes: GoldenFrames.maxFileBytes, root: root)) ?? []
    }

    /// How the new frame differs from the golden image it replaces.
    private static func describeChange(_ image: PixelImage, oldFile: String, root: String?, spec: GoldenSpec) -> String {
        switch GoldenFrames.read(oldFile, root: root) {
        case .failure, .success(nil): return "changed (the old file was not a readable PNG)"
        case .success(let old?):
            switch GoldenFrames.judge(image, against: old, spec: spec) {
            case .match(let d): return "changed, within tolerance: \(GoldenFrames.describe(d))"
            case .mismatch(let d): return "changed, over tolerance: \(GoldenFrames.describe(d))"
            case .sizeMismatch(let error): return "changed size: \(error)"
            case .missing, .unreadable: return "changed"
            }
        }
    }
}
