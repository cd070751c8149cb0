import Foundation

/// Whether a text file's bytes are UTF-8, as scene files must be.
package enum TextEncoding {
    /// Where the bytes stop being UTF-8 text, or hold a NUL (UTF-16 without a byte-order
    /// mark looks like ASCII with NULs between): nil for valid text.
    package static func problem(in bytes: [UInt8]) -> (line: Int, column: Int, message: String)? {
        var line = 1, column = 1, i = 0
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return (line, column, "the file is UTF-16: save scenes as UTF-8")
        }
        // Swift's decoder: overlong forms and surrogates are refused too, at their byte.
        var parser = Unicode.UTF8.ForwardParser(), rest = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &rest) {
            case .emptyInput: return nil
            case .error: return (line, column, String(format: "byte 0x%02X is not UTF-8 text: save scenes as UTF-8", bytes[i]))
            case .valid(let scalar) where scalar.first == 0:
                let why = "the file is UTF-16 without a byte-order mark, or binary"
                return (line, column, "a NUL character: \(why); save scenes as UTF-8")
            case .valid(let scalar):
                if scalar.first == 0x0A { line += 1; column = 1 } else { column += 1 }
                i += scalar.count
            }
        }
    }
}
