import Foundation

/// A particle image pre-scaled to one size: premultiplied samples 0…1 with a one-pixel
/// transparent border (so bilinear sampling fades out at the edges, antialiasing them).
/// `channels` is 1 for a single-colour image (coverage only; `color` is its colour) and 4
/// for a many-coloured one (premultiplied B, G, R, A, as ARGB32 stores them).
struct Sprite {
    var width: Int
    var height: Int
    var channels: Int
    var samples: [Float]
    /// The image's colour when `channels` is 1 (straight, 0…1).
    var color: (r: Float, g: Float, b: Float)
    /// Sprite pixels per content point.
    var pixelsPerPoint: Double
}

/// Draws sprites into an ARGB32 pixel buffer through an affine map with bilinear sampling,
/// tinted by a colour (multiplied, as CAEmitterCell's `color` multiplies its contents).
/// Straight loops over the covered pixels only: no allocation, no per-particle Cairo call.
struct SpriteCompositor {
    let pixels: UnsafeMutablePointer<UInt32>
    let wordsPerRow: Int
    let width: Int
    let height: Int
    /// `additive` adds colours (CAEmitterLayer's additive mode); otherwise source-over.
    let additive: Bool

    /// Draws `sprite` with `map` taking sprite pixel coordinates to buffer pixel
    /// coordinates (a, b, c, d, tx, ty as CGAffineTransform), tinted by straight `tint`.
    func draw(_ sprite: Sprite, map m: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double),
              tint: (r: Float, g: Float, b: Float, a: Float)) {
        let det = m.a * m.d - m.b * m.c
        guard det != 0, det.isFinite, tint.a > 0 else { return }
        let sw = Double(sprite.width), sh = Double(sprite.height)
        // The sprite's corners on the buffer give the rows and columns to visit.
        let ax = m.a * sw, cx = m.c * sh, by = m.b * sw, dy = m.d * sh
        let minX = m.tx + min(0, ax) + min(0, cx), maxX = m.tx + max(0, ax) + max(0, cx)
        let minY = m.ty + min(0, by) + min(0, dy), maxY = m.ty + max(0, by) + max(0, dy)
        guard minX < Double(width), maxX > 0, minY < Double(height), maxY > 0 else { return }
        let x0 = max(0, Int(minX.rounded(.down))), x1 = min(width, Int(maxX.rounded(.up)))
        let y0 = max(0, Int(minY.rounded(.down))), y1 = min(height, Int(maxY.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        // The inverse map: buffer pixel → sprite pixel.
        let ia = m.d / det, ib = -m.b / det, ic = -m.c / det, id = m.a / det
        let itx = -(ia * m.tx + ic * m.ty), ity = -(ib * m.tx + id * m.ty)
        // Samples sit at pixel centres: sprite coordinate u maps to sample u − 0.5.
        let umax = sw - 1, vmax = sh - 1
        let tintR = tint.r * tint.a, tintG = tint.g * tint.a, tintB = tint.b * tint.a, tintA = tint.a
        let single = sprite.channels == 1
        let cr = sprite.color.r * tintR, cg = sprite.color.g * tintG, cb = sprite.color.b * tintB
        let sprW = sprite.width
        sprite.samples.withUnsafeBufferPointer { samples in
            guard let s = samples.baseAddress else { return }
            for y in y0..<y1 {
                let py = Double(y) + 0.5
                // u(x) and v(x) along the row; keep the x where 0 ≤ u < umax and 0 ≤ v < vmax.
                let u0 = ia * (Double(x0) + 0.5) + ic * py + itx - 0.5
                let v0 = ib * (Double(x0) + 0.5) + id * py + ity - 0.5
                var lo = 0.0, hi = Double(x1 - x0)
                func clip(_ start: Double, _ step: Double, _ limit: Double) {
                    if step == 0 {
                        if !(start >= 0 && start < limit) { hi = -1 }
                    } else {
                        let t0 = (0 - start) / step, t1 = (limit - start) / step
                        lo = max(lo, min(t0, t1)); hi = min(hi, max(t0, t1))
                    }
                }
                clip(u0, ia, umax)
                clip(v0, ib, vmax)
                guard hi > lo else { continue }
                let start = max(0, Int(lo.rounded(.up))), end = min(x1 - x0, Int(hi.rounded(.up)))
                guard start < end else { continue }
                let row = pixels + y * wordsPerRow + x0
                var u = u0 + ia * Double(start), v = v0 + ib * Double(start)
                for x in start..<end {
                    defer { u += ia; v += ib }
                    // Rounding at the span's ends can step a hair outside: clamp.
                    let uc = min(max(u, 0), umax - 1e-9), vc = min(max(v, 0), vmax - 1e-9)
                    let iu = Int(uc), iv = Int(vc)
                    let fu = Float(uc - Double(iu)), fv = Float(vc - Double(iv))
                    let w00 = (1 - fu) * (1 - fv), w10 = fu * (1 - fv), w01 = (1 - fu) * fv, w11 = fu * fv
                    var sr: Float, sg: Float, sb: Float, sa: Float
                    if single {
                        let k = iv * sprW + iu
                        let cov = s[k] * w00 + s[k + 1] * w10 + s[k + sprW] * w01 + s[k + sprW + 1] * w11
                        guard cov > 0 else { continue }
                        sr = cr * cov; sg = cg * cov; sb = cb * cov; sa = tintA * cov
                    } else {
                        let k = (iv * sprW + iu) * 4, k2 = k + sprW * 4
                        func lerp(_ o: Int) -> Float { s[k + o] * w00 + s[k + 4 + o] * w10 + s[k2 + o] * w01 + s[k2 + 4 + o] * w11 }
                        sa = lerp(3) * tintA
                        guard sa > 0 else { continue }
                        sb = lerp(0) * tintB; sg = lerp(1) * tintG; sr = lerp(2) * tintR
                    }
                    let d = row[x]
                    let db = Float(d & 0xFF), dg = Float((d >> 8) & 0xFF), dr = Float((d >> 16) & 0xFF), da = Float(d >> 24)
                    let keep: Float = additive ? 1 : 1 - sa
                    func out(_ src: Float, _ dst: Float) -> UInt32 { UInt32(min(255, src * 255 + dst * keep + 0.5)) }
                    row[x] = out(sb, db) | out(sg, dg) << 8 | out(sr, dr) << 16 | out(sa, da) << 24
                }
            }
        }
    }
}
