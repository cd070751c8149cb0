import Foundation
import Testing
@testable import KineticEncode

@Suite struct AtomicFileTests {
    struct Interrupted: Error {}

    @Test func commitRenamesIntoPlace() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var file = try AtomicFile(path: folder + "/out.bin")
        try file.write([1, 2, 3])
        // Hidden temporary beside the destination, nothing at the destination yet.
        #expect(folderContents(folder).count == 1)
        #expect(folderContents(folder).allSatisfy { $0.hasPrefix(".out.bin.") })
        try file.write([4])
        try file.commit()
        #expect(folderContents(folder) == ["out.bin"])
        #expect(FileManager.default.contents(atPath: folder + "/out.bin") == Data([1, 2, 3, 4]))
    }

    @Test func failingMidwayLeavesNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: Interrupted.self) {
            try AtomicFile.write(to: folder + "/out.bin") { file in
                try file.write([UInt8](repeating: 7, count: 100_000))
                throw Interrupted()
            }
        }
        #expect(folderContents(folder).isEmpty)
    }

    @Test func failingMidwayKeepsTheOldFileIntact() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.gif"
        try AtomicFile.write([9, 9, 9], to: path)
        #expect(throws: Interrupted.self) {
            try AtomicFile.write(to: path) { file in
                try file.write([1])
                throw Interrupted()
            }
        }
        #expect(folderContents(folder) == ["out.gif"])
        #expect(FileManager.default.contents(atPath: path) == Data([9, 9, 9]))
    }

    @Test func abandonedGIFWriterLeavesNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(3)
        do {
            let writer = try GIFWriter(path: folder + "/a.gif", width: 64, height: 48, options: GIFOptions())
            try writer.write(GIFFramePreparer.prepare(frames[0], previous: nil, options: GIFOptions()), delayCentiseconds: 2)
            #expect(folderContents(folder).count == 1)  // the temporary file
        }
        #expect(folderContents(folder).isEmpty)
    }

    @Test func failedFrameCancelsTheGIF() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try GIFWriter(path: folder + "/b.gif", width: 64, height: 48, options: GIFOptions())
        try writer.write(GIFFramePreparer.prepare(Synthetic.frame(0), previous: nil, options: GIFOptions()),
                         delayCentiseconds: 2)
        let tooBig = try GIFFramePreparer.prepare(Synthetic.frame(1, width: 80), previous: nil, options: GIFOptions())
        #expect(throws: EncodeError.self) { try writer.write(tooBig, delayCentiseconds: 2) }
        #expect(folderContents(folder).isEmpty)
        #expect(throws: EncodeError.self) { try writer.finish() }
        #expect(folderContents(folder).isEmpty)
    }

    @Test func unwritableDestinationThrowsCannotWrite() throws {
        #expect(throws: EncodeError.cannotWrite(path: "/nonexistent-kinetic/x.gif", reason: "No such file or directory")) {
            _ = try GIFWriter(path: "/nonexistent-kinetic/x.gif", width: 4, height: 4, options: GIFOptions())
        }
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: EncodeError.cannotWrite(path: folder, reason: "is a folder; kinetic replaces only regular files")) {
            try AtomicFile.write([1], to: folder)
        }
    }
}
