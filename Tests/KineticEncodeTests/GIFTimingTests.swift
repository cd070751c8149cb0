import Testing
@testable import KineticEncode

@Suite struct GIFTimingTests {
    @Test func fiftyFramesPerSecondIsTwoCentisecondsEach() {
        #expect(GIFTiming.delays(frameCount: 150, fps: 50) == Array(repeating: 2, count: 150))
    }

    @Test func thirtyFramesPerSecondRoundsCumulatively() {
        // Frame starts 0, 3.33, 6.67, 10, 13.33, 16.67, 20, 23.33 cs round to
        // 0, 3, 7, 10, 13, 17, 20, 23.
        #expect(GIFTiming.delays(frameCount: 7, fps: 30) == [3, 4, 3, 3, 4, 3, 3])
    }

    @Test(arguments: [(24.0, 100), (60.0, 61), (12.5, 9), (7.0, 30)])
    func delaysAddUpToTheRoundedDuration(fps: Double, count: Int) {
        let delays = GIFTiming.delays(frameCount: count, fps: fps)
        #expect(delays.count == count)
        #expect(delays.reduce(0, +) == Int((Double(count) * 100 / fps).rounded()))
        // Each delay is the ideal one rounded down or up.
        #expect(delays.allSatisfy { abs(Double($0) - 100 / fps) < 1 })
    }

    @Test func invalidInputGivesNoDelays() {
        #expect(GIFTiming.delays(frameCount: 0, fps: 50).isEmpty)
        #expect(GIFTiming.delays(frameCount: 5, fps: 0).isEmpty)
        #expect(GIFTiming.minimumBrowserDelay == 2)
    }
}
