import Foundation

/// SVG's `fill-rule` values.
public enum SVGFillRule: String, Hashable, Sendable { case nonzero, evenodd }

/// The geometry `path: {svg: FILE}` takes from an SVG document: every shape element's
/// outline in document order, through its own and its groups' transforms, mapped from
/// the root's `viewBox` into a box.
public struct SVGPathImport: Hashable, Sendable {
    public var path: BezierPath
    /// The `fill-rule` each imported shape is filled with (inherited as SVG inherits it):
    /// one value when they agree.
    public var fillRules: Set<SVGFillRule>

    /// Elements that draw but are not shapes: importing them would lose what they draw.
    static let refused: [String: String] = [
        "use": "a <use> reference", "text": "text", "tspan": "text", "textPath": "text",
        "image": "an image", "foreignObject": "a foreignObject",
    ]
    /// Containers whose children are drawn; every other element (defs, symbol, clipPath,
    /// mask, gradients, metadata…) draws nothing by itself and is skipped.
    static let containers: Set<String> = ["svg", "g", "a"]

    /// The import of `root` (an `<svg>` element).
    /// - Parameters:
    ///   - id: take only the element with this `id` (a group: everything under it), placed
    ///     as the document places it.
    ///   - box: where the root's viewBox goes (the layer's bounds), per its
    ///     `preserveAspectRatio`. nil or empty: the SVG's own size (`width` × `height`, else
    ///     the viewBox's), at the origin; with neither, user units are points.
    public init(_ root: SVGElement, element id: String? = nil, into box: Rect?) throws(SVGError) {
        guard root.name == "svg", root.isSVG else {
            throw SVGError("the document's root element is <\(root.name)>, not <svg>", line: root.line)
        }
        let viewBox = try SVGViewBox(of: root)
        let ownSize = try root.intrinsicSize()
        // Without a viewBox the artboard (0, 0, width, height) is what is mapped.
        var mapped = viewBox
        if mapped == nil, let size = ownSize {
            mapped = SVGViewBox(Rect(0, 0, size.width, size.height), aspectRatio: try Self.aspectRatio(of: root))
        }
        let destination = box.flatMap { $0.isEmpty ? nil : $0 } ?? ownSize.map { Rect(0, 0, $0.width, $0.height) }
        var state = State(matrix: .identity, viewport: mapped?.rect.size ?? destination?.size ?? .zero, fillRule: .nonzero)
        if let mapped, let destination { state.matrix = mapped.transform(into: destination) }

        var chain = [root]
        if let id {
            guard let found = Self.chain(to: id, from: root) else {
                let ids = root.subtree.compactMap { $0["id"] }
                let known = ids.isEmpty ? "the file has no ids" : "ids: " + ids.prefix(12).joined(separator: ", ")
                    + (ids.count > 12 ? ", …" : "")
                throw SVGError("no element with id '\(id)' (\(known))")
            }
            chain = found
        }
        // The selected element's ancestors pass on their transforms and fill rules.
        for (i, e) in chain.dropLast().enumerated() { state = try state.entering(e, isRoot: i == 0) }
        var result = SVGPathImport(path: BezierPath(), fillRules: [])
        let target = chain[chain.count - 1]
        try result.collect(target, state: state, selected: true, isRoot: chain.count == 1)
        guard !result.path.isEmpty else {
            throw SVGError(id.map { "element '\($0)' has no shapes to import" }
                           ?? "the SVG has no shapes (path, rect, circle, ellipse, line, polyline, polygon)",
                           line: target.line)
        }
        self = result
    }

    private init(path: BezierPath, fillRules: Set<SVGFillRule>) { self.path = path; self.fillRules = fillRules }

    static func aspectRatio(of e: SVGElement) throws(SVGError) -> SVGAspectRatio {
        do { return try e["preserveAspectRatio"].map(SVGAspectRatio.init(parsing:)) ?? SVGAspectRatio() } catch {
            throw SVGError(error.message, line: e.line)
        }
    }

    /// The elements from `root` down to the one with `id`, depth first.
    static func chain(to id: String, from root: SVGElement) -> [SVGElement]? {
        if root["id"] == id { return [root] }
        for child in root.children {
            if let rest = chain(to: id, from: child) { return [root] + rest }
        }
        return nil
    }

    /// Appends the shapes of `e`'s subtree. The `selected` element itself is taken even
    /// when hidden or inside `<defs>`: naming it says it is wanted.
    private mutating func collect(_ e: SVGElement, state: State, selected: Bool = false,
                                  isRoot: Bool = false) throws(SVGError) {
        guard e.isSVG else { return }
        if !selected, e.property("display") == "none" { return }
        if let what = Self.refused[e.name] {
            throw SVGError("<\(e.name)> (\(what)) cannot become a path: convert it to outlines in the editor "
                           + "(Object to Path, Flatten, Outline Stroke)", line: e.line)
        }
        guard SVGElement.shapeNames.contains(e.name) || Self.containers.contains(e.name) || selected else { return }
        let s = try state.entering(e, isRoot: isRoot)
        if SVGElement.shapeNames.contains(e.name) {
            guard let shape = try e.shapePath(viewport: s.viewport) else { return }
            path.append(shape.applying(s.matrix))
            fillRules.insert(s.fillRule)
        } else {
            for child in e.children { try collect(child, state: s) }
        }
    }

    /// What an element inherits: the matrix to the destination, the nearest viewport's
    /// size (what percentages refer to) and the fill rule.
    struct State {
        var matrix: Transform3D
        var viewport: Size
        var fillRule: SVGFillRule

        /// The state inside `e`: its fill rule, its transform (applied before its
        /// ancestors'), and for a nested `<svg>` its own viewport.
        func entering(_ e: SVGElement, isRoot: Bool) throws(SVGError) -> State {
            var s = self
            if let rule = e.property("fill-rule"), rule != "inherit" {
                guard let r = SVGFillRule(rawValue: rule) else {
                    throw SVGError("fill-rule '\(rule)' is neither nonzero nor evenodd", line: e.line)
                }
                s.fillRule = r
            }
            if let text = e["transform"] {
                do { s.matrix = try SVGTransformList.parse(text).concatenating(s.matrix) } catch {
                    throw SVGError(error.message, line: e.line)
                }
            }
            if e.name == "svg", !isRoot {
                // A nested viewport: x, y, width, height (100 % by default) of the parent's.
                func length(_ name: String, _ reference: Double, _ fallback: Double) throws(SVGError) -> Double {
                    guard let text = e[name] else { return fallback }
                    do { return try SVGLength.parse(text, percentOf: reference, attribute: name) } catch {
                        throw SVGError(error.message, line: e.line)
                    }
                }
                let frame = Rect(try length("x", viewport.width, 0), try length("y", viewport.height, 0),
                                 try length("width", viewport.width, viewport.width),
                                 try length("height", viewport.height, viewport.height))
                if let viewBox = try SVGViewBox(of: e) {
                    s.matrix = viewBox.transform(into: frame).concatenating(s.matrix)
                    s.viewport = viewBox.rect.size
                } else {
                    s.matrix = Transform3D.translation(frame.minX, frame.minY).concatenating(s.matrix)
                    s.viewport = frame.size
                }
            }
            return s
        }
    }
}
