extension BezierPath {
    /// The dashes Core Graphics (and Cairo, which draws them for the renderer) strokes
    /// along the path for `pattern` — lengths on, off, on, …; an odd count read twice
    /// over — starting `phase` into the pattern, each dash a subpath of its own, cut from
    /// the path's segments by true arc length (lines exactly, curves by de Casteljau at the
    /// parameter reached, as `trimmed(from:to:)` cuts them).
    ///
    /// The pattern starts again at every subpath. On a closed subpath whose first and
    /// last dashes meet at its start, they are one dash (joined there, as the stroker
    /// joins them); a dash covering a whole closed subpath stays closed. A zero-length dash
    /// is a zero-length line (a round or square cap draws it as a dot).
    ///
    /// nil when the pattern draws no dashes (empty, negative, not finite or all zero) or
    /// would cut more than `maximumDashes`.
    public func dashes(pattern: [Double], phase: Double, maximumDashes: Int = 10_000) -> BezierPath? {
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), phase.isFinite else { return nil }
        let entries = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = entries.reduce(0, +)
        guard period > 0 else { return nil }
        let pieces = self.pieces
        let lengths = pieceLengths(pieces)
        // Every period holds at most one dash per "on" entry; a subpath adds one more.
        let subpathCount = Set(pieces.map(\.subpath)).count
        guard lengths.reduce(0, +) / period * Double(entries.count / 2) + Double(subpathCount) <= Double(maximumDashes)
        else { return nil }

        var result = BezierPath()
        var first = 0
        while first < pieces.count {
            var last = first
            while last + 1 < pieces.count, pieces[last + 1].subpath == pieces[first].subpath { last += 1 }
            result.elements += Self.dashes(of: pieces[first...last], lengths: lengths[first...last],
                                           entries: entries, period: period, phase: phase)
            first = last + 1
        }
        return result
    }

    /// One subpath's dashes (its pieces and their lengths).
    private static func dashes(of pieces: ArraySlice<PathPiece>, lengths: ArraySlice<Double>, entries: [Double],
                               period: Double, phase: Double) -> [PathElement] {
        // Where `phase` falls in the pattern.
        var into = phase.truncatingRemainder(dividingBy: period)
        if into < 0 { into += period }
        var index = 0
        while into >= entries[index], into > 0 {
            into -= entries[index]
            index = (index + 1) % entries.count
        }
        var remaining = entries[index] - into
        var runs: [[PathElement]] = []
        var current: [PathElement]? = nil
        let startsOn = index % 2 == 0
        for (piece, length) in zip(pieces, lengths) {
            var at = 0.0
            while true {
                let end: Double, ends: Bool
                if at + remaining < length {
                    end = at + remaining; ends = true
                } else {
                    end = length; remaining -= length - at; ends = remaining <= 0
                }
                if index % 2 == 0 {
                    if current == nil {
                        let t = piece.segment.parameter(atLength: at, total: length)
                        current = [.move(to: t == 0 ? piece.segment.start : piece.segment.point(at: t))]
                    }
                    if end > at {
                        let t0 = piece.segment.parameter(atLength: at, total: length)
                        let t1 = piece.segment.parameter(atLength: end, total: length)
                        current?.append(piece.segment.subsegment(from: t0, to: t1).element)
                    }
                }
                at = end
                guard ends else { break }
                if var run = current {
                    if run.count == 1, case .move(let p) = run[0] { run.append(.line(to: p)) }
                    runs.append(run)
                    current = nil
                }
                index = (index + 1) % entries.count
                remaining = entries[index]
            }
        }
        let closed = pieces.last?.isClose ?? false
        if var run = current {
            if closed && startsOn && runs.isEmpty {
                // One dash round the whole closed subpath: its closing line is the close.
                if (lengths.last ?? 0) > 0 { run.removeLast() }
                run.append(.close)
            } else if closed && startsOn, let head = runs.first {
                run += head.dropFirst()
                runs.removeFirst()
            }
            runs.append(run)
        }
        return runs.flatMap { $0 }
    }
}
