@testable import KineticCLI
import Foundation
import Kinetic
import KineticEncode
import Testing

@Suite struct OutputTargetTests {
    @Test func theExtensionPicksTheFormat() throws {
        #expect(try OutputTarget.parse("a.gif") == .animation(.gif, "a.gif"))
        #expect(try OutputTarget.parse("out/clip.MP4") == .animation(.mp4, "out/clip.MP4"))
        #expect(try OutputTarget.parse("a.webm") == .animation(.webm, "a.webm"))
        #expect(try OutputTarget.parse("a.mov") == .animation(.mov, "a.mov"))
        #expect(try OutputTarget.parse("a.webp") == .animation(.webp, "a.webp"))
        #expect(try OutputTarget.parse("a.apng") == .animation(.apng, "a.apng"))
        #expect(try OutputTarget.parse("a.png") == .png("a.png"))
        #expect(try OutputTarget.parse("a.png", animated: true) == .animation(.apng, "a.png"))
        #expect(try OutputTarget.parse("a.svg") == .svg("a.svg"))
        #expect(try OutputTarget.parse("a.pdf") == .pdf("a.pdf"))
        #expect(try OutputTarget.parse("anim.JSON") == .lottie(.json, "anim.JSON"))
        #expect(try OutputTarget.parse("out/anim.lottie") == .lottie(.dotLottie, "out/anim.lottie"))
    }

    @Test func foldersAndPatternsArePNGFrames() throws {
        #expect(try OutputTarget.parse("frames/") == .pngFrames(pattern: "frames/frame-%04d.png"))
        #expect(try OutputTarget.parse("frames") == .pngFrames(pattern: "frames/frame-%04d.png"))
        #expect(try OutputTarget.parse("shot-%03d.png") == .pngFrames(pattern: "shot-%03d.png"))
        // An existing folder is a folder whatever its name looks like.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-\(UUID().uuidString).mp4").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try OutputTarget.parse(folder) == .pngFrames(pattern: folder + "/frame-%04d.png"))
    }

    @Test func anyOtherExtensionIsAnErrorListingTheFormats() {
        for out in ["anim.avi", "anim.mkv", "a.jpg", "shot-%03d.jpg"] {
            #expect(throws: OutputTargetError.self) { try OutputTarget.parse(out) }
        }
        let message = OutputTargetError(output: "anim.avi").description
        for format in AnimationFormat.allCases { #expect(message.contains("." + format.rawValue)) }
        #expect(message.contains("'.avi'"))
        #expect(message.contains(".json"))
        #expect(message.contains(".lottie"))
    }

    @Test func patternPartsAndNames() {
        #expect(OutputTarget.fileName(pattern: "f/frame-%04d.png", index: 7) == "f/frame-0007.png")
        #expect(OutputTarget.fileName(pattern: "s%d.png", index: 12345) == "s12345.png")
        #expect(OutputTarget.patternParts("a-%03d.png").map { [$0.head, $0.spec, $0.tail] } == ["a-", "03", ".png"])
    }
}
