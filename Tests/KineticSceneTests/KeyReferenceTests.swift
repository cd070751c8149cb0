import Foundation
import KineticLayers
import Testing
@testable import KineticScene

/// docs/keys.md is generated from the schema tables; the committed file must be what
/// they generate now (`KINETIC_UPDATE_DOCS=1` rewrites it), and so must
/// docs/kinetic.schema.json be what `kinetic schema` prints.
@Suite struct KeyReferenceTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    static func check(_ name: String, _ generated: String) throws {
        let url = docs.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["KINETIC_UPDATE_DOCS"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == generated, "docs/\(name) is not what the tables generate: run KINETIC_UPDATE_DOCS=1 swift test --filter KeyReferenceTests")
    }

    @Test func theKeyReferenceIsGenerated() throws {
        try Self.check("keys.md", KeyReference.markdown())
    }

    @Test func theJSONSchemaIsGenerated() throws {
        try Self.check("kinetic.schema.json", SceneSchema.json())
    }

    @Test func theReferenceListsEveryKeyOfTheTables() {
        let text = KeyReference.markdown()
        for name in LayerSchema.standard.fileKeys(ownedBy: nil) + LayerSchema.standard.fileKeys(ownedBy: [.shape])
                    + LayerDecoder.emitterCellKeys + AnimationDecoder.keys {
            #expect(text.contains("| `\(name)`"), "\(name)")
        }
        #expect(text.contains("| `transform.rotation.z`, `transform.rotation` |"))
    }
}
