import KineticGeometry
import KineticLayers

extension Field {
    /// `{svg: FILE}` or `{svg: FILE, element: ID}` (section 3.0.2): the file's shapes, or
    /// the one element's, mapped into `box` (see `SVGPathImport`). A file that cannot be
    /// read and geometry that cannot be imported are reported at `svg` (an unknown id at
    /// `element`), with the SVG's own line.
    func svgImport(in box: Rect?) -> SVGPathImport? {
        guard let m = mapping(allowed: ["svg", "element"]), let fileField = m.required("svg"),
              let name = fileField.string else { return nil }
        let id: String?
        if let f = m["element"] {
            guard let s = f.string else { return nil }
            id = s
        } else {
            id = nil
        }
        let document: SVGElement
        switch diagnostics.svgFiles.document(name) {
        case .success(let d): document = d.root
        case .failure(let problem):
            fileField.report(problem.message)
            return nil
        }
        do {
            return try SVGPathImport(document, element: id, into: box)
        } catch {
            let place = error.line.map { "SVG file '\(name)', line \($0)" } ?? "SVG file '\(name)'"
            (error.line == nil && id != nil ? m["element"] ?? fileField : fileField).report("\(place): \(error.message)")
            return nil
        }
    }

    /// The fill rule an SVG path's shapes bring to a shape layer that sets none: their
    /// one `fill-rule`. Shapes of both rules cannot be one path's fill: reported, as the
    /// layer must choose.
    func fillRule(of imported: SVGPathImport) -> FillRule? {
        guard imported.fillRules.count == 1, let rule = imported.fillRules.first else {
            report("the SVG's shapes use both nonzero and evenodd fill-rule: set fillRule on the layer, or take one "
                   + "element with 'element:'")
            return nil
        }
        return rule == .evenodd ? .evenOdd : .nonZero
    }
}
