import Foundation
import Testing
@testable import KineticFiles

@Suite struct AssetPolicyTests {
    /// `icon.png` is found as UIImage(named:) finds it: the file itself, else the variant
    /// of the screen's scale, else `@3x`, else `@2x`.
    @Test func imageVariantsAreFoundInUIImageOrder() throws {
        try withFolder { folder in
            let png = PNGHeaderTests.png(width: 1, height: 1, chunks: [("IDAT", 2, [0, 0])])
            func write(_ name: String) throws { try Data(png).write(to: URL(fileURLWithPath: folder + "/" + name)) }
            func found(atScale scale: Double) -> String? {
                let path = try? AssetPolicy().resolveImage("icon.png", baseDirectory: folder, deviceScale: scale).get()
                return path.map { ($0 as NSString).lastPathComponent }
            }
            let none = AssetPolicy().resolveImage("icon.png", baseDirectory: folder, deviceScale: 2)
            guard case .failure(.missing(let path)) = none else { Issue.record("no file: the plain name is missing"); return }
            #expect(path == folder + "/icon.png")
            try write("icon@2x.png")
            #expect(found(atScale: 3) == "icon@2x.png")
            try write("icon@3x.png")
            #expect(found(atScale: 2) == "icon@2x.png")
            #expect(found(atScale: 3) == "icon@3x.png")
            #expect(found(atScale: 1) == "icon@3x.png")
            try write("icon@4x.png")
            #expect(found(atScale: 4.2) == "icon@4x.png")
            try write("icon.png")
            #expect(found(atScale: 3) == "icon.png")
        }
    }
}
