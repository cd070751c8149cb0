import KineticGeometry
import KineticLayers

/// What of a presentation tree Lottie cannot say, layer by layer: each problem names
/// the key that asks for it.
enum LottieRefusals {
    static func problems(in layers: [Layer]) -> [LottieProblem] {
        var out: [LottieProblem] = []
        func visit(_ layer: Layer) {
            let at = FrameFlattening.sourcePath(of: layer)
            if !layer.filters.isEmpty {
                out.append(LottieProblem(keyPath: at + ".filters", message: "Lottie has no blur a player draws on a layer"))
            }
            if !layer.backgroundFilters.isEmpty {
                out.append(LottieProblem(keyPath: at + ".backgroundFilters",
                                         message: "Lottie cannot filter what lies behind a layer"))
            }
            // A crisp one is each particle's, moved (FrameFlattening); a blurred one is of
            // the particles together, which the shadow's bands cannot follow.
            if layer.shadowOpacity > 0, layer.shadowColor.alpha > 0, !layer.masksToBounds, layer.emitter != nil,
               layer.shadowPath == nil, layer.shadowRadius >= ShadowBands.crispRadius {
                out.append(LottieProblem(keyPath: at + ".shadowRadius",
                                         message: "an emitter's blurred shadow is cast by its particles together, which Lottie cannot blur"))
            }
            if let mode = layer.compositingFilter {
                out.append(LottieProblem(keyPath: at + ".compositingFilter",
                                         message: "blend mode \(mode.rawValue) is outside Lottie 1.0 (and rlottie draws none)"))
            }
            out += ImageContents.problems(of: layer, at: at)
            if let g = layer.gradient, g.gradientType == .conic {
                out.append(LottieProblem(keyPath: at + ".gradientType", message: "Lottie has no conic gradient"))
            }
            if let e = layer.emitter {
                for (names, cell) in e.flattenedCells {
                    let cellPath = at + ".emitterCells." + names.joined(separator: ".")
                    if case .image? = cell.contents {
                        out.append(LottieProblem(keyPath: cellPath + ".contents", message: "image particles are not exported yet"))
                    } else if cell.contentsRect != Rect(0, 0, 1, 1) {
                        out.append(LottieProblem(keyPath: cellPath + ".contentsRect",
                                                 message: "a particle's part of its contents is not exported yet"))
                    }
                }
            }
            if let mask = layer.mask, !mask.sublayers.isEmpty {
                out.append(LottieProblem(keyPath: at + ".mask.sublayers",
                                         message: "a mask is exported as its own outline; its sublayers are not"))
            }
            for s in layer.sublayers { visit(s) }
        }
        layers.forEach(visit)
        return out
    }
}
