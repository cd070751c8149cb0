import CZip
import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// The `.lottie` archive read back through libzip's reader (and its raw headers against
/// the ZIP specification, APPNOTE.TXT section 4.3.7): dotLottie 1.0's layout, the export's
/// JSON unchanged inside, and the same bytes every time.
struct DotLottieArchiveTests {
    /// A real export: a red box moving across 12 frames.
    private func document() throws -> String {
        var exporter = LottieExporter(size: Size(200, 100), fps: 30, background: .color(.white), options: LottieOptions())
        for i in 0..<12 {
            var layer = Layer(id: "box", place: "layers[0]")
            layer.bounds = Rect(0, 0, 20, 10)
            layer.position = Point(10 + 5 * Double(i), 50)
            layer.backgroundColor = Color(red: 1, green: 0, blue: 0)
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 100), background: .color(.white),
                                        layers: [layer]))
        }
        return exporter.document().text
    }

    /// The archive's entries in order, names and contents, as libzip reads them.
    private func entries(of archive: [UInt8]) throws -> [(name: String, bytes: [UInt8])] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: archive.count, alignment: 1)
        archive.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: archive.count) }
        let source = try #require(zip_source_buffer_create(copy, zip_uint64_t(archive.count), 1, &error))
        // ZIP_CHECKCONS: the central directory must agree with the local headers.
        let zip = try #require(zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error))
        defer { zip_close(zip) }
        var result: [(String, [UInt8])] = []
        for index in 0..<zip_uint64_t(zip_get_num_entries(zip, 0)) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            #expect(zip_stat_index(zip, index, 0, &stat) == 0)
            #expect(stat.comp_method == ZIP_CM_DEFLATE)
            let file = try #require(zip_fopen_index(zip, index, 0))
            var bytes = [UInt8](repeating: 0, count: Int(stat.size))
            let read = bytes.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress!, stat.size) }
            zip_fclose(file)
            #expect(read == Int64(stat.size))
            result.append((String(cString: stat.name), bytes))
        }
        return result
    }

    @Test func holdsTheManifestAndTheExportUnchanged() throws {
        let json = try document()
        let archive = try DotLottieArchive.bytes(animation: json, id: "drop")
        let entries = try entries(of: archive)
        #expect(entries.map(\.name) == ["manifest.json", "animations/drop.json"])
        #expect(entries.count == 2 && entries[1].bytes == Array(json.utf8))
        // dotLottie 1.0's manifest: the animation listed by the id its entry is named by.
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(entries[0].bytes)) as? [String: Any])
        #expect(manifest["version"] as? String == "1.0")
        #expect(manifest["generator"] as? String == "Kinetic")
        let animations = try #require(manifest["animations"] as? [[String: Any]])
        #expect(animations.count == 1)
        #expect(animations.first?["id"] as? String == "drop")
        #expect(animations.first?["loop"] as? Bool == true && animations.first?["autoplay"] as? Bool == true)
        #expect(animations.first?["speed"] as? Int == 1 && animations.first?["direction"] as? Int == 1)
        // Deflated: a repetitive JSON shrinks.
        #expect(archive.count < json.utf8.count)
    }

    @Test func theBytesAreTheSameEveryTimeWithAFixedTimestamp() throws {
        let json = try document()
        let first = try DotLottieArchive.bytes(animation: json, id: "a")
        #expect(try DotLottieArchive.bytes(animation: json, id: "a") == first)
        // The first local file header (APPNOTE 4.3.7): signature PK\3\4, then version,
        // flags, method 8 (deflate) at offset 8, DOS time 0 and date 0x0021 (1980-01-01)
        // at offsets 10 and 12, little-endian; no extra field (length at offset 28).
        #expect(Array(first.prefix(4)) == [0x50, 0x4B, 0x03, 0x04])
        #expect(Array(first[8..<14]) == [8, 0, 0, 0, 0x21, 0])
        #expect(Array(first[28..<30]) == [0, 0])
    }

    @Test func theIdComesFromTheFileNameAsASafeEntryName() {
        #expect(DotLottieArchive.animationID(forOutput: "out/drop.lottie") == "drop")
        #expect(DotLottieArchive.animationID(forOutput: "Drop Zone.LOTTIE") == "Drop_Zone")
        #expect(DotLottieArchive.animationID(forOutput: "../é.lottie") == "_")
        #expect(DotLottieArchive.animationID(forOutput: ".lottie") == "animation")
    }
}
