@testable import KineticCLI
import Foundation
import Kinetic
import Testing

/// `--frame` and `--time` stop at the scene's end alike, for every command taking them.
@Suite struct FrameChoiceTests {
    /// 40 frames at 20 fps: the last frame, 39, shows 1.95 s to 2 s.
    @Test func timesUpToTheEndPickTheFrameShowingThem() throws {
        func chosen(frame: Int? = nil, time: Double? = nil) throws -> [Double] {
            let c = try FrameChoice(frame: frame, time: time, frameCount: 40, fps: 20)
            return [Double(c.index), c.time]
        }
        #expect(try chosen(time: 0.6) == [12, 0.6])
        #expect(try chosen(time: 1.97) == [39, 1.97])
        // The end itself is the state the last frame ends in.
        #expect(try chosen(time: 2) == [39, 2])
        #expect(try chosen(frame: 39) == [39, 1.95])
    }

    @Test func pastTheEndIsAUsageErrorNamingTheEnd() throws {
        #expect(throws: FrameChoiceError.timePastEnd(time: 5, end: 2, lastFrame: 39)) {
            try FrameChoice(frame: nil, time: 5, frameCount: 40, fps: 20)
        }
        #expect(throws: FrameChoiceError.timePastEnd(time: 2.0001, end: 2, lastFrame: 39)) {
            try FrameChoice(frame: nil, time: 2.0001, frameCount: 40, fps: 20)
        }
        #expect(throws: FrameChoiceError.framePastEnd(frame: 40, lastFrame: 39)) {
            try FrameChoice(frame: 40, time: nil, frameCount: 40, fps: 20)
        }
        #expect("\(FrameChoiceError.timePastEnd(time: 5, end: 2, lastFrame: 39))"
                == "--time 5 is past the scene's end (2 s; the last frame is 39)")
        #expect(FrameChoiceError.timePastEnd(time: 5, end: 2, lastFrame: 39).exitCode == ExitStatus.usage)
    }

    @Test func inspectAndRenderExit64PastTheEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 25 frames at 50 fps: the scene ends at 0.5 s.
        let scene = try folder.write(slidingSquareScene(golden: ""), to: "s.yaml")
        #expect(kinetic(["inspect", scene, "--time", "5"]) == 64)
        #expect(kinetic(["inspect", scene, "--time", "0.52"]) == 64)
        #expect(kinetic(["inspect", scene, "--frame", "25"]) == 64)
        for still in ["x.png", "x.svg"] {
            #expect(kinetic(["render", scene, "-o", folder.file(still), "--time", "5", "--quiet"]) == 64)
            #expect(!FileManager.default.fileExists(atPath: folder.file(still)))
        }
        #expect(kinetic(["render", scene, "-o", folder.file("x.png"), "--frame", "25", "--quiet"]) == 64)
        // --duration lengthens the scene, and with it the times accepted.
        #expect(kinetic(["render", scene, "-o", folder.file("long.png"), "--time", "0.9", "--duration", "1", "--quiet"]) == 0)
        #expect(kinetic(["render", scene, "-o", folder.file("end.png"), "--time", "0.5", "--quiet"]) == 0)
        #expect(FileManager.default.fileExists(atPath: folder.file("end.png")))
    }
}
