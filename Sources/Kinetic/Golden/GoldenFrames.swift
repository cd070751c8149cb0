import Foundation
import KineticFiles
import KineticEncode
import KineticGeometry
import KineticRender
import KineticScene

/// Where a scene's golden frames live, which frames they are, and how a rendered frame
/// is judged against its golden image (section 8 of the scene format).
package enum GoldenFrames {
    /// The golden folder of the scene at `scenePath`: `GOLDEN_DIR/NAME` when a golden
    /// folder is given, else `golden/NAME` beside the scene's folder
    /// (`scenes/NAME.yaml` → `golden/NAME`).
    package static func folder(forScene scenePath: String, goldenDir: String?) -> String {
        join(root(forScene: scenePath, goldenDir: goldenDir), sceneName(scenePath))
    }

    /// The folder every golden of a scene must resolve inside: `--golden-dir`, or the
    /// project's `golden/`. Goldens arrive in pull requests: a `golden/NAME` that is a
    /// symbolic link leading out is refused (unless `--allow-any-path`), for reading and
    /// for `golden update`, which would otherwise write wherever the link points.
    package static func root(forScene scenePath: String, goldenDir: String?) -> String {
        if let goldenDir { return goldenDir }
        let sceneFolder = (scenePath as NSString).deletingLastPathComponent
        let project = (sceneFolder as NSString).deletingLastPathComponent
        return join(project, "golden")
    }

    /// Why `folder` (or, before the first update, `root` itself) does not resolve inside
    /// `root` — a link leading out; nil when it does, or does not exist yet.
    package static func linkProblem(folder: String, root: String) -> String? {
        let existing = GuardedFile.kind(of: folder) != nil ? folder : root
        guard GuardedFile.kind(of: existing) != nil else { return nil }
        do { try GuardedFile.checkInside(existing, root: root) } catch { return error.reason }
        return nil
    }

    /// The largest golden file read (bytes): a golden PNG or state file far past any scene's.
    package static let maxFileBytes = 256 << 20

    /// The scene file's name without its extension.
    package static func sceneName(_ scenePath: String) -> String {
        ((scenePath as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// `frame-NNNN.png`, the index zero-padded to four digits.
    package static func fileName(frame: Int) -> String {
        OutputTarget.fileName(pattern: "frame-%04d.png", index: frame)
    }

    /// `folder/name`, or `name` alone when the folder is empty.
    package static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    /// The golden frames of `scene`: those `golden.frames` lists, else frames spread over
    /// the timeline (``spread(_:)``). Listed indices past the end are returned in
    /// `outOfRange`.
    package static func indices(_ scene: KineticScene.Scene) -> (frames: [Int], outOfRange: [Int]) {
        guard let listed = scene.golden.frames else { return (spread(scene), []) }
        return indices(listed, frameCount: scene.frameCount)
    }

    /// The listed frame indices in ascending order without repeats (`last` is
    /// `frameCount − 1`). Indices past the end are returned in `outOfRange`.
    package static func indices(_ listed: [GoldenSpec.FrameRef], frameCount: Int) -> (frames: [Int], outOfRange: [Int]) {
        let all = listed.map { ref -> Int in
            switch ref {
            case .index(let i): i
            case .last: frameCount - 1
            }
        }
        let unique = Set(all).sorted()
        return (unique.filter { $0 >= 0 && $0 < frameCount }, unique.filter { $0 < 0 || $0 >= frameCount })
    }

    /// At most this many even steps over the timeline (beyond it the state golden, which
    /// holds every frame, is what sees a shorter animation).
    package static let maxSpreadSteps = 32

    /// The golden frames of a scene without `golden.frames` (docs/golden.md): the first
    /// and last frames; the frame where each animation of `animations:` and of the
    /// behaviors begins and the first frame after it ends; each `at:` event's frame; and
    /// frames evenly spread, no further apart than the shortest forward pass of any
    /// animation (events' included) nor a quarter of the timeline (nor closer than
    /// 1/``maxSpreadSteps`` of it), so no animation can start and end between two of them
    /// unseen.
    package static func spread(_ scene: KineticScene.Scene) -> [Int] {
        let last = scene.frameCount - 1
        guard last > 0 else { return [0] }
        let fps = scene.settings.fps
        /// The first frame showing time `t` or later; nil outside the timeline.
        func frame(from t: Double) -> Int? {
            guard t.isFinite else { return nil }
            let f = (t * fps - 1e-6).rounded(.up)
            return f >= 0 && f <= Double(last) ? Int(f) : nil
        }
        var frames: Set<Int> = [0, last]
        var timings = scene.animations.map(\.timing) + scene.behaviorAnimations.map(\.spec.timing)
        for t in timings {
            for time in [t.beginTime, t.endTime] { if let f = frame(from: time) { frames.insert(f) } }
        }
        for event in scene.events {
            if case .time(let t) = event.trigger, let f = frame(from: t) { frames.insert(f) }
            for action in event.actions {
                if case .animate(let spec, _) = action.kind { timings.append(spec.timing) }
            }
        }
        // The shortest forward pass, in frames: any span that long holds a spread frame.
        let passes = timings.filter { $0.speed > 0 && $0.duration > 0 }.map { $0.duration / $0.speed * fps }
        let step = max(Double(last) / Double(maxSpreadSteps), min(Double(last) / 4, passes.min() ?? .infinity))
        // Whole frames: rounded spread frames are then at most `floor(step)` apart.
        let count = Int((Double(last) / max(1, step.rounded(.down))).rounded(.up))
        for i in 0...count { frames.insert(Int((Double(i) * Double(last) / Double(count)).rounded())) }
        return frames.sorted()
    }

    /// How a rendered frame stands against its golden image.
    package enum Verdict {
        /// Within the tolerance.
        case match(ImageDifference)
        /// More pixels than `pixelTolerance` differ by more than `channelTolerance`.
        case mismatch(ImageDifference)
        /// The golden image has another size.
        case sizeMismatch(ImageSizeMismatch)
        /// No golden image at the path.
        case missing
        /// A file is there but is not a readable PNG.
        case unreadable(EncodeError)

        package var isMatch: Bool {
            if case .match = self { true } else { false }
        }
    }

    /// Judges `actual` against `expected` (nil when there is no golden file) under the
    /// scene's tolerance. A frame matches when the share of differing pixels is at most
    /// `pixelTolerance`.
    package static func judge(_ actual: PixelImage, against expected: PixelImage?, spec: GoldenSpec) -> Verdict {
        guard let expected else { return .missing }
        do {
            let difference = try ImageComparison.compare(actual, expected, channelTolerance: spec.channelTolerance)
            return difference.differingShare > spec.pixelTolerance ? .mismatch(difference) : .match(difference)
        } catch {
            return .sizeMismatch(error)
        }
    }

    /// Reads the golden image at `path`: nil when there is no file, an error when the
    /// file is not a readable PNG.
    /// The golden image at `path` (nil when there is none), through the guarded reader:
    /// inside `root` when one is given, a regular file, its chunks walked first.
    package static func read(_ path: String, root: String? = nil) -> Result<PixelImage?, EncodeError> {
        guard GuardedFile.kind(of: path, followingLinks: false) != nil else { return .success(nil) }
        do { return .success(try PNGReader.read(path, maxBytes: maxFileBytes, root: root)) } catch { return .failure(error) }
    }

    /// A difference as the report prints it: `differing 0.120 %  max Δ 14  SSIM 0.9987`.
    package static func describe(_ d: ImageDifference) -> String {
        String(format: "differing %.3f %%  max Δ %d  SSIM %.4f", d.differingShare * 100, d.maxChannelDifference, d.ssim)
    }
}

// MARK: - Filmstrip

extension GoldenFrames {
    /// `filmstrip.png`, a scene's filmstrip golden in its golden folder.
    package static let filmstripFileName = "filmstrip.png"
    /// Each frame of a filmstrip is rendered this many pixels on its longer side…
    package static let filmstripSide = 80.0
    /// …and laid out this many to a row, labelled with its index.
    package static let filmstripColumns = 10

    /// `scene` at the filmstrip's scale: ``filmstripSide`` pixels on its longer side,
    /// whatever `golden.scale`.
    package static func filmstripScene(_ scene: KineticScene.Scene) -> KineticScene.Scene {
        var small = scene
        let size = scene.settings.size
        small.settings.scale = filmstripSide / max(size.width, size.height, 1e-9)
        return small
    }

    /// The filmstrip of every frame's thumbnail (drawn at ``filmstripScene(_:)``'s scale,
    /// in frame order): a grid of ``filmstripColumns`` columns, each labelled with its frame
    /// index (ContactSheet's layout, on white).
    package static func filmstrip(_ thumbnails: [PixelImage]) -> PixelImage {
        ContactSheet.compose(thumbnails.enumerated().map { (label: "\($0.offset)", image: $0.element) }, columns: filmstripColumns,
                             background: .white, thumbnailSize: Int(filmstripSide))
    }
}
