import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

/// `AnimationWriter` hands the source colours of each GIF frame it has written back for
/// the preparation of later frames: a frame prepared into them is the frame prepared
/// fresh, and the file is the same.
@Suite struct GIFSourceBuffersTests {
    static func sourceAddress(_ frame: PreparedAnimationFrame) -> UnsafeRawPointer? {
        guard case .gif(let gif) = frame else { return nil }
        return gif.sourcePixels?.withUnsafeBytes { $0.baseAddress }
    }

    @Test(arguments: [1, 2])
    func writtenFramesLendTheirSourceColoursToLaterFrames(jobs: Int) throws {
        let frames = Synthetic.frames(8)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var settings = AnimationSettings(fps: 25)
        settings.jobs = jobs
        let writer = try AnimationWriter(path: folder + "/reused.gif", format: .gif, width: frames[0].width,
                                         height: frames[0].height, frameCount: frames.count, settings: settings)
        var lastWritten: UnsafeRawPointer?
        for (k, frame) in frames.enumerated() {
            let previous = k > 0 ? frames[k - 1] : nil
            let prepared = try writer.preparer.prepare(frame, previous: previous)
            let fresh = try GIFFramePreparer.prepare(frame, previous: previous, options: settings.gifOptions)
            guard case .gif(let gif) = prepared else { Issue.record("not a GIF frame"); return }
            #expect(gif == fresh, "frame \(k)")
            // In place: the very bytes of the frame written before, not a copy of them.
            if k > 0 { #expect(Self.sourceAddress(prepared) == lastWritten, "frame \(k)") }
            lastWritten = Self.sourceAddress(prepared)
            try writer.write(prepared)
        }
        try writer.finish()
        #expect(writer.gifSourceCounts?.taken == frames.count)
        #expect(writer.gifSourceCounts?.reused == frames.count - 1)
        // The file is the one written from frames prepared fresh.
        let delays = GIFTiming.delays(frameCount: frames.count, fps: settings.fps)
        try encodeGIF(frames, to: folder + "/fresh.gif", options: settings.gifOptions, delays: delays)
        let reused = FileManager.default.contents(atPath: folder + "/reused.gif")
        #expect(reused != nil && reused == FileManager.default.contents(atPath: folder + "/fresh.gif"))
    }
}
