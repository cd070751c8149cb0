import Dispatch

/// A frame's rows cut into bands that are worked on at once, for the per-row passes of
/// the GIF writer that run in frame order (the display check, bridging, the offered
/// indices).
///
/// Those passes decide each row from that row alone, so any cut gives the same bytes;
/// but they run on one thread while the workers draw the next frames, and at `--jobs 16`
/// they were what the render waited for: snow at `--scale 4` spent 1.2 s of its frames
/// pass's 1.37 s in them and stopped at 3.5× `--jobs 1` (issue 42).
struct RowBands {
    /// The bands in order, covering `0..<rows`; one band for a small frame or one job.
    let bands: [Range<Int>]

    /// The pixels of a frame for each band: a smaller share is not worth a thread's hand-off.
    static let minimumPixels = 1 << 16

    /// `rows` rows of `width` pixels cut into bands of about equal height: at most `jobs`,
    /// and at most one for each ``minimumPixels`` of the frame.
    init(rows: Int, width: Int, jobs: Int) {
        let count = max(1, min(jobs, rows, rows * max(width, 1) / Self.minimumPixels))
        bands = (0..<count).map { b in (rows * b / count)..<(rows * (b + 1) / count) }
    }

    var count: Int { bands.count }

    /// Calls `body(band, rows)` for every band: on this thread for one band, else on the
    /// system's threads at once, returning when all have run.
    func run(_ body: (Int, Range<Int>) -> Void) {
        if bands.count == 1 { return body(0, bands[0]) }
        // Each band touches its own rows alone (the callers' contract), and
        // `concurrentPerform` returns only once every band has run.
        nonisolated(unsafe) let body = body
        let bands = self.bands
        DispatchQueue.concurrentPerform(iterations: bands.count) { body($0, bands[$0]) }
    }
}
