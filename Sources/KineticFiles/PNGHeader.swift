/// A PNG file's size and colour type, read from its IHDR chunk after its chunks were
/// walked against the file's size — before any decoder sees the file.
///
/// A chunk's length is a 31-bit number the file only claims: a 141-byte file may claim a
/// 2 GB chunk, and a decoder that trusts it allocates or reads that much. The walk reads
/// only the 8-byte chunk headers and checks that every chunk ends inside the file and
/// that IDAT and IEND are there, so such a file costs nothing and is refused at once.
public struct PNGHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// IHDR's colour type; 4 (grey + alpha) and 6 (RGBA) carry alpha.
    public var colorType: UInt8
    public var hasAlpha: Bool { colorType == 4 || colorType == 6 }
    /// The text of the file's `tEXt` chunk with keyword ``kineticKeyword`` (what `render`
    /// writes into PNG frames: the scene they come from and its frame rate), if any.
    public var kineticText: String?

    /// The keyword of the `tEXt` chunk `render` writes into PNG frames.
    public static let kineticKeyword = "kinetic"

    public init(width: Int, height: Int, colorType: UInt8, kineticText: String? = nil) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.kineticText = kineticText
    }

    /// The bytes of the PNG at `path`, read through ``GuardedFile`` (a regular file of at
    /// most `maxBytes`, inside `root` when one is given) after its chunks were walked: what
    /// every PNG decoder of the project is given (image assets, golden frames, `encode`'s
    /// frames).
    public static func checkedBytes(of path: String, maxPixels: Int = 64_000_000, maxBytes: Int = 256 << 20,
                                    root: String? = nil) throws(FileProblem) -> [UInt8] {
        let file = try GuardedFile(path: path, maxBytes: maxBytes, root: root)
        _ = try PNGHeader(checking: file, maxPixels: maxPixels)
        return try file.readAll()
    }

    /// `png` (a PNG file's bytes, as Cairo writes them: IHDR first) with a `tEXt` chunk
    /// `keyword`, NUL, `text` inserted after IHDR. Latin-1 text, as tEXt requires; the
    /// callers write ASCII.
    public static func inserting(text: String, keyword: String = kineticKeyword, into png: [UInt8]) -> [UInt8] {
        guard png.count >= 33, Array(png[0..<8]) == signature else { return png }
        let data = Array(keyword.utf8) + [0] + Array(text.utf8)
        let type = Array("tEXt".utf8)
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        let chunk = be32(UInt32(data.count)) + type + data + be32(CRC32.checksum(type + data))
        return Array(png[0..<33]) + chunk + Array(png[33...])
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Checks `file` and returns its header.
    /// - Parameter maxPixels: the most pixels the image may have (32767 a side at most).
    public init(checking file: borrowing GuardedFile, maxPixels: Int) throws(FileProblem) {
        let head = try file.read(count: 26, at: 0)
        guard head.count == 26, Array(head[0..<8]) == Self.signature, Array(head[12..<16]) == Array("IHDR".utf8) else {
            throw .unreadable(path: file.path, reason: "not a PNG file")
        }
        func be32(_ i: Int) -> Int { head[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        width = be32(16)
        height = be32(20)
        colorType = head[25]
        kineticText = nil
        guard width > 0, height > 0 else { throw .unreadable(path: file.path, reason: "a PNG of \(width)×\(height) px") }
        guard width <= 32767, height <= 32767, width * height <= maxPixels else {
            throw .imageTooLarge(path: file.path, width: width, height: height, limit: maxPixels)
        }
        kineticText = try Self.walkChunks(file)
    }

    /// Every chunk must end inside the file; IEND must come, after some IDAT. At least 12
    /// bytes a chunk: the walk ends within size / 12 steps.
    /// Returns the `kinetic` tEXt chunk's text (at most 1 KiB of it is read).
    static func walkChunks(_ file: borrowing GuardedFile) throws(FileProblem) -> String? {
        var offset = 8, sawData = false, text: String?
        while true {
            let header = try file.read(count: 8, at: offset)
            guard header.count == 8 else { throw .unreadable(path: file.path, reason: "the PNG file is cut short (no IEND chunk)") }
            let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= file.size else {
                throw .unreadable(path: file.path, reason: "the PNG file is cut short: its \(type) chunk claims \(length) bytes, past the file's end (\(file.size) bytes)")
            }
            if type == "IDAT" { sawData = true }
            if type == "tEXt", text == nil, length <= 1024 {
                let data = try file.read(count: length, at: offset + 8)
                let keyword = Array(kineticKeyword.utf8) + [0]
                if data.starts(with: keyword) { text = String(decoding: data.dropFirst(keyword.count), as: UTF8.self) }
            }
            if type == "IEND" {
                guard sawData else { throw .unreadable(path: file.path, reason: "the PNG file has no image data (IDAT)") }
                return text
            }
            offset += 12 + length
        }
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, as zlib computes it).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { c, b in table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    }
}
