import Foundation

/// One element of an SVG document as the scene loader's XML reader gives it: what the
/// path import reads, independent of the XML library.
public struct SVGElement: Hashable, Sendable {
    /// The local name (`path`, `g`, …).
    public var name: String
    /// True when the element is in the SVG namespace (or in none): elements of editors'
    /// own namespaces (Inkscape's, Sketch's) draw nothing and are skipped.
    public var isSVG: Bool
    /// Attributes by name as written (`xlink:href` keeps its prefix).
    public var attributes: [String: String]
    /// The element's line in the SVG file, for messages.
    public var line: Int
    public var children: [SVGElement]
    /// The text of a `<style>` element (a style sheet); other elements' text is not kept.
    public var text: String

    public init(name: String, isSVG: Bool = true, attributes: [String: String] = [:], line: Int = 1,
                children: [SVGElement] = [], text: String = "") {
        self.name = name; self.isSVG = isSVG; self.attributes = attributes; self.line = line
        self.children = children; self.text = text
    }

    public subscript(attribute: String) -> String? { attributes[attribute] }

    /// A presentation property (`fill-rule`, `display`) as the element sets it: its
    /// `style` declaration wins over its attribute, as CSS ranks them.
    public func property(_ name: String) -> String? {
        if let style = attributes["style"] {
            for declaration in style.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].replacingOccurrences(of: "!important", with: "").trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return attributes[name]?.trimmingCharacters(in: .whitespaces)
    }

    /// Every element of the subtree, depth first, the element itself first.
    public var subtree: [SVGElement] { [self] + children.flatMap(\.subtree) }
}

/// Why an SVG's geometry cannot be imported, at the SVG's own line when one element is
/// to blame.
public struct SVGError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int?

    public init(_ message: String, line: Int? = nil) { self.message = message; self.line = line }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

extension SVGElement {
    /// The first reference of the subtree to anything outside the file — an `href` or a
    /// `url(…)` that is neither a fragment (`#id`) nor a `data:` URL, a CSS `@import` — and
    /// the line it is on. Drawn as contents, an SVG may only use what it holds.
    public var externalReference: (reference: String, line: Int)? {
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
