import Testing
@testable import KineticAnimation

private func close(_ a: Double?, _ b: Double) -> Bool {
    guard let a else { return false }
    return abs(a - b) < 1e-9
}

@Test func beginAndFillModes() {
    var t = AnimationTiming(beginTime: 1, duration: 2)
    #expect(t.progress(at: 0.5) == nil)            // before begin, removed
    #expect(close(t.progress(at: 1), 0))
    #expect(close(t.progress(at: 2), 0.5))
    #expect(t.progress(at: 3) == nil)              // exact end, removed
    #expect(t.endTime == 3)
    t.fillMode = .forwards
    #expect(t.progress(at: 0.5) == nil)
    #expect(close(t.progress(at: 3), 1))
    #expect(close(t.progress(at: 100), 1))
    t.fillMode = .backwards
    #expect(close(t.progress(at: 0.5), 0))
    #expect(t.progress(at: 3) == nil)
    t.fillMode = .both
    #expect(close(t.progress(at: -10), 0))
    #expect(close(t.progress(at: 10), 1))
}

@Test func repeatsRestartEachCycle() {
    let t = AnimationTiming(beginTime: 1, duration: 2, repeatCount: 2, fillMode: .forwards)
    #expect(t.activeDuration == 4)
    #expect(close(t.progress(at: 1 + 2.5), 0.25))
    #expect(close(t.progress(at: 1 + 2), 0))       // a cycle boundary starts the next cycle
    #expect(close(t.progress(at: 5), 1))           // but the end holds the final value
}

@Test func autoreverseDoublesTheCycle() {
    let t = AnimationTiming(duration: 1, autoreverses: true, fillMode: .forwards)
    #expect(t.activeDuration == 2)
    #expect(close(t.progress(at: 0.25), 0.25))
    #expect(close(t.progress(at: 1.25), 0.75))
    #expect(close(t.progress(at: 2), 0))
    let twice = AnimationTiming(duration: 1, repeatCount: 2, autoreverses: true)
    #expect(twice.endTime == 4)
    #expect(close(twice.progress(at: 2.5), 0.5))
    #expect(close(twice.progress(at: 3.75), 0.25))
}

@Test func fractionalRepeatCountEndsMidCycle() {
    let t = AnimationTiming(duration: 2, repeatCount: 1.5, fillMode: .forwards)
    #expect(t.endTime == 3)
    #expect(close(t.progress(at: 2.5), 0.25))
    #expect(close(t.progress(at: 10), 0.5))
    // 1.25 autoreversed cycles of 2 s: ends half-way through the second forward pass.
    let r = AnimationTiming(duration: 1, repeatCount: 1.25, autoreverses: true, fillMode: .forwards)
    #expect(r.endTime == 2.5)
    #expect(close(r.progress(at: 2.5), 0.5))
}

@Test func repeatForever() {
    let t = AnimationTiming(duration: 1, repeatCount: .infinity, autoreverses: true)
    #expect(t.activeDuration == .infinity)
    #expect(close(t.progress(at: 1000.25), 0.25))
    #expect(close(t.progress(at: 1001.25), 0.75))
}

@Test func speedAndTimeOffset() {
    let fast = AnimationTiming(beginTime: 1, duration: 2, speed: 2)
    #expect(fast.endTime == 2)
    #expect(close(fast.progress(at: 1.5), 0.5))
    // Starts a quarter of the way in, wraps round to the start and ends where it began.
    let offset = AnimationTiming(duration: 2, fillMode: .forwards, timeOffset: 0.5)
    #expect(close(offset.progress(at: 0), 0.25))
    #expect(close(offset.progress(at: 1.4), 0.95))
    #expect(close(offset.progress(at: 1.9), 0.2))
    #expect(close(offset.progress(at: 2), 0.25))
}

@Test func zeroDurationJumpsToTheEnd() {
    var t = AnimationTiming(beginTime: 1, duration: 0, repeatCount: .infinity, fillMode: .both)
    #expect(t.activeDuration == 0)
    #expect(t.endTime == 1)
    #expect(close(t.progress(at: 0), 0))
    #expect(close(t.progress(at: 1), 1))
    #expect(close(t.progress(at: 5), 1))
    t.fillMode = .removed
    #expect(t.progress(at: 1) == nil)
}
