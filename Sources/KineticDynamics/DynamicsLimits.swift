import KineticGeometry

/// Limits every coordinate and vector of the physics lives within, and the ranges the
/// dynamics tables give their keys.
public enum DynamicsLimits {
    /// The largest coordinate or vector component accepted: far beyond any canvas, still
    /// well inside the range where Chipmunk's sums keep their precision.
    public static let largestValue = 1e7

    /// The largest attachment `frequency` (Hz) and `damping` ratio accepted: far past any
    /// spring a scene animates, small enough that a spring too stiff for the step rate
    /// blows up through finite values (caught as a blow-up, exit 70), never into the NaN
    /// Chipmunk aborts on.
    public static let largestSpringValue = 1e4

    /// The largest density: with the largest item (1e7 pt a side) a mass Chipmunk's
    /// solver still sums without overflow; the smallest items still get a finite inverse.
    public static let largestDensity = 1e6

    public static let coordinate = ValueRange(-largestValue, largestValue,
                                              reason: "beyond it Chipmunk's sums lose their precision")
    public static let length = ValueRange(0, largestValue, reason: "a distance, within the physics' coordinate range")
    public static let material = ValueRange(0, largestValue, reason: "a coefficient Chipmunk multiplies; negative is meaningless")
    public static let spring = ValueRange(0, largestSpringValue,
                                          reason: "stiffer springs blow up into NaN, which Chipmunk aborts on")
    public static let fraction = ValueRange(0, 1, reason: "UIKit's range")
    public static let density = ValueRange(0, largestDensity, excludesLowerBound: true,
                                           reason: "mass = density × area / 10000 must be positive and finite for Chipmunk")
    public static let time = ValueRange.nonNegative("seconds of scene time")

    /// Checks that every value is finite and within ±`largestValue`.
    static func checkFinite(_ values: [Double], _ path: String) throws(DynamicsError) {
        guard values.allSatisfy({ $0.isFinite && coordinate.contains($0) }) else {
            throw .invalidValue(path: path, reason: "must be finite and within ±\(Int(largestValue))")
        }
    }

    /// Checks `values` against `range` (`boundaries.wall`, `region.radius`); the error's path is `path`.
    static func check(_ values: [Double], in range: ValueRange, _ path: String) throws(DynamicsError) {
        for v in values {
            if let problem = range.boundedProblem(with: v) { throw .invalidValue(path: path, reason: problem) }
        }
    }
}
