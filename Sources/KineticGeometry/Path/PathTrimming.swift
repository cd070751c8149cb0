import Foundation

extension BezierPath {
    /// The part of the path a `CAShapeLayer` strokes with `strokeStart = start` and
    /// `strokeEnd = end`.
    ///
    /// `start` and `end` are fractions (clamped to 0…1) of the total arc length of all
    /// subpaths together, close segments counted as lines and moves as nothing. Curves
    /// are cut by de Casteljau subdivision at the parameter reached at that arc length,
    /// so the kept pieces lie exactly on the original curves and untouched elements keep
    /// their points bit for bit. A move opens every run of kept pieces that does not
    /// continue the previous one (the trimmed start, or a subpath boundary). A close
    /// segment stays `.close` only when its whole subpath is kept from its original
    /// move; otherwise it becomes the line it draws.
    ///
    /// `start ≥ end` gives an empty path; `(0, 1)` gives the path unchanged.
    public func trimmed(from start: Double, to end: Double) -> BezierPath {
        let a = min(max(start, 0), 1), b = min(max(end, 0), 1)
        if a >= b { return BezierPath() }
        if a == 0 && b == 1 { return self }
        let pieces = self.pieces
        let lengths = pieceLengths(pieces)
        let total = lengths.reduce(0, +)
        guard total > 0 else { return BezierPath() }
        let from = a * total, to = b * total

        var result = BezierPath()
        var offset = 0.0
        // The piece index the output currently continues from, and whether the output's
        // open subpath began at that subpath's original move (so `.close` stays valid).
        var previous: Int? = nil
        var startsAtOriginalMove = false
        for (i, piece) in pieces.enumerated() {
            let length = lengths[i]
            defer { offset += length }
            let lo = max(from, offset), hi = min(to, offset + length)
            let continuesRun = previous == i - 1 && i > 0 && pieces[i - 1].subpath == piece.subpath
            if length > 0 {
                guard lo < hi else { continue }
            } else {
                // A zero-length piece (typically the close of an oval) is kept inside the
                // range and where it ends a kept run, never where it would start a lone dot.
                let inside = (offset > from || from == 0) && offset < to
                guard inside || (offset == to && continuesRun) else { continue }
            }
            let t0 = lo <= offset ? 0 : piece.segment.parameter(atLength: lo - offset, total: length)
            let t1 = hi >= offset + length ? 1 : piece.segment.parameter(atLength: hi - offset, total: length)
            let kept = piece.segment.subsegment(from: t0, to: t1)

            if !(continuesRun && t0 == 0) {
                result.move(to: kept.start)
                startsAtOriginalMove = t0 == 0 && isFirstPieceOfSubpath(i, in: pieces)
            }
            if piece.isClose && t1 == 1 && startsAtOriginalMove {
                result.close()
            } else {
                result.elements.append(kept.element)
            }
            previous = i
        }
        return result
    }

    private func isFirstPieceOfSubpath(_ i: Int, in pieces: [PathPiece]) -> Bool {
        i == 0 || pieces[i - 1].subpath != pieces[i].subpath
    }
}
