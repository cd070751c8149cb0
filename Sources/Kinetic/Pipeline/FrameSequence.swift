import Foundation
import KineticFiles

/// A numbered run of PNG frames on disk — what `render -o frames/` writes, possibly from
/// several shards — checked complete and of one size before anything is encoded.
package struct FrameSequence {
    /// The pattern naming frame N (`frames/frame-%04d.png`).
    package var pattern: String
    /// The frame numbers, consecutive and ascending.
    package var indices: [Int]
    package var width: Int
    package var height: Int
    /// Some frame's PNG has an alpha channel (Cairo writes RGB for an opaque frame, RGBA
    /// otherwise), so the animation keeps transparency as `render` does for a scene
    /// whose background is not opaque.
    package var hasAlpha: Bool
    /// The scene the frames come from, when `render` wrote them (every frame the same).
    package var origin: FrameOrigin?

    package func path(_ index: Int) -> String { OutputTarget.fileName(pattern: pattern, index: index) }

    /// Finds the frames of `source`: a folder of `frame-NNNN.png` files or a `%d` pattern.
    /// Only PNG headers are read here; the pixels are decoded while encoding.
    package init(source: String) throws(FrameSequenceError) {
        var isFolder: ObjCBool = false
        if source.contains("%") {
            guard OutputTarget.isValidPattern(source) else { throw .badPattern(source) }
            pattern = source
        } else if FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue {
            pattern = (source.hasSuffix("/") ? String(source.dropLast()) : source) + "/frame-%04d.png"
        } else {
            throw .missing(source)
        }
        let folder = (pattern as NSString).deletingLastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else {
            throw .missing(folder)
        }
        // A name is frame N when the pattern spells N that way (so frame-12.png is not
        // frame 12 of frame-%04d.png).
        let name = (pattern as NSString).lastPathComponent
        guard let (head, _, tail) = OutputTarget.patternParts(name) else { throw .badPattern(source) }
        var found: [Int] = []
        for file in names where file.hasPrefix(head) && file.hasSuffix(tail) && file.count > head.count + tail.count {
            let digits = file.dropFirst(head.count).dropLast(tail.count)
            // At most 9 digits: a frame number is bounded before it becomes an integer.
            guard digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits),
                  OutputTarget.fileName(pattern: name, index: n) == file else { continue }
            found.append(n)
        }
        found.sort()
        guard let first = found.first, let last = found.last else { throw .empty(pattern) }
        // A gap is found among the names there are, never by building first...last (two
        // files, frame 0 and frame 999999999, would make a billion-entry array).
        if let gap = zip(found, found.dropFirst()).first(where: { $1 != $0 + 1 }) {
            throw .gap(path: OutputTarget.fileName(pattern: pattern, index: gap.0 + 1), first: first, last: last)
        }
        indices = found
        let firstPath = OutputTarget.fileName(pattern: pattern, index: first)
        let header = try Self.header(firstPath)
        (width, height, hasAlpha) = (header.width, header.height, header.hasAlpha)
        origin = header.kineticText.flatMap(FrameOrigin.init(text:))
        if let origin, let last = indices.last, last >= origin.frameCount {
            throw .foreign(path: OutputTarget.fileName(pattern: pattern, index: last), first: firstPath,
                           why: "frame \(last) is past the \(origin.frameCount) frames of the scene \(firstPath) comes from")
        }
        for i in indices.dropFirst() {
            let path = OutputTarget.fileName(pattern: pattern, index: i)
            let h = try Self.header(path)
            guard h.width == width, h.height == height else {
                throw .size(path: path, width: h.width, height: h.height, first: firstPath, firstWidth: width, firstHeight: height)
            }
            guard h.kineticText == header.kineticText else {
                throw .foreign(path: path, first: firstPath, why: "it comes from another scene (or other settings) than \(firstPath)")
            }
            hasAlpha = hasAlpha || h.hasAlpha
        }
    }

    /// The largest frame file read (bytes): far past any 32767-px frame's PNG.
    package static let maxFrameBytes = 1 << 30

    /// A frame's PNG header, through the guarded reader: a regular file whose chunks end
    /// inside it (a FIFO never blocks, a small file claiming a huge chunk costs nothing).
    private static func header(_ path: String) throws(FrameSequenceError) -> PNGHeader {
        do throws(FileProblem) {
            let file = try GuardedFile(path: path, maxBytes: maxFrameBytes)
            return try PNGHeader(checking: file, maxPixels: 32767 * 32767)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }
}

/// Why a frame folder or pattern cannot be encoded; each names the file at fault.
package enum FrameSequenceError: Error, CustomStringConvertible {
    case missing(String)
    case badPattern(String)
    case empty(String)
    case gap(path: String, first: Int, last: Int)
    case unreadable(path: String, reason: String)
    case foreign(path: String, first: String, why: String)
    case size(path: String, width: Int, height: Int, first: String, firstWidth: Int, firstHeight: Int)

    package var description: String {
        switch self {
        case .missing(let path): "\(path): no such folder"
        case .badPattern(let p): "\(p): a frame pattern needs exactly one %d (e.g. frame-%04d.png)"
        case .empty(let pattern): "\(pattern): no frames match"
        case let .gap(path, first, last): "\(path) is missing: frames \(first)-\(last) must all be there"
        case let .unreadable(path, reason): "\(path): \(reason)"
        case let .foreign(path, _, why): "\(path): \(why)"
        case let .size(path, w, h, first, fw, fh): "\(path) is \(w)×\(h), but \(first) is \(fw)×\(fh)"
        }
    }

    /// The sysexits status: 66 (EX_NOINPUT) when there is nothing to read, 64
    /// (EX_USAGE) for a malformed pattern, 65 (EX_DATAERR) when the frames are there but
    /// unusable.
    package var exitCode: Int32 {
        switch self {
        case .missing, .empty: 66
        case .badPattern: 64
        case .gap, .unreadable, .foreign, .size: 65
        }
    }
}
