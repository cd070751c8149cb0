import Foundation
import KineticFiles
import KineticGeometry

/// The SVG files one scene reads — as paths (`path: {svg: FILE}`) and as contents
/// (`contents: FILE.svg`) — each resolved under the asset policy and parsed once. A
/// class because every reader of the scene file shares it (through `Diagnostics`).
final class SVGFiles {
    let baseDirectory: String
    let policy: AssetPolicy
    /// Each file's document or the message saying why it cannot be read, by name as written.
    private var documents: [String: Result<(path: String, root: SVGElement), SVGFileProblem>] = [:]

    init(baseDirectory: String = ".", policy: AssetPolicy = AssetPolicy()) {
        self.baseDirectory = baseDirectory
        self.policy = policy
    }

    /// The resolved paths of the files read, for `Scene.assets` (the preview watches them).
    var paths: Set<String> {
        Set(documents.values.compactMap { if case .success(let d) = $0 { d.path } else { nil } })
    }

    /// The document element of SVG file `name`, or why it cannot be read.
    func document(_ name: String) -> Result<(path: String, root: SVGElement), SVGFileProblem> {
        if let known = documents[name] { return known }
        let result = read(name)
        documents[name] = result
        return result
    }

    private func read(_ name: String) -> Result<(path: String, root: SVGElement), SVGFileProblem> {
        let path: String
        switch policy.resolve(name, baseDirectory: baseDirectory, kind: .svg) {
        case .success(let p): path = p
        case .failure(let problem): return .failure(SVGFileProblem(problem.message(for: name, kind: .svg)))
        }
        let bytes: [UInt8]
        do throws(FileProblem) {
            bytes = try GuardedFile(path: path, maxBytes: policy.maxSVGBytes).readAll()
        } catch {
            return .failure(SVGFileProblem("cannot read SVG file '\(name)': \(error.reason)"))
        }
        do {
            return .success((path, try LibXML2.parse(bytes, maxElements: policy.maxSVGElements)))
        } catch {
            return .failure(SVGFileProblem("SVG file '\(name)', \(error.description)"))
        }
    }
}

/// Why an SVG file cannot be used, as the loader reports it.
struct SVGFileProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension SVGElement {
    /// The first reference of the subtree to anything outside the file — an `href` or a
    /// `url(…)` that is neither a fragment (`#id`) nor a `data:` URL, a CSS `@import` — and
    /// the line it is on. Drawn as contents, an SVG may only use what it holds.
    var externalReference: (reference: String, line: Int)? {
        for e in subtree {
            // A link's target is never loaded: only where it leads when clicked.
            for (name, value) in e.attributes.sorted(by: { $0.key < $1.key }) where e.name != "a" {
                if name == "href" || name.hasSuffix(":href") {
                    let v = value.trimmingCharacters(in: .whitespaces)
                    if !v.hasPrefix("#") && !v.lowercased().hasPrefix("data:") { return (value, e.line) }
                }
                if let url = Self.externalURL(in: value) { return (url, e.line) }
            }
            if e.name == "style" {
                if e.text.range(of: "@import", options: .caseInsensitive) != nil { return ("@import", e.line) }
                if let url = Self.externalURL(in: e.text) { return (url, e.line) }
            }
        }
        return nil
    }

    /// The first `url(…)` in `text` that is not a fragment reference.
    private static func externalURL(in text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.range(of: "url(", options: .caseInsensitive) {
            let inside = rest[open.upperBound...].drop { $0 == " " || $0 == "\"" || $0 == "'" }
            if !inside.hasPrefix("#") { return String(rest[open.lowerBound...].prefix(60)) }
            rest = rest[open.upperBound...]
        }
        return nil
    }
}
