import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation's bridging when neither
    /// end can be whitespace (nearly every value a scene reads): `CharacterSet.whitespaces`
    /// holds no ASCII character but the space and the tab, so an ASCII end that is neither
    /// is kept, and anything else goes to Foundation as before.
    func trimmingWhitespaces() -> String {
        func isKept(_ c: Unicode.Scalar?) -> Bool { c.map { $0.isASCII && $0 != " " && $0 != "\t" } ?? false }
        guard isKept(unicodeScalars.first), isKept(unicodeScalars.last) else {
            return trimmingCharacters(in: .whitespaces)
        }
        return self
    }
}
