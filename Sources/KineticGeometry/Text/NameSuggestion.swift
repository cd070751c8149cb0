/// "Did you mean …?" for misspelled keys, ids, enum values and function names — one rule
/// for the scene loader and the expression language.
public enum NameSuggestion {
    /// The closest candidate when it is within about a third of the word's length in
    /// edits and keeps at least one of its characters (a lone `a` is not a typo of `t`).
    /// Of equally close ones, the one sharing the longest start with the word, then the
    /// first in alphabetical order: the same answer whatever order the candidates come in
    /// (callers often pass a dictionary's keys).
    ///
    /// Only candidates whose length is within the allowed edits of the word's are
    /// measured (no other can be close enough), so a multi-megabyte word costs one count
    /// of its characters, not a distance table of its size times each candidate's.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let length = word.count, allowed = max(1, length / 3)
        let near = candidates.filter { abs($0.count - length) <= allowed }
        guard !near.isEmpty else { return nil }
        let lowered = word.lowercased()
        func sharedStart(_ c: String) -> Int { zip(lowered, c.lowercased()).prefix { $0 == $1 }.count }
        var best: (name: String, distance: Int, shared: Int)?
        for candidate in near {
            let d = distance(lowered, candidate.lowercased()), shared = sharedStart(candidate)
            guard let b = best else { best = (candidate, d, shared); continue }
            if (d, -shared, candidate) < (b.distance, -b.shared, b.name) { best = (candidate, d, shared) }
        }
        guard let best, best.distance <= allowed, best.distance < length else { return nil }
        return best.name
    }

    /// " (did you mean 'x'?)", or "" when nothing is close.
    public static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance, a transposition of neighbours counting as one edit.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
