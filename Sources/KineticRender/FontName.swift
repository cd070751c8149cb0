/// A font as CATextLayer's `font` or `UIFont(name:)` names it, resolved to what Pango
/// looks a face up by: a family, a weight and a slant.
///
/// Two spellings are understood. A PostScript name, `Family-Face` (`Helvetica-Bold`,
/// `HelveticaNeue-MediumItalic`, `Avenir-Heavy`), takes its face from after the hyphen.
/// A family followed by style words, as Pango and fontconfig write it (`DejaVu Sans Bold`,
/// `Noto Serif Light Italic`), takes them from the end. Words that name no weight or
/// slant stay in the family; fontconfig falls back to the default sans for a family it
/// does not have.
struct FontName: Equatable {
    /// The family, nil for the default (sans).
    var family: String?
    /// CSS/OpenType weight: 100 thin … 400 regular … 700 bold … 900 black.
    var weight = 400
    var slant = Slant.upright

    enum Slant { case upright, italic, oblique }

    init(_ name: String?) {
        guard let name, !name.isEmpty else { return }
        if let hyphen = name.lastIndex(of: "-"), !name.contains(" ") {
            family = String(name[..<hyphen])
            apply(face: name[name.index(after: hyphen)...].lowercased())
            if family?.isEmpty == true { family = nil }
            return
        }
        var words = name.split(separator: " ").map(String.init)
        while let last = words.last, words.count > 1, Self.isStyleWord(last.lowercased()) {
            apply(face: last.lowercased())
            words.removeLast()
        }
        family = words.joined(separator: " ")
    }

    /// Weight words, longest first so `extrabold` is not read as `bold`.
    private static let weights: [(String, Int)] = [
        ("ultralight", 200), ("extralight", 200), ("semibold", 600), ("demibold", 600),
        ("extrabold", 800), ("ultrabold", 800), ("regular", 400), ("medium", 500),
        ("roman", 400), ("heavy", 800), ("black", 900), ("light", 300), ("thin", 100),
        ("book", 400), ("bold", 700),
    ]

    private static func isStyleWord(_ word: String) -> Bool {
        word == "italic" || word == "oblique" || weights.contains { $0.0 == word }
    }

    /// Reads a face (lowercased): its weight word and its slant, wherever they stand.
    private mutating func apply(face: String) {
        if let match = Self.weights.first(where: { face.contains($0.0) }) { weight = match.1 }
        if face.contains("italic") { slant = .italic } else if face.contains("oblique") { slant = .oblique }
    }
}
