extension BezierPath {
    /// The path `u` of the way to `other` (0 gives `self`, 1 gives `other`), every
    /// point — controls included — interpolated linearly, as Core Animation animates
    /// a `path`. Nil when the two paths' element structures differ.
    public func lerp(to other: BezierPath, _ u: Double) -> BezierPath? {
        guard structure == other.structure else { return nil }
        return BezierPath(zip(elements, other.elements).map { a, b in
            switch (a, b) {
            case (.move(let p), .move(let q)): .move(to: p.lerp(to: q, u))
            case (.line(let p), .line(let q)): .line(to: p.lerp(to: q, u))
            case (.quadCurve(let p, let c), .quadCurve(let q, let d)):
                .quadCurve(to: p.lerp(to: q, u), control: c.lerp(to: d, u))
            case (.curve(let p, let c1, let c2), .curve(let q, let d1, let d2)):
                .curve(to: p.lerp(to: q, u), control1: c1.lerp(to: d1, u), control2: c2.lerp(to: d2, u))
            default: .close
            }
        })
    }
}
