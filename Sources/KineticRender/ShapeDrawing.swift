import KineticCairo
import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// CAShapeLayer: the path filled by its rule, then stroked; strokeStart/strokeEnd
    /// trim the stroke only, never the fill.
    func drawShape(_ style: ShapeStyle, alpha: Double, in ctx: CairoContext) {
        // The seed's debug drawing goes over the filled shape.
        defer { if let overlay = style.namedShape?.controlPoints { drawControlPoints(overlay, alpha: alpha, in: ctx) } }
        guard !style.path.isEmpty else { return }
        if let fill = style.fillColor, fill.alpha > 0 {
            ctx.save()
            ctx.newPath()
            Self.appendPath(style.path, to: ctx)
            ctx.setEvenOddFill(style.fillRule == .evenOdd)
            ctx.setSource(fill.multiplyingAlpha(alpha))
            ctx.fill()
            ctx.restore()
        }
        guard let stroke = style.strokeColor, stroke.alpha > 0, style.lineWidth > 0,
              let path = strokedPath(style) else { return }
        ctx.save()
        ctx.newPath()
        Self.appendPath(path, to: ctx)
        ctx.setLineWidth(style.lineWidth)
        ctx.setLineCap(style.lineCap)
        ctx.setLineJoin(style.lineJoin)
        ctx.setMiterLimit(style.miterLimit)
        if Self.isValidDashPattern(style.lineDashPattern) {
            ctx.setDash(style.lineDashPattern, phase: style.lineDashPhase)
        }
        ctx.setSource(stroke.multiplyingAlpha(alpha))
        ctx.stroke()
        ctx.restore()
    }

    /// The gooey circle's debug drawing, as the seed's drawInContext draws it: the outer
    /// square dashed 5/5, the 4-pt point squares filled, the helper lines dashed 2/2 —
    /// in black, one point wide.
    private func drawControlPoints(_ overlay: ControlPointsOverlay, alpha: Double, in ctx: CairoContext) {
        // The seed's order and colors: the dashed square, the points filled yellow
        // (UIColor.yellowColor), then the dashed helper lines over them, all in black ink.
        let ink = Color.black.multiplyingAlpha(alpha)
        let yellow = Color(red: 1, green: 1, blue: 0, alpha: 1).multiplyingAlpha(alpha)
        ctx.save()
        ctx.setLineWidth(1)
        func strokeDashed(_ path: BezierPath, _ dash: [Double]) {
            ctx.newPath()
            Self.appendPath(path, to: ctx)
            ctx.setSource(ink)
            ctx.setDash(dash, phase: 0)
            ctx.stroke()
        }
        strokeDashed(overlay.outerSquare, [5, 5])
        ctx.newPath()
        Self.appendPath(overlay.pointSquares, to: ctx)
        ctx.setSource(yellow)
        ctx.fill()
        strokeDashed(overlay.helperLines, [2, 2])
        ctx.restore()
    }

    /// The part of the path the stroke covers (trimmed by true arc length); nil when
    /// nothing is left, e.g. strokeStart ≥ strokeEnd, which Core Animation draws as no stroke.
    func strokedPath(_ style: ShapeStyle) -> BezierPath? {
        let path = style.path.trimmed(from: style.strokeStart, to: style.strokeEnd)
        return path.isEmpty ? nil : path
    }

    /// Core Graphics ignores a dash pattern with a negative length or no length at all
    /// (Cairo would fail on one), drawing a solid line.
    static func isValidDashPattern(_ pattern: [Double]) -> Bool {
        !pattern.isEmpty && pattern.allSatisfy { $0 >= 0 && $0.isFinite } && pattern.reduce(0, +) > 0
    }

    /// Adds a BezierPath's elements to the context's path; quadratics become the cubic
    /// that traces the same curve (Cairo draws cubics only).
    /// Static, as it needs nothing of the renderer: a closure calling it captures no copy of it.
    static func appendPath(_ path: BezierPath, to ctx: CairoContext) {
        var current: Point? = nil
        var subpathStart: Point? = nil
        for element in path.elements {
            switch element {
            case .move(let p):
                ctx.move(to: p); current = p; subpathStart = p
            case .line(let p):
                ctx.line(to: p); current = current ?? p; current = p
            case .quadCurve(let p, let c):
                let p0 = current ?? c
                if current == nil { ctx.move(to: p0) }
                ctx.curve(to: p, p0 + (c - p0) * (2.0 / 3.0), p + (c - p) * (2.0 / 3.0))
                current = p
            case .curve(let p, let c1, let c2):
                ctx.curve(to: p, c1, c2); current = p
            case .close:
                ctx.closePath(); current = subpathStart
            }
        }
    }
}
