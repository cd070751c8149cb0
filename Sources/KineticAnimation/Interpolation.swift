import Foundation
import KineticGeometry

/// How Core Animation blends and accumulates `AnimatableValue`s.
///
/// Numbers, points, sizes, rects, colors (straight sRGB, as CA blends CGColors), number
/// arrays and color arrays blend component by component; paths blend control point by
/// control point when their element kinds match; transforms blend their decomposed
/// components. Every continuous blend extrapolates for u outside 0…1 (springs overshoot).
public enum Interpolation {
    /// The value a fraction `u` of the way from `a` to `b`: `a` at 0, `b` at 1.
    ///
    /// Nil when the kinds differ, when arrays differ in count, or when paths differ in
    /// structure (`BezierPath.structure`).
    ///
    /// - Transforms: decomposed and the parts blended, as CA does, so a rotation turns
    ///   instead of shrinking through the matrix average. When both matrices are of the
    ///   2D named form (`Transform3D.components` reproduces them with no x or y rotation)
    ///   the parts are scale, z rotation (the shorter way round, under 180°), translation
    ///   and m34; otherwise they are `Transform3D.Decomposed`'s (translation, scale, skew
    ///   and perspective blended linearly, the rotation quaternion by slerp, the shorter
    ///   way), so a card flip under perspective turns in perspective. Only matrices that
    ///   do not decompose (singular: scaled to 0, flattened along z) blend their 16
    ///   entries.
    /// - `bool` and `image` are discrete: `a` for u < 0.5, else `b`. CA computes no
    ///   intermediate value for `hidden` or `contents`; its renderer cross-fades
    ///   contents, which no single value can express, so the timeline keeps both images
    ///   for a `contents` animation (`Layer.contentsCrossFade`) and does not come here.
    public static func lerp(_ a: AnimatableValue, _ b: AnimatableValue, _ u: Double) -> AnimatableValue? {
        guard a.kind == b.kind else { return nil }
        if a.kind.isDiscrete { return u < 0.5 ? a : b }
        guard let form = LinearForm(values: [a, b]) else { return nil }
        return form.value(blending: 0, 1, u)
    }

    /// `a + b`, as `byValue` and `additive` animations accumulate.
    ///
    /// Numbers, points, sizes, rects, number arrays, colors and color arrays add component
    /// by component (colors are not clamped here; the renderer clamps). Transforms
    /// concatenate with `b` applied first, in `a`'s local frame —
    /// `CATransform3DConcat(b, a)` — so a `by:` rotation turns the layer about its own
    /// anchor point even when `a` translates it. Paths, booleans and images do not add:
    /// nil, as is a kind or count mismatch.
    public static func add(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        combine(a, b, transform: { a, b in b.concatenating(a) }, vector: +)
    }

    /// `a − b`, the inverse of `add` (`add(subtract(a, b), b) == a`): the `from` of a
    /// `by:` + `to:` animation. Transforms give `b⁻¹ · a`, nil when `b` is singular.
    public static func subtract(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        combine(a, b, transform: { a, b in inverse(of: b).map { $0.concatenating(a) } }, vector: -)
    }

    private static func combine(_ a: AnimatableValue, _ b: AnimatableValue,
                                transform: (Transform3D, Transform3D) -> Transform3D?,
                                vector: (Double, Double) -> Double) -> AnimatableValue? {
        switch (a, b) {
        case (.transform(let x), .transform(let y)): return transform(x, y).map { .transform($0) }
        case (.path, _), (.bool, _), (.image, _): return nil
        default:
            guard a.kind == b.kind, let form = LinearForm(values: [a, b]) else { return nil }
            return form.rebuild(zip(form.vectors[0], form.vectors[1]).map(vector))
        }
    }

    /// The inverse matrix (Gauss–Jordan with partial pivoting), nil when singular.
    private static func inverse(of m: Transform3D) -> Transform3D? {
        let f = m.fields
        var a = (0..<4).map { r in Array(f[(r * 4)..<(r * 4 + 4)]) + (0..<4).map { $0 == r ? 1.0 : 0.0 } }
        for col in 0..<4 {
            guard let pivot = (col..<4).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
                  abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            let p = a[col][col]
            a[col] = a[col].map { $0 / p }
            for r in 0..<4 where r != col {
                let k = a[r][col]
                if k != 0 { a[r] = zip(a[r], a[col]).map { $0 - k * $1 } }
            }
        }
        return Transform3D(fields: a.flatMap { Array($0[4..<8]) })
    }

    static func lerpVectors(_ a: [Double], _ b: [Double], _ u: Double) -> [Double] {
        zip(a, b).map { x, y in x + (y - x) * u }
    }
}

/// Values of one continuous kind flattened to vectors of equal length, so blending,
/// splines and distances work on plain numbers; `rebuild` turns a vector back into a
/// value of the same kind (and, for paths, the same structure). Sendable, so a
/// `KeyframeAnimation.Validated` can keep the form of its values.
struct LinearForm: Sendable {
    let vectors: [[Double]]
    let rebuild: @Sendable ([Double]) -> AnimatableValue
    /// How two of the vectors blend, `a` at 0 and `b` at 1: straight (`lerpVectors`)
    /// except for transforms in `Transform3D.Decomposed` form, whose rotation quaternion
    /// is slerped. Splines (`cubic` keyframes) work on the vectors component-wise and
    /// leave it to `rebuild` to normalise the quaternion.
    private(set) var blend: @Sendable ([Double], [Double], Double) -> [Double] = Interpolation.lerpVectors

    /// The value a fraction `u` of the way from `vectors[a]` to `vectors[b]`, by `blend`.
    func value(blending a: Int, _ b: Int, _ u: Double) -> AnimatableValue {
        rebuild(blend(vectors[a], vectors[b], u))
    }

    /// Nil when the values are of different or discrete kinds, or do not share a shape.
    init?(values: [AnimatableValue]) {
        guard let first = values.first, values.allSatisfy({ $0.kind == first.kind }),
              !first.kind.isDiscrete else { return nil }
        switch first {
        case .number, .point, .size, .rect, .color:
            vectors = values.map(Self.fixedVector)
            rebuild = { Self.fixedValue(like: first, $0) }
        case .numbers(let n0):
            var vs: [[Double]] = []
            for v in values { guard case .numbers(let n) = v, n.count == n0.count else { return nil }; vs.append(n) }
            vectors = vs
            rebuild = { .numbers($0) }
        case .colors(let c0):
            var vs: [[Double]] = []
            for v in values {
                guard case .colors(let c) = v, c.count == c0.count else { return nil }
                vs.append(c.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] })
            }
            vectors = vs
            rebuild = { v in
                .colors(stride(from: 0, to: v.count, by: 4).map {
                    Color(red: v[$0], green: v[$0 + 1], blue: v[$0 + 2], alpha: v[$0 + 3])
                })
            }
        case .path(let p0):
            var vs: [[Double]] = []
            for v in values {
                guard case .path(let p) = v, p.structure == p0.structure else { return nil }
                vs.append(p.elements.flatMap(\.points).flatMap { [$0.x, $0.y] })
            }
            vectors = vs
            rebuild = { v in .path(Self.path(like: p0, coordinates: v)) }
        case .transform:
            let matrices = values.compactMap { v -> Transform3D? in
                if case .transform(let t) = v { t } else { nil }
            }
            (vectors, rebuild, blend) = Self.transformForm(matrices)
        case .bool, .image:
            return nil
        }
    }

    private static func fixedVector(_ v: AnimatableValue) -> [Double] {
        switch v {
        case .number(let n): [n]
        case .point(let p): [p.x, p.y]
        case .size(let s): [s.width, s.height]
        case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .color(let c): [c.red, c.green, c.blue, c.alpha]
        default: []
        }
    }

    private static func fixedValue(like template: AnimatableValue, _ v: [Double]) -> AnimatableValue {
        switch template {
        case .point: .point(Point(v[0], v[1]))
        case .size: .size(Size(v[0], v[1]))
        case .rect: .rect(Rect(v[0], v[1], v[2], v[3]))
        case .color: .color(Color(red: v[0], green: v[1], blue: v[2], alpha: v[3]))
        default: .number(v[0])
        }
    }

    /// The template's elements with their points replaced from `coordinates` (x, y pairs
    /// in `PathElement.points` order: controls first, end point last). Stands in for a
    /// `BezierPath.lerp` in KineticGeometry until one exists.
    private static func path(like template: BezierPath, coordinates v: [Double]) -> BezierPath {
        var i = 0
        func next() -> Point {
            defer { i += 2 }
            return Point(v[i], v[i + 1])
        }
        return BezierPath(template.elements.map { e -> PathElement in
            switch e {
            case .move: return .move(to: next())
            case .line: return .line(to: next())
            case .quadCurve:
                let c = next()
                return .quadCurve(to: next(), control: c)
            case .curve:
                let c1 = next(), c2 = next()
                return .curve(to: next(), control1: c1, control2: c2)
            case .close: return .close
            }
        })
    }

    /// How transforms flatten, tried in order:
    ///
    /// 1. Every matrix round-trips through `Transform3D.components` with no x or y
    ///    rotation (the 2D named form, perspective included): scale, z rotation,
    ///    translation and m34, with z rotations unwrapped so each step turns less than
    ///    half a revolution. (Euler angles about x and y are not blended: past 90° about y
    ///    they are ambiguous, and a blend of them is no rotation between the two ends.)
    /// 2. Every matrix decomposes (`Transform3D.Decomposed`): translation, scale, skew,
    ///    perspective and quaternion, 17 numbers; each quaternion is negated if need be to
    ///    lie within 90° of the previous one, so successive values turn the shorter way
    ///    whether slerped (`blend`) or splined; `rebuild` normalises the quaternion.
    /// 3. Otherwise the raw 16 entries.
    private static func transformForm(_ ms: [Transform3D])
        -> ([[Double]], @Sendable ([Double]) -> AnimatableValue, @Sendable ([Double], [Double], Double) -> [Double]) {
        let parts = ms.map(\.components)
        let namedForm2D = zip(ms, parts).allSatisfy { m, c in
            c.rotationX == 0 && c.rotationY == 0
                && zip(m.fields, c.composed.fields).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0)) }
        }
        guard namedForm2D else {
            if let form = decomposedForm(ms) { return form }
            return (ms.map(\.fields), { .transform(Transform3D(fields: $0) ?? .identity) }, Interpolation.lerpVectors)
        }
        var vectors: [[Double]] = []
        var previousAngle: Double?
        for c in parts {
            var angle = c.rotationZ
            if let prev = previousAngle {
                angle = prev + remainder(angle - prev, 2 * Double.pi)
            }
            previousAngle = angle
            vectors.append([c.sx, c.sy, c.sz, angle, c.tx, c.ty, c.tz, c.m34])
        }
        return (vectors, { v in
            var c = Transform3D.Components()
            (c.sx, c.sy, c.sz, c.rotationZ) = (v[0], v[1], v[2], v[3])
            (c.tx, c.ty, c.tz, c.m34) = (v[4], v[5], v[6], v[7])
            return .transform(c.composed)
        }, Interpolation.lerpVectors)
    }

    /// Layout of a `Transform3D.Decomposed` vector: translation 0..<3, scale 3..<6,
    /// skew 6..<9, perspective 9..<13, quaternion 13..<17.
    private static let quaternionStart = 13

    /// Step 2 of `transformForm`; nil when a matrix does not decompose.
    private static func decomposedForm(_ ms: [Transform3D])
        -> ([[Double]], @Sendable ([Double]) -> AnimatableValue, @Sendable ([Double], [Double], Double) -> [Double])? {
        var vectors: [[Double]] = []
        var previous: SIMD4<Double>?
        for m in ms {
            guard let d = m.decomposed else { return nil }
            var q = d.quaternion
            if let p = previous, (p * q).sum() < 0 { q = -q }
            previous = q
            vectors.append([d.translation.x, d.translation.y, d.translation.z,
                            d.scale.x, d.scale.y, d.scale.z,
                            d.skew.x, d.skew.y, d.skew.z,
                            d.perspective.x, d.perspective.y, d.perspective.z, d.perspective.w,
                            q.x, q.y, q.z, q.w])
        }
        let k = quaternionStart
        let rebuild: @Sendable ([Double]) -> AnimatableValue = { v in
            let d = Transform3D.Decomposed(translation: SIMD3(v[0], v[1], v[2]), scale: SIMD3(v[3], v[4], v[5]),
                                           skew: SIMD3(v[6], v[7], v[8]),
                                           perspective: SIMD4(v[9], v[10], v[11], v[12]),
                                           quaternion: SIMD4(v[k], v[k + 1], v[k + 2], v[k + 3]))
            return .transform(d.recomposed)
        }
        let blend: @Sendable ([Double], [Double], Double) -> [Double] = { a, b, u in
            let q = Transform3D.Decomposed.slerp(SIMD4(a[k], a[k + 1], a[k + 2], a[k + 3]),
                                                 SIMD4(b[k], b[k + 1], b[k + 2], b[k + 3]), u)
            return Interpolation.lerpVectors(Array(a[..<k]), Array(b[..<k]), u) + [q.x, q.y, q.z, q.w]
        }
        return (vectors, rebuild, blend)
    }
}
