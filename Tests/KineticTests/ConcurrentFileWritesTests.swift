import Foundation
import KineticEncode
import Testing
@testable import Kinetic

/// The frames folder's writer: every file whole with its own bytes, however many are in
/// flight, and a failed write thrown, not lost.
struct ConcurrentFileWritesTests {
    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-writes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func everyFileHasItsBytesAndNoTemporaryFileIsLeft() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ConcurrentFileWrites(limit: 3)
        // 10 files of different lengths and contents: more than the limit in flight.
        let contents = (0..<10).map { i in [UInt8](repeating: UInt8(i), count: 1000 + i * 517) }
        for (i, bytes) in contents.enumerated() {
            try files.write(bytes, to: "\(folder)/f\(i).bin")
        }
        try files.finish()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == (0..<10).map { "f\($0).bin" }.sorted())
        for (i, bytes) in contents.enumerated() {
            #expect(FileManager.default.contents(atPath: "\(folder)/f\(i).bin") == Data(bytes), "f\(i).bin")
        }
    }

    @Test func aFailedWriteIsThrownByFinish() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ConcurrentFileWrites(limit: 4)
        try files.write([1, 2, 3], to: "\(folder)/fine.bin")
        // No such folder: the write on its thread fails, and finish says so.
        try files.write([4, 5, 6], to: "\(folder)/missing/lost.bin")
        #expect {
            try files.finish()
        } throws: { error in
            guard case .cannotWrite(let path, _) = error as? EncodeError else { return false }
            return path == "\(folder)/missing/lost.bin"
        }
        #expect(FileManager.default.contents(atPath: "\(folder)/fine.bin") == Data([1, 2, 3]))
    }
}
