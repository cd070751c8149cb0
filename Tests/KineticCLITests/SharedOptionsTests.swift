@testable import KineticCLI
import ArgumentParser
import Foundation
import Kinetic
import Synchronization
import Testing

/// `--jobs`, `--loop` and `--frames`, parsed once for every command, and `Parallel.map`.
@Suite struct SharedOptionsTests {
    @Test func frameRangesAreAToBOrOneFrame() {
        #expect(FrameRange(argument: "0-49") == FrameRange(0...49))
        #expect(FrameRange(argument: "7") == FrameRange(7...7))
        #expect(FrameRange(argument: "3-3") == FrameRange(3...3))
        for bad in ["5-2", "-1", "a-b", "1-2-3", "", "1-", "-", "1.5-2"] {
            #expect(FrameRange(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func everyCommandParsesTheSharedOptionsTheSameWay() throws {
        let render = try RenderCommand.parse(["s.yaml", "-o", "f/", "--frames", "2-5", "--jobs", "3", "--loop", "2"])
        #expect(render.frameRange.frames == FrameRange(2...5) && render.jobs == 3 && render.loop == 2)
        let batch = try BatchCommand.parse(["s.yaml", "-o", "out", "--frames", "2-5", "--jobs", "3", "--loop", "2"])
        #expect(batch.frameRange.frames == FrameRange(2...5) && batch.jobs == 3 && batch.loop == 2)
        let encode = try EncodeCommand.parse(["f/", "-o", "a.gif", "--fps", "10", "--jobs", "3", "--loop", "2"])
        #expect(encode.jobs == 3 && encode.loop == 2)
        // The same refusals everywhere (exit 64).
        for arguments in [["s.yaml", "-o", "a.gif", "--jobs", "0"], ["s.yaml", "-o", "a.gif", "--loop", "70000"],
                          ["s.yaml", "-o", "a.gif", "--frames", "9-2"]] {
            #expect(throws: (any Error).self) { _ = try RenderCommand.parse(arguments) }
            #expect(throws: (any Error).self) { _ = try BatchCommand.parse(arguments) }
        }
        #expect(throws: (any Error).self) { _ = try EncodeCommand.parse(["f/", "-o", "a.gif", "--fps", "10", "--loop", "-1"]) }
        #expect(kinetic(["render", "s.yaml", "-o", "a.gif", "--frames", "9-2"]) == 64)
    }

    @Test func parallelMapKeepsTheOrderAndUsesAtMostItsWidth() throws {
        let running = Counter(), widest = Counter()
        let out = try Parallel.map(Array(0..<40), jobs: 3) { i -> Int in
            let now = running.add(1)
            widest.raise(to: now)
            usleep(2000)
            running.add(-1)
            return i * i
        }
        #expect(out == (0..<40).map { $0 * $0 })
        #expect(widest.value <= 3 && widest.value >= 1)
    }

    @Test func parallelMapRethrowsAnError() {
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            _ = try Parallel.map(Array(0..<10), jobs: 4) { i -> Int in
                if i == 6 { throw Boom() }
                return i
            }
        }
    }

    @Test func aNestedMapRunsInOrderInsideTheOuterOne() throws {
        // The outer map's bodies run in tasks: the inner maps run in order there, so
        // nothing waits on the pool it occupies (with more outer jobs than cores).
        let jobs = ProcessInfo.processInfo.activeProcessorCount + 2
        let out = try Parallel.map(Array(0..<jobs * 2), jobs: jobs) { i in
            try Parallel.map(Array(0..<5), jobs: 4) { $0 + i }.reduce(0, +)
        }
        #expect(out == (0..<jobs * 2).map { 5 * $0 + 10 })
    }

    @Test func workerThreadsAreReusedOnceFinished() {
        // One job at a time: each finds the thread the last one left waiting (another
        // test may take that thread in between now and then, never every time).
        let threads = Mutex<Set<UInt>>([])
        for _ in 0..<20 {
            let worker = WorkerThread.start { _ = threads.withLock { $0.insert(UInt(pthread_self())) } }
            #expect(worker != nil)
            worker?.join()
        }
        #expect(threads.withLock { $0.count } < 20)
    }

    @Test func busyWorkerThreadsNeverMakeAJobWait() {
        // Each job waits until all have started: this finishes only if every job gets a
        // thread of its own at once, waiting or new.
        let count = 6, started = Counter(), sawAll = Counter()
        let workers = (0..<count).compactMap { _ in
            WorkerThread.start {
                started.add(1)
                let deadline = Date().addingTimeInterval(10)
                while started.value < count, Date() < deadline { usleep(1000) }
                if started.value == count { sawAll.add(1) }
            }
        }
        #expect(workers.count == count)
        for worker in workers { worker.join() }
        #expect(sawAll.value == count)
    }
}

/// A counter shared by the map's tasks.
private final class Counter: Sendable {
    private let count = Mutex(0)
    @discardableResult func add(_ d: Int) -> Int { count.withLock { $0 += d; return $0 } }
    func raise(to v: Int) { count.withLock { $0 = max($0, v) } }
    var value: Int { count.withLock { $0 } }
}
