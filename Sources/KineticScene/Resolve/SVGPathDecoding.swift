import KineticGeometry
import KineticLayers

extension Field {
    /// `{svg: FILE}` or `{svg: FILE, element: ID}` (section 3.0.2): the file's shapes, or
    /// the one element's, mapped into `box` (see `SVGPathImport`). A file that cannot be
    /// read and geometry that cannot be imported are reported at `svg` (an unknown id at
    /// `element`), with the SVG's own line.
    func svgImport(in box: Rect?) -> SVGPathImport? {
        guard let m = mapping(allowed: SceneKeys.svgPath.map(\.name)), let fileField = m.required("svg"),
              let name = fileField.string else { return nil }
        let id = m["element"]?.string
        guard m["element"] == nil || id != nil else { return nil }
        let loaded = diagnostics.svgFiles.document(name)
        if case .failure(let problem) = loaded { fileField.report(problem.message) }
        guard case .success(let document) = loaded else { return nil }
        do {
            return try SVGPathImport(document.root, element: id, into: box)
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
