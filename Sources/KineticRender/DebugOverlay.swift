import KineticCairo
import KineticGeometry
import KineticLayers

/// `--debug`: every layer's bounds (as projected on screen) and its anchor point drawn
/// over the frame, like a view debugger — the way to see where layers really are.
enum DebugOverlay {
    static let boundsColor = Color(red: 1, green: 0.18, blue: 0.33, alpha: 0.9)
    static let anchorColor = Color(red: 0, green: 0.48, blue: 1, alpha: 0.95)

    static func draw(_ frame: SceneFrame, in ctx: CairoContext) {
        ctx.save()
        ctx.setLineWidth(1)
        ctx.setDash([4, 3], phase: 0)
        Layer.forEachCanvasProjection(frame.layers) { layer, toScene in
            guard !layer.isHidden else { return }
            let corners = layer.bounds.corners.map(toScene.apply(to:))
            ctx.newPath()
            ctx.move(to: corners[0])
            for c in corners.dropFirst() { ctx.line(to: c) }
            ctx.closePath()
            ctx.setSource(boundsColor)
            ctx.stroke()
        }
        ctx.setDash([], phase: 0)
        Layer.forEachCanvasProjection(frame.layers) { layer, toScene in
            guard !layer.isHidden else { return }
            ctx.newPath()
            ctx.arc(center: toScene.apply(to: layer.anchorInBounds), radius: 2.5, from: 0, to: 2 * .pi)
            ctx.setSource(anchorColor)
            ctx.fill()
        }
        ctx.restore()
    }
}
