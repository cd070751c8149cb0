// How a stroked path ends and turns (CAShapeLayer's `lineCap` and `lineJoin`): plain values
// here, beside the paths they stroke, so the layer model and the Cairo wrapper both name
// them without depending on each other.

/// The shape at the open ends of a stroked path.
public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }

/// The shape where two segments of a stroked path meet.
public enum LineJoin: String, Sendable, CaseIterable { case miter, round, bevel }
