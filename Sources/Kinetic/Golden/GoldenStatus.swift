/// The exit status of a golden run with several outcomes (sysexits codes, 1 for a
/// mismatch).
package enum GoldenStatus {
    /// A golden that mismatches (or is missing).
    package static let mismatch: Int32 = 1
    /// EX_CANTCREAT: a golden, report or failure picture that cannot be written.
    package static let cannotCreate: Int32 = 73

    /// The status of `a` and `b` together: a missing scene (66) outranks an invalid one
    /// (65), which outranks a report or golden that cannot be written (73), which
    /// outranks a simulation failure (70) and a mismatch (1) — so a CI that cannot write
    /// its reports learns it even when frames mismatch.
    package static func worst(_ a: Int32?, _ b: Int32) -> Int32 {
        let rank: [Int32: Int] = [66: 5, 65: 4, cannotCreate: 3, 70: 2]
        guard let a else { return b }
        return (rank[b] ?? 1) > (rank[a] ?? 1) ? b : a
    }
}
