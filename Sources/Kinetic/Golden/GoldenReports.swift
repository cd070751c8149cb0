import Foundation
import KineticEncode
import KineticGeometry

/// The outcome of one golden reference of a scene: a frame, the filmstrip or the state.
package struct GoldenCase {
    /// `error`: the scene could not be checked at all.
    package enum Status { case passed, failed, recorded, error }

    /// The scene's name.
    package var scene: String
    /// `frame 0007`, `filmstrip` or `state`.
    package var name: String
    package var status: Status
    /// The line's detail: the difference, or why it failed.
    package var message: String
    /// The reference file.
    package var goldenPath: String
    /// The images' difference, when both were there and of one size.
    package var difference: ImageDifference? = nil
    /// Where a state parts from its golden, key by key.
    package var stateParts: [StateDifference.Part] = []

    package init(scene: String, name: String, status: Status, message: String, goldenPath: String) {
        (self.scene, self.name, self.status, self.message, self.goldenPath) = (scene, name, status, message, goldenPath)
    }
}

/// `golden check --junit FILE`: JUnit XML as GitLab, Jenkins and GitHub's test reporters
/// read it — one test suite per scene, one test case per golden frame, filmstrip and
/// state file; a mismatch is a `<failure>` with the line the check printed.
package struct JUnitReport {
    private var suites: [(scene: String, cases: [GoldenCase])] = []

    package init() {}

    package mutating func add(_ c: GoldenCase) {
        if suites.last?.scene == c.scene { suites[suites.count - 1].cases.append(c) } else { suites.append((c.scene, [c])) }
    }

    /// Writes ``xml()`` to `path`, atomically.
    package func write(to path: String) throws {
        try AtomicFile.write(Array(xml().utf8), to: path)
    }

    package func xml() -> String {
        let all = suites.flatMap(\.cases)
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<testsuites name=\"kinetic golden check\" tests=\"\(all.count)\" failures=\"\(Self.count(.failed, all))\" errors=\"\(Self.count(.error, all))\">"]
        for suite in suites {
            lines.append("  <testsuite name=\"\(Self.escape(suite.scene))\" tests=\"\(suite.cases.count)\" failures=\"\(Self.count(.failed, suite.cases))\" "
                         + "errors=\"\(Self.count(.error, suite.cases))\" skipped=\"0\">")
            for c in suite.cases {
                let open = "    <testcase classname=\"golden.\(Self.escape(c.scene))\" name=\"\(Self.escape(c.name))\" file=\"\(Self.escape(c.goldenPath))\""
                switch c.status {
                case .passed:
                    lines.append(open + "/>")
                case .recorded:
                    lines.append(open + ">")
                    lines.append("      <system-out>\(Self.escape("recorded " + c.goldenPath + " (it did not exist)"))</system-out>")
                    lines.append("    </testcase>")
                case .failed, .error:
                    let (tag, type) = c.status == .failed ? ("failure", "golden mismatch") : ("error", "scene not checked")
                    lines.append(open + ">")
                    lines.append("      <\(tag) message=\"\(Self.escape(c.message))\" type=\"\(type)\">\(Self.escape("\(c.scene) \(c.name): \(c.message)"))</\(tag)>")
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func count(_ status: GoldenCase.Status, _ cases: [GoldenCase]) -> Int {
        cases.filter { $0.status == status }.count
    }

    /// Text as XML character data or an attribute value (quotes escaped too).
    package static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 has no escape for most control characters: they are dropped.
            case "\t", "\n", "\r": out.unicodeScalars.append(ch)
            default: if ch.value >= 0x20 { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}

/// `golden check --html DIR`: a static report, DIR/index.html with a summary table of
/// every case and, for each mismatching picture, the expected and actual images and
/// their diff, with a slider that wipes from one to the other. The images are PNGs beside
/// it (DIR/NAME/…); the page needs nothing else.
package struct HTMLReport {
    package let folder: String
    private var rows: [String] = []
    private var sections: [String] = []
    private var counts = (passed: 0, failed: 0, recorded: 0)

    package init(folder: String) throws {
        self.folder = folder
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw EncodeError.cannotWrite(path: folder, reason: error.localizedDescription)
        }
    }

    /// Adds a case; `images` are the actual and expected pictures of a mismatching frame
    /// or filmstrip, written now so memory holds none of them.
    package mutating func add(_ c: GoldenCase, images: (actual: PixelImage, expected: PixelImage?, diff: PixelImage)? = nil) throws {
        let status: String
        switch c.status {
        case .passed: status = "ok"; counts.passed += 1
        case .failed: status = "FAIL"; counts.failed += 1
        case .recorded: status = "recorded"; counts.recorded += 1
        case .error: status = "ERROR"; counts.failed += 1
        }
        let d = c.difference
        let anchor = Self.anchor(c)
        let name = c.status == .failed ? "<a href=\"#\(anchor)\">\(Self.escape(c.name))</a>" : Self.escape(c.name)
        rows.append("<tr class=\"\(status == "ok" ? "ok" : status == "recorded" ? "rec" : "fail")\"><td>\(Self.escape(c.scene))</td><td>\(name)</td><td>\(status)</td>"
                    + "<td>\(d.map { String(format: "%.3f %%", $0.differingShare * 100) } ?? "")</td>"
                    + "<td>\(d.map { "\($0.maxChannelDifference)" } ?? "")</td>"
                    + "<td>\(d.map { String(format: "%.4f", $0.ssim) } ?? "")</td>"
                    + "<td>\(Self.escape(c.status != .passed || d == nil ? c.message : ""))</td></tr>")
        guard c.status == .failed else { return }
        var section = "<section id=\"\(anchor)\"><h2>\(Self.escape(c.scene)) — \(Self.escape(c.name))</h2><p>\(Self.escape(c.message))</p>"
        if !c.stateParts.isEmpty {
            // Every key that parts, earliest first (the first 200).
            let parts = c.stateParts.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
            section += "<table><tr><th>key</th><th>first frame</th><th>time</th><th>golden</th><th>actual</th></tr>"
            for p in parts.prefix(200) {
                section += "<tr><td>\(Self.escape(p.key))</td><td>\(p.frame)</td><td>\(StateTable.decimal(p.time, digits: 3)) s</td>"
                    + "<td>\(Self.escape(p.golden))</td><td>\(Self.escape(p.actual))</td></tr>"
            }
            section += "</table>" + (parts.count > 200 ? "<p>… and \(parts.count - 200) more keys</p>" : "")
        }
        if let images {
            let base = GoldenFrames.join(Self.fileSafe(c.scene), Self.fileSafe(c.name))
            let actual = base + "-actual.png", expected = base + "-expected.png", diff = base + "-diff.png"
            try FileManager.default.createDirectory(atPath: GoldenFrames.join(folder, Self.fileSafe(c.scene)),
                                                    withIntermediateDirectories: true)
            try PNGWriter.write(images.actual, to: GoldenFrames.join(folder, actual))
            try PNGWriter.write(images.diff, to: GoldenFrames.join(folder, diff))
            if let e = images.expected {
                try PNGWriter.write(e, to: GoldenFrames.join(folder, expected))
                section += """
                <div class="compare" style="max-width:\(images.actual.width)px">
                <img src="\(expected)" alt="expected"><div class="top"><img src="\(actual)" alt="actual"></div>
                <input type="range" min="0" max="100" value="50" aria-label="expected ↔ actual">
                </div><p class="legend">left of the line: actual · right: expected</p>
                """
            }
            section += "<div class=\"panels\">"
            section += "<figure><img src=\"\(actual)\" alt=\"actual\"><figcaption>actual</figcaption></figure>"
            if images.expected != nil {
                section += "<figure><img src=\"\(expected)\" alt=\"expected\"><figcaption>expected</figcaption></figure>"
            }
            section += "<figure><img src=\"\(diff)\" alt=\"diff\"><figcaption>diff (red: over the tolerance, blue: within)</figcaption></figure></div>"
        }
        sections.append(section + "</section>")
    }

    /// Writes index.html (atomically).
    package func finish() throws {
        let page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>kinetic golden check</title>
        <style>
        body{font:14px system-ui,sans-serif;margin:24px;color:#222}
        table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left}
        tr.fail td{background:#fde8e8}tr.rec td{background:#fff6d5}
        .compare{position:relative;display:inline-block;line-height:0;width:100%}
        .compare img{width:100%;display:block;image-rendering:pixelated}
        .compare .top{position:absolute;top:0;left:0;height:100%;width:50%;overflow:hidden;border-right:2px solid #e33}
        .compare .top img{height:100%;width:auto;max-width:none}
        .compare input{position:absolute;left:0;bottom:-24px;width:100%}
        .legend{margin-top:28px;color:#666}.panels{display:flex;gap:12px;flex-wrap:wrap;margin-top:12px}
        figure{margin:0}figure img{max-width:360px;image-rendering:pixelated}
        </style></head><body>
        <h1>kinetic golden check</h1>
        <p>\(counts.passed) passed, \(counts.failed) failed, \(counts.recorded) recorded.</p>
        <table><tr><th>scene</th><th>golden</th><th>result</th><th>differing</th><th>max Δ</th><th>SSIM</th><th>detail</th></tr>
        \(rows.joined(separator: "\n"))
        </table>
        \(sections.joined(separator: "\n"))
        <script>
        for (const c of document.querySelectorAll('.compare')) {
          const top = c.querySelector('.top'), slider = c.querySelector('input');
          const img = top.querySelector('img');
          const fit = () => { img.style.width = c.clientWidth + 'px'; };
          slider.addEventListener('input', () => { top.style.width = slider.value + '%'; });
          window.addEventListener('resize', fit); fit();
        }
        </script>
        </body></html>

        """
        try AtomicFile.write(Array(page.utf8), to: GoldenFrames.join(folder, "index.html"))
    }

    private static func anchor(_ c: GoldenCase) -> String { fileSafe(c.scene) + "-" + fileSafe(c.name) }

    /// ASCII letters, digits, `-` and `_` kept, anything else `-`: a file name that
    /// cannot leave the report's folder.
    private static func fileSafe(_ s: String) -> String {
        String(s.unicodeScalars.map { ch -> Character in
            ch.isASCII && (ch.properties.isAlphabetic || ("0"..."9").contains(ch) || ch == "-" || ch == "_") ? Character(ch) : "-"
        })
    }

    package static func escape(_ s: String) -> String { JUnitReport.escape(s) }
}
