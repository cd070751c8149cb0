/// Bounds on a text layer's string, so that shaping stays linear in the input.
///
/// Pango's shaping and line breaking grow with a grapheme cluster's length (a base
/// followed by thousands of combining marks is one cluster, reshaped as a whole), so a
/// string is limited in length and, as Unicode's stream-safe text format limits it
/// (UAX #15), to 30 combining marks in a row.
public enum TextBounds {
    /// The most Unicode scalars a text layer's string may have.
    public static let maxScalars = 100_000
    /// The most non-starters (combining marks) in a row: the stream-safe limit.
    public static let maxCombiningMarks = 30

    /// Why `text` is refused, or nil when it is within the bounds. One pass, no copy.
    public static func problem(in text: String) -> String? {
        var count = 0, run = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > maxScalars {
                return "a string of more than \(maxScalars) characters (Unicode scalars) is over the limit text layers take"
            }
            if scalar.properties.canonicalCombiningClass != .notReordered {
                run += 1
                if run > maxCombiningMarks {
                    return "more than \(maxCombiningMarks) combining marks in a row (at character \(count)); "
                        + "Unicode's stream-safe limit is \(maxCombiningMarks)"
                }
            } else {
                run = 0
            }
        }
        return nil
    }
}
