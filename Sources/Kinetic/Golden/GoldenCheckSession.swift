import Foundation
import KineticEncode
import KineticFiles
import KineticGeometry

/// What a check has found so far, and the reports it writes.
package struct GoldenCheckSession {
    /// Where the pictures of mismatching frames go (`OUTPUT/NAME/frame-NNNN.png`); none
    /// are written when nil.
    package var output: String?
    /// Whether a missing golden is written (never overwriting one) and passes.
    package var recordMissing: Bool
    package var junit = JUnitReport()
    package var html: HTMLReport?
    /// Every golden checked so far, in order.
    package private(set) var cases: [GoldenCase] = []
    package var tally = (pictures: 0, picturesFailed: 0, states: 0, statesFailed: 0, recorded: 0)
    /// The run's exit status so far (``GoldenStatus/worst(_:_:)`` of its outcomes).
    package var status: Int32?
    /// Prints a result line (stdout).
    private let say: (String) -> Void
    /// Prints a problem (stderr).
    private let complain: (String) -> Void

    package init(output: String?, recordMissing: Bool, say: @escaping (String) -> Void,
                 complain: @escaping (String) -> Void) {
        self.output = output
        self.recordMissing = recordMissing
        self.say = say
        self.complain = complain
    }

    /// A frame or filmstrip against its golden image.
    package mutating func checkPicture(_ picture: (name: String, file: String, image: PixelImage),
                               of rendered: RenderedGoldens) {
        let spec = rendered.scene.golden
        let goldenPath = rendered.path(picture.file)
        let label = "\(rendered.name) \(picture.name)"
        let actual = picture.image
        tally.pictures += 1
        let expected: PixelImage?
        let verdict: GoldenFrames.Verdict
        switch GoldenFrames.read(goldenPath, root: rendered.root) {
        case .success(let image):
            expected = image
            verdict = GoldenFrames.judge(actual, against: image, spec: spec)
        case .failure(let error):
            expected = nil
            verdict = .unreadable(error)
        }
        var c = GoldenCase(scene: rendered.name, name: picture.name, status: .failed, message: "", goldenPath: goldenPath)
        let failurePicture = output.map { GoldenFrames.join(GoldenFrames.join($0, rendered.name), picture.file) }
        switch verdict {
        case .match(let d):
            c.status = .passed
            c.difference = d
            c.message = GoldenFrames.describe(d)
            say("\(label)  ok    \(c.message)")
            // A picture left by an earlier failing run would mislead.
            if let failurePicture { try? FileManager.default.removeItem(atPath: failurePicture) }
        case .missing where recordMissing:
            record(&c, label: label) { try PNGWriter.write(actual, to: goldenPath) }
        case .mismatch(let d):
            c.difference = d
            c.message = "\(GoldenFrames.describe(d))  (over \(String(format: "%.3f", spec.pixelTolerance * 100)) % at Δ > \(spec.channelTolerance))"
        case .sizeMismatch(let error):
            c.message = "\(error)"
        case .missing:
            c.message = "no golden image \(goldenPath) (bless it with kinetic golden update)"
        case .unreadable(let error):
            c.message = "\(error)"
        }
        if c.status == .failed {
            tally.picturesFailed += 1
            status = GoldenStatus.worst(status, GoldenStatus.mismatch)
            let line = "\(label)  FAIL  \(c.message)"
            let diff = ImageComparison.diffImage(actual: actual, expected: expected ?? PixelImage(width: 0, height: 0),
                                                 channelTolerance: spec.channelTolerance)
            if let failurePicture {
                writeFailurePicture([actual, expected ?? PixelImage(width: 0, height: 0), diff], to: failurePicture, line: line)
            } else {
                say(line)
            }
            add(c, images: (actual, expected, diff))
        } else {
            add(c, images: nil)
        }
    }

    /// The panels of a mismatch side by side at `path`, said after its `line`.
    private mutating func writeFailurePicture(_ panels: [PixelImage], to path: String, line: String) {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try PNGWriter.write(ImageComparison.sideBySide(panels), to: path)
            say("\(line)\n    actual | expected | diff → \(path)")
        } catch {
            say(line)
            complain("\(path): cannot write the failure picture: \(error)")
            status = GoldenStatus.worst(status, GoldenStatus.cannotCreate)
        }
    }

    /// Every frame's state against the golden state.
    package mutating func checkState(_ state: StateTable, of rendered: RenderedGoldens) {
        let goldenPath = rendered.path(StateTable.fileName)
        let label = "\(rendered.name) state"
        tally.states += 1
        var c = GoldenCase(scene: rendered.name, name: "state", status: .failed, message: "", goldenPath: goldenPath)
        switch StateTable.read(goldenPath, root: rendered.root) {
        case .success(let golden?):
            if let d = state.difference(from: golden) {
                c.message = d.description
                c.stateParts = d.parts
            } else {
                c.status = .passed
                c.message = "\(state.columns.count) keys × \(state.frameCount) frames"
                let added = state.newKeys(since: golden)
                if !added.isEmpty {
                    c.message += "; \(added.count) not in the golden (golden update records them): "
                        + added.prefix(3).joined(separator: ", ") + (added.count > 3 ? ", …" : "")
                }
                say("\(label)  ok    \(c.message)")
            }
        case .success(nil) where recordMissing:
            record(&c, label: label) { try AtomicFile.write(Array(state.encoded().utf8), to: goldenPath) }
        case .success(nil):
            c.message = "no golden state \(goldenPath) (bless it with kinetic golden update)"
        case .failure(let error):
            c.message = "\(error)"
        }
        if c.status == .failed {
            tally.statesFailed += 1
            status = GoldenStatus.worst(status, GoldenStatus.mismatch)
            say("\(label)  FAIL  \(c.message)")
        }
        add(c, images: nil)
    }

    /// A scene that could not be checked, in the reports too, so it does not vanish
    /// from CI's view.
    package mutating func skip(_ path: String, _ code: Int32) {
        add(GoldenCase(scene: GoldenFrames.sceneName(path), name: "scene", status: .error,
                       message: "\(path) could not be checked (exit \(code); the problems are on stderr)",
                       goldenPath: path), images: nil)
    }

    /// Writes a missing golden with `write` (`--record-missing`); a failure to write it
    /// is a failure of the case.
    private mutating func record(_ c: inout GoldenCase, label: String, _ write: () throws -> Void) {
        do {
            try FileManager.default.createDirectory(atPath: (c.goldenPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try write()
            c.status = .recorded
            c.message = "no golden yet: recorded \(c.goldenPath)"
            tally.recorded += 1
            say("\(label)  recorded  \(c.message)")
        } catch {
            c.message = "no golden yet, and it could not be recorded: \(error)"
        }
    }

    private mutating func add(_ c: GoldenCase, images: (actual: PixelImage, expected: PixelImage?, diff: PixelImage)?) {
        cases.append(c)
        junit.add(c)
        do { try html?.add(c, images: images) } catch {
            complain("\(error)")
            status = GoldenStatus.worst(status, GoldenStatus.cannotCreate)
        }
    }
}
