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
