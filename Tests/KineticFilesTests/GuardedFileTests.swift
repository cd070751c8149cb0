import Foundation
import Testing
@testable import KineticFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh folder for one test, removed afterwards.
func withFolder(_ body: (String) throws -> Void) throws {
    let folder = NSTemporaryDirectory() + "kinetic-files-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
}

@Suite struct GuardedFileTests {
    @Test func readsARegularFileWhole() throws {
        try withFolder { folder in
            let path = folder + "/a.txt"
            try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
            #expect(try GuardedFile.read(path, maxBytes: 5) == Array("hello".utf8))
        }
    }

    /// A FIFO with no writer would block `open` and `read` forever; it is refused at once.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        try withFolder { folder in
            let path = folder + "/fifo"
            #expect(mkfifo(path, 0o600) == 0)
            let started = Date()
            #expect(throws: FileProblem.notRegular(path: path, kind: .fifo)) { try GuardedFile.read(path, maxBytes: 1 << 20) }
            #expect(Date().timeIntervalSince(started) < 1)
        }
    }

    /// /dev/zero never ends: reading it whole would take all memory.
    @Test func aDeviceIsRefused() {
        #expect(throws: FileProblem.notRegular(path: "/dev/zero", kind: .characterDevice)) {
            try GuardedFile.read("/dev/zero", maxBytes: 1 << 20)
        }
    }

    @Test func aFolderIsRefused() throws {
        try withFolder { folder in
            #expect(throws: FileProblem.notRegular(path: folder, kind: .directory)) { try GuardedFile.read(folder, maxBytes: 10) }
        }
    }

    /// The size is checked before anything is read: the message gives the size and the limit.
    @Test func aFileOverTheLimitIsRefusedWithItsSize() throws {
        try withFolder { folder in
            let path = folder + "/big"
            try Data(count: 1000).write(to: URL(fileURLWithPath: path))
            #expect(throws: FileProblem.tooLarge(path: path, bytes: 1000, limit: 999)) { try GuardedFile.read(path, maxBytes: 999) }
            #expect(FileProblem.tooLarge(path: path, bytes: 1000, limit: 999).description.hasSuffix("is 1000 bytes, over the limit of 999 bytes"))
        }
    }

    @Test func aMissingFileIsMissing() {
        #expect(throws: FileProblem.missing(path: "/nonexistent/x")) { try GuardedFile.read("/nonexistent/x", maxBytes: 10) }
    }

    /// A symbolic link inside the root that leads out of it is refused; one that stays
    /// inside is followed.
    @Test func aLinkOutOfTheRootIsRefused() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/root", withIntermediateDirectories: true)
            try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/outside.txt"))
            try Data("fine".utf8).write(to: URL(fileURLWithPath: folder + "/root/inside.txt"))
            #expect(symlink(folder + "/outside.txt", folder + "/root/out") == 0)
            #expect(symlink("inside.txt", folder + "/root/in") == 0)
            #expect(throws: (any Error).self) { try GuardedFile.read(folder + "/root/out", maxBytes: 100, root: folder + "/root") }
            do throws(FileProblem) {
                _ = try GuardedFile.read(folder + "/root/out", maxBytes: 100, root: folder + "/root")
            } catch {
                guard case .outsideRoot = error else { Issue.record("expected outsideRoot, got \(error)"); return }
            }
            #expect(try GuardedFile.read(folder + "/root/in", maxBytes: 100, root: folder + "/root") == Array("fine".utf8))
            #expect(throws: (any Error).self) { try GuardedFile.read(folder + "/root/../outside.txt", maxBytes: 100, root: folder + "/root") }
        }
    }
}

@Suite struct PNGHeaderTests {
    /// A PNG's bytes: signature, IHDR, the given chunks, IEND.
    static func png(width: UInt32, height: UInt32, chunks: [(String, UInt32, [UInt8])]) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        var bytes: [UInt8] = PNGHeader.signature
        bytes += be(13) + Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0] + be(0)
        for (type, length, data) in chunks { bytes += be(length) + Array(type.utf8) + data + be(0) }
        bytes += be(0) + Array("IEND".utf8) + be(0)
        return bytes
    }

    func check(_ bytes: [UInt8], maxPixels: Int = 1 << 20) throws -> PNGHeader {
        var header: PNGHeader?
        try withFolder { folder in
            let path = folder + "/x.png"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let file = try GuardedFile(path: path, maxBytes: 1 << 20)
            header = try PNGHeader(checking: file, maxPixels: maxPixels)
        }
        return try #require(header)
    }

    @Test func aWellFormedHeaderIsRead() throws {
        let header = try check(Self.png(width: 3, height: 2, chunks: [("IDAT", 2, [0, 0])]))
        #expect(header == PNGHeader(width: 3, height: 2, colorType: 6))
        #expect(header.hasAlpha)
    }

    /// A file of about a hundred bytes that claims a 2 GB chunk is refused by the walk,
    /// before any decoder would allocate or read for it.
    @Test func aChunkClaimingMoreThanTheFileIsRefused() throws {
        let bytes = Self.png(width: 3, height: 2, chunks: [("IDAT", 2_000_000_000, [0, 0])])
        #expect(bytes.count < 150)
        #expect(throws: (any Error).self) { try check(bytes) }
    }

    @Test func tooManyPixelsAreRefused() throws {
        #expect(throws: (any Error).self) { try check(Self.png(width: 2000, height: 2000, chunks: [("IDAT", 1, [0])]), maxPixels: 1000) }
    }

    @Test func noImageDataIsRefused() throws {
        #expect(throws: (any Error).self) { try check(Self.png(width: 1, height: 1, chunks: [])) }
    }
}

@Suite struct SystemTextTests {
    /// /proc files say they are 0 bytes long: read to their end (bounded), not to that size.
    @Test func aProcFileIsReadToItsEnd() throws {
        let text = try #require(GuardedFile.readSystemText("/proc/self/statm"))
        #expect(text.split(separator: " ").count >= 2)
        #expect(text.first?.isNumber == true)
        #expect(GuardedFile.readSystemText("/proc/self/statm", maxBytes: 3)?.count == 3)
        #expect(GuardedFile.readSystemText("/dev/zero") == nil)
    }
}
