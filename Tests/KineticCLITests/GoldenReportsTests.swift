import Foundation
import Kinetic
#if canImport(FoundationXML)
import FoundationXML
#endif
import KineticGeometry
import Testing
@testable import KineticCLI

@Suite struct GoldenReportsTests {
    /// Counts the elements of an XML document with an independent parser; nil when it is
    /// not well-formed.
    private final class ElementCounter: NSObject, XMLParserDelegate {
        var names: [String] = []
        var attributes: [[String: String]] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            names.append(name)
            self.attributes.append(attributes)
        }
    }

    @Test func junitIsWellFormedWhateverTheMessagesHold() throws {
        var report = JUnitReport()
        let odd = "a <b> & \"c\" 'd' \u{1}e"
        report.add(GoldenCase(scene: "s", name: "frame 0000", status: .passed, message: "", goldenPath: "g/s/frame-0000.png"))
        report.add(GoldenCase(scene: "s", name: "state", status: .failed, message: odd, goldenPath: "g/s/state.jsonl"))
        report.add(GoldenCase(scene: "t&u", name: "scene", status: .error, message: "broken", goldenPath: "scenes/t&u.yaml"))
        let counter = ElementCounter()
        let parser = XMLParser(data: Data(report.xml().utf8))
        parser.delegate = counter
        #expect(parser.parse())
        #expect(counter.names == ["testsuites", "testsuite", "testcase", "testcase", "failure", "testsuite", "testcase", "error"])
        #expect(counter.attributes[0]["tests"] == "3" && counter.attributes[0]["failures"] == "1" && counter.attributes[0]["errors"] == "1")
        // The control character is dropped (XML 1.0 cannot hold it); the rest comes back as written.
        #expect(counter.attributes[4]["message"] == "a <b> & \"c\" 'd' e")
        #expect(counter.attributes[5]["name"] == "t&u")
    }

    @Test func htmlNamesItsPicturesSafelyAndReferencesOnlyThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var report = try HTMLReport(folder: folder.file("report"))
        let image = PixelImage(width: 4, height: 3)
        let c = GoldenCase(scene: "../evil name", name: "frame 0007", status: .failed, message: "differing <1 %", goldenPath: "g")
        try report.add(c, images: (image, image, image))
        try report.finish()
        let page = try String(contentsOfFile: folder.file("report/index.html"), encoding: .utf8)
        let sources = page.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(Set(sources) == ["---evil-name/frame-0007-actual.png", "---evil-name/frame-0007-expected.png",
                                 "---evil-name/frame-0007-diff.png"])
        for s in sources { #expect(FileManager.default.fileExists(atPath: folder.file("report/" + s))) }
        #expect(page.contains("differing &lt;1 %") && page.contains("type=\"range\""))
    }
}
