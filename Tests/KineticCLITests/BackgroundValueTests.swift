import Foundation
import Kinetic
import KineticEncode
import KineticGeometry
import Testing

/// `BackgroundValue`: an animation's palette chosen on a thread of its own while its
/// frames start (issue 42).
@Suite struct BackgroundValueTests {
    struct Refused: Error, Equatable {}

    /// In the background, the value is made while the caller goes on: making it waits
    /// for a signal the caller gives only once `init` has returned (made at once on the
    /// caller's thread, it would wait in vain until its time-out).
    @Test func isMadeWhileTheCallerGoesOn() throws {
        let signal = DispatchSemaphore(value: 0)
        let value = BackgroundValue(inBackground: true) { signal.wait(timeout: .now() + 20) == .success }
        signal.signal()
        #expect(try value.value())
        #expect(try value.value())
    }

    /// Not in the background, it is made before `init` returns.
    @Test func isMadeAtOnceWhenAskedTo() throws {
        var made = false
        let value = BackgroundValue(inBackground: false) { made = true; return 7 }
        #expect(made)
        #expect(try value.value() == 7)
    }

    /// What making it threw reaches every caller, on any thread.
    @Test func errorReachesEveryCaller() {
        let value = BackgroundValue<Int>(inBackground: true) { throw Refused() }
        #expect(throws: Refused.self) { try value.value() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if case .failure(let error) = value.wait() { #expect(error is Refused) } else { Issue.record("made a value") }
        }
    }

    /// An opaque GIF written at two jobs, whose palette is then chosen while its frames
    /// start: the bytes of one job; and when its frames fail, no file is left, not even
    /// the hidden temporary one opened in the background.
    @Test func gifOfTwoJobsIsOneJobsAndAFailureLeavesNoFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("background-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = (0..<12).map { i in
            var image = PixelImage(width: 40, height: 30)
            for y in 0..<30 {
                for x in 0..<40 {
                    let word = 0xFF00_0000 | UInt32((x * 6 + i * 9) % 256) << 16 | UInt32(y * 8) << 8 | UInt32(i * 20)
                    image.bytes.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: y * image.stride + x * 4, as: UInt32.self) }
                }
            }
            return image
        }
        func write(jobs: Int, to path: String, failingAt failure: Int? = nil) throws {
            var settings = AnimationSettings(fps: 10)
            settings.jobs = jobs
            try AnimationOutput.write(frameCount: frames.count, width: 40, height: 30, to: path, format: .gif,
                                      settings: settings, sample: { positions, _, prepare, add in
                for p in positions { try add(prepare(frames[p])) }
            }) { prepare, write in
                try FrameStream(frames: Array(frames.indices), jobs: jobs,
                                progress: Progress(total: frames.count, enabled: false)).run(rasters: { chunk in
                    if let failure, chunk.contains(failure) { throw Refused() }
                    return chunk.map { frames[$0] }
                }, encode: prepare, consume: { _, prepared in try write(prepared) })
            }
        }
        try write(jobs: 1, to: folder + "/one.gif")
        try write(jobs: 2, to: folder + "/two.gif")
        #expect(FileManager.default.contents(atPath: folder + "/one.gif") == FileManager.default.contents(atPath: folder + "/two.gif"))
        #expect(throws: Refused.self) { try write(jobs: 2, to: folder + "/failed.gif", failingAt: 0) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["one.gif", "two.gif"])
    }
}
