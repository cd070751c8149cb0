import Foundation
import KineticEncode
import KineticGeometry
import KineticScene

/// Where a scene's golden frames live, which frames they are, and how a rendered frame
/// is judged against its golden image (section 8 of the scene format).
enum GoldenFrames {
    /// The golden folder of the scene at `scenePath`: `GOLDEN_DIR/NAME` when a golden
    /// folder is given, else `golden/NAME` beside the scene's folder
    /// (`scenes/NAME.yaml` → `golden/NAME`).
    static func folder(forScene scenePath: String, goldenDir: String?) -> String {
        let name = sceneName(scenePath)
        if let goldenDir { return join(goldenDir, name) }
        let sceneFolder = (scenePath as NSString).deletingLastPathComponent
        let project = (sceneFolder as NSString).deletingLastPathComponent
        return join(join(project, "golden"), name)
    }

    /// The scene file's name without its extension.
    static func sceneName(_ scenePath: String) -> String {
        ((scenePath as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// `frame-NNNN.png`, the index zero-padded to four digits.
    static func fileName(frame: Int) -> String {
        OutputTarget.fileName(pattern: "frame-%04d.png", index: frame)
    }

    /// `folder/name`, or `name` alone when the folder is empty.
    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    /// The golden frame indices in ascending order without repeats (`last` is
    /// `frameCount − 1`). Indices past the end are returned in `outOfRange`.
    static func indices(_ spec: GoldenSpec, frameCount: Int) -> (frames: [Int], outOfRange: [Int]) {
        let all = spec.frames.map { ref -> Int in
            switch ref {
            case .index(let i): i
            case .last: frameCount - 1
            }
        }
        let unique = Set(all).sorted()
        return (unique.filter { $0 >= 0 && $0 < frameCount }, unique.filter { $0 < 0 || $0 >= frameCount })
    }

    /// How a rendered frame stands against its golden image.
    enum Verdict {
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

        var isMatch: Bool {
            if case .match = self { true } else { false }
        }
    }

    /// Judges `actual` against `expected` (nil when there is no golden file) under the
    /// scene's tolerance. A frame matches when the share of differing pixels is at most
    /// `pixelTolerance`.
    static func judge(_ actual: PixelImage, against expected: PixelImage?, spec: GoldenSpec) -> Verdict {
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
    static func read(_ path: String) -> Result<PixelImage?, EncodeError> {
        guard FileManager.default.fileExists(atPath: path) else { return .success(nil) }
        do { return .success(try PNGReader.read(path)) } catch { return .failure(error) }
    }

    /// A difference as the report prints it: `differing 0.120 %  max Δ 14  SSIM 0.9987`.
    static func describe(_ d: ImageDifference) -> String {
        String(format: "differing %.3f %%  max Δ %d  SSIM %.4f", d.differingShare * 100, d.maxChannelDifference, d.ssim)
    }
}
