import Foundation
import KineticLayers

/// A plane's affine map to the canvas as Lottie's layer transform spells it (anchor at
/// the origin): position, rotation, scale — plus the shear left over, which Lottie's
/// players do not all draw. Rotation × upper-triangular (a QR factorization): the first
/// column gives the angle and x scale, the second the shear and y scale (negative for a
/// mirror).
struct TransformParts: Equatable {
    var tx, ty: Double
    /// Radians, in (−π, π].
    var angle: Double
    var sx, sy: Double
    /// The second column's part along the first, in points per point.
    var shear: Double
    var isCollapsed: Bool

    /// nil for a projective map (perspective) or a plane behind the eye. A map that
    /// collapses x (scale 0) has no angle of its own: 0, which `degrees(near:)` ignores.
    init?(_ projection: PlaneProjection) {
        guard let m = projection.affine, projection.m33 > 0,
              [m.a, m.b, m.c, m.d, m.tx, m.ty].allSatisfy(\.isFinite) else { return nil }
        let sx = (m.a * m.a + m.b * m.b).squareRoot()
        let angle = sx > 1e-12 ? atan2(m.b, m.a) : 0
        isCollapsed = sx <= 1e-12
        let c = cos(angle), s = sin(angle)
        self.tx = m.tx; self.ty = m.ty; self.angle = angle; self.sx = sx
        self.shear = c * m.c + s * m.d
        self.sy = -s * m.c + c * m.d
    }

    /// Whether rotation and scale say it all: the shear turns the y axis by under 0.01°.
    var isRotationAndScale: Bool {
        abs(shear) <= tan(LottieExporter.Tolerance.degrees * .pi / 180) * max(abs(sy), 1e-9)
    }

    /// The angle in degrees, a whole number of turns away so that it lies within half a
    /// turn of `previous` (a spin keeps counting past 180° instead of jumping back).
    func degrees(near previous: Double?) -> Double {
        let d = angle * 180 / .pi
        guard let previous else { return d }
        if isCollapsed { return previous }
        return previous + remainder(d - previous, 360)
    }
}
