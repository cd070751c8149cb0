import Foundation
import Testing
@testable import KineticPreview

@Suite struct FrameCacheTests {
    @Test func dropsTheLeastRecentlyUsedToStayWithinTheBudget() {
        var cache = FrameCache<Int>(capacity: 10)
        cache.insert([UInt8](repeating: 1, count: 4), for: 1)
        cache.insert([UInt8](repeating: 2, count: 4), for: 2)
        _ = cache.value(for: 1)  // 2 is now the oldest
        cache.insert([UInt8](repeating: 3, count: 4), for: 3)
        let two = cache.value(for: 2), one = cache.value(for: 1), three = cache.value(for: 3)
        #expect(two == nil)
        #expect(one == [1, 1, 1, 1])
        #expect(three == [3, 3, 3, 3])
        #expect(cache.bytes == 8)
    }

    @Test func neverHoldsMoreThanItsCapacity() {
        var cache = FrameCache<Int>(capacity: 1000)
        for k in 0..<500 {
            cache.insert([UInt8](repeating: 0, count: (k * 37) % 300 + 1), for: k % 50)
            #expect(cache.bytes <= 1000)
        }
    }

    @Test func aValueLargerThanTheBudgetIsNotKept() {
        var cache = FrameCache<String>(capacity: 3)
        cache.insert([1, 2], for: "a")
        cache.insert([1, 2, 3, 4], for: "b")
        let b = cache.value(for: "b"), a = cache.value(for: "a")
        #expect(b == nil)
        #expect(a == [1, 2])
    }

    @Test func replacingAKeyCountsOnlyTheNewValue() {
        var cache = FrameCache<Int>(capacity: 10)
        cache.insert([1, 2, 3], for: 0)
        cache.insert([1], for: 0)
        #expect(cache.bytes == 1)
        #expect(cache.count == 1)
    }
}

@Suite struct ServedFilesTests {
    private func folder() throws -> String {
        let base = NSTemporaryDirectory() + "kinetic-served-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/scenes/img", withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try Data("png".utf8).write(to: URL(fileURLWithPath: base + "/scenes/img/a b.png"))
        try FileManager.default.createSymbolicLink(atPath: base + "/scenes/out", withDestinationPath: base + "/secret.txt")
        return base
    }

    @Test func servesAFileUnderTheFolder() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let files = ServedFiles(root: base + "/scenes")
        guard case .success(let path) = files.resolve("img/a%20b.png") else { Issue.record("not served"); return }
        #expect(path.hasSuffix("/scenes/img/a b.png"))
    }

    @Test func refusesEscapesFoldersAndHiddenNames() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let files = ServedFiles(root: base + "/scenes")
        #expect(files.resolve("../secret.txt") == .failure(.malformed))
        #expect(files.resolve("img/%2E%2E/%2E%2E/secret.txt") == .failure(.malformed))
        #expect(files.resolve("img//a%20b.png") == .failure(.malformed))
        #expect(files.resolve(".git") == .failure(.malformed))
        #expect(files.resolve("img%00") == .failure(.malformed))
        #expect(files.resolve("%ZZ") == .failure(.malformed))
        #expect(files.resolve("img") == .failure(.notFound))  // a folder: no listing
        #expect(files.resolve("out") == .failure(.notFound))  // a link leading outside
        #expect(files.resolve("missing.png") == .failure(.notFound))
    }
}

@Suite struct FileWatcherTests {
    @Test func reportsAChangedAddedOrRemovedFileOnce() throws {
        let path = NSTemporaryDirectory() + "kinetic-watch-\(UUID().uuidString).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var watcher = FileWatcher(paths: [path])
        var polls: [Bool] = []
        polls.append(watcher.poll())
        try Data("a".utf8).write(to: URL(fileURLWithPath: path))
        polls.append(watcher.poll())
        polls.append(watcher.poll())
        try Data("ab".utf8).write(to: URL(fileURLWithPath: path))
        polls.append(watcher.poll())
        try FileManager.default.removeItem(atPath: path)
        polls.append(watcher.poll())
        polls.append(watcher.poll())
        #expect(polls == [false, true, false, true, true, false])
    }
}

@Suite struct PreviewServerTests {
    @Test func frameNumbersAreDigitsOnly() {
        #expect(PreviewServer.frameNumber("12") == 12)
        #expect(PreviewServer.frameNumber("0") == 0)
        #expect(PreviewServer.frameNumber("-1") == nil)
        #expect(PreviewServer.frameNumber("+1") == nil)
        #expect(PreviewServer.frameNumber("1e3") == nil)
        #expect(PreviewServer.frameNumber("99999999999999999999") == nil)
        #expect(PreviewServer.frameNumber("") == nil)
        #expect(PreviewServer.frameNumber("١٢") == nil)  // Arabic-Indic digits are numbers, not ASCII
    }

    @Test func onlyLoopbackHostsCountAsLoopback() {
        #expect(PreviewServer.isLoopback("127.0.0.1"))
        #expect(PreviewServer.isLoopback("::1"))
        #expect(PreviewServer.isLoopback("localhost"))
        #expect(!PreviewServer.isLoopback("0.0.0.0"))
        #expect(!PreviewServer.isLoopback("192.168.1.2"))
    }
}
