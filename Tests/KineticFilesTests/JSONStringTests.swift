import Foundation
import KineticFiles
import Testing

/// The one JSON string writer against Foundation's JSONSerialization, an independent
/// encoder: the same bytes for every ASCII scalar and a few beyond, and read back whole.
struct JSONStringTests {
    static let samples: [String] = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + [
        "a/b", "q\"b\\", "é😀", "\u{2028}", "line\nbreak\ttab", "", "layer.position.x",
    ]

    @Test func matchesJSONSerialization() throws {
        for s in Self.samples {
            let data = try JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
            let reference = String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
            #expect(JSONString.quoted(s) == reference, "\(s.unicodeScalars.map(\.value))")
        }
    }

    @Test func readsBack() throws {
        for s in Self.samples {
            let parsed = try JSONSerialization.jsonObject(with: Data(JSONString.quoted(s).utf8), options: [.fragmentsAllowed])
            #expect(parsed as? String == s)
        }
    }

    @Test func appendsToADocument() {
        var out = "["
        JSONString.append("x\u{1}", to: &out)
        #expect(out == #"["x\u0001""#)
    }
}
