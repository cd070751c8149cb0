import Foundation
import Synchronization
import Testing
@testable import KineticPreview

/// A reload runs off the session's queue: frames of the last good scene are served while
/// a slow (large) scene loads (issue 37: reloading froze every other request).
@Suite struct PreviewReloadTests {
    @Test func framesAreServedWhileASceneReloads() async throws {
        let file = NSTemporaryDirectory() + "kinetic-reload-\(UUID().uuidString).yaml"
        try Data("a".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let loads = Atomic<Int>(0)
        let session = PreviewSession(path: file, cacheBytes: 1 << 20) { _ in
            // Every load after the first takes two seconds, as a large scene would.
            if loads.add(1, ordering: .relaxed).newValue > 1 { Thread.sleep(forTimeInterval: 2) }
            return .success(RecordingScene())
        }
        try Data("changed, longer".utf8).write(to: URL(fileURLWithPath: file))
        let reload = Task { await session.reloadIfChanged() }
        // Wait until the slow load has started, then ask for a frame.
        while loads.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let started = Date()
        let frame = await session.png(frame: 0, debug: false)
        let waited = Date().timeIntervalSince(started)
        #expect((try? frame.get()) != nil)
        #expect(waited < 1, "a frame waited \(waited) s for the reload")
        #expect(await reload.value)
    }
}
