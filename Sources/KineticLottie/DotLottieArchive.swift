#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZip
import KineticGeometry

/// The dotLottie archive (`-o NAME.lottie`): a ZIP in dotLottie 1.0's layout, holding
/// `manifest.json` and the one animation as `animations/ID.json`, both deflated. The
/// animation is the `.json` export's text byte for byte; its images stay embedded in it
/// (data URIs), so no `images/` folder is needed and every player of either form reads the
/// same document. Built in memory through libzip (this file is its only caller); the
/// caller writes the bytes atomically.
///
/// Deterministic: every entry carries the same DOS timestamp (1980-01-01 00:00, the
/// format's epoch) rather than the time of writing, entries come in a fixed order, and
/// libzip adds no extra fields for ASCII names, so one document always gives one archive.
public enum DotLottieArchive {
    /// The manifest's `generator`.
    static let generator = "Kinetic"
    /// DOS date of 1980-01-01 (day 1, month 1, year 1980 + 0) and time 00:00:00.
    static let dosDate: UInt16 = 1 << 5 | 1
    static let dosTime: UInt16 = 0

    /// The animation's id: the output's file name without `.lottie`, limited to ASCII
    /// letters, digits, `-` and `_` (others become `_`), since it is also an entry name.
    public static func animationID(forOutput path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.lowercased().hasSuffix(".lottie") ? String(name.dropLast(7)) : name
        let id = String(stem.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_") ? Character(scalar) : "_"
        })
        return id.isEmpty ? "animation" : id
    }

    /// dotLottie 1.0's `manifest.json`: the one animation, looping and autoplaying at
    /// normal speed, forward, as a Kinetic GIF plays.
    public static func manifest(animationID: String) -> LottieJSON {
        .object([
            ("version", "1.0"), ("generator", .string(generator)), ("author", .string(generator)), ("revision", 1),
            ("animations", [.object([
                ("id", .string(animationID)), ("speed", 1), ("loop", true), ("autoplay", true),
                ("direction", 1), ("playMode", "normal"),
            ])]),
        ])
    }

    /// The archive's bytes for `animation` (a Lottie document's JSON text) under `id`.
    public static func bytes(animation: String, id: String) throws(DotLottieArchiveError) -> [UInt8] {
        try zipped([
            ("manifest.json", Array(manifest(animationID: id).text.utf8)),
            ("animations/\(id).json", Array(animation.utf8)),
        ])
    }

    /// A ZIP of `entries`, in order, each deflated at level 9 with the fixed timestamp.
    static func zipped(_ entries: [(name: String, bytes: [UInt8])]) throws(DotLottieArchiveError) -> [UInt8] {
        let zip = try LibZip.functions()
        var error = zip_error_t()
        zip.zip_error_init(&error)
        defer { zip.zip_error_fini(&error) }
        // An empty, growable buffer the archive is written into.
        guard let buffer = zip.zip_source_buffer_create(nil, 0, 0, &error) else { throw .libzip(zip.message(&error)) }
        defer { zip.zip_source_free(buffer) }
        // Kept past zip_close, which would otherwise free it; read back below.
        zip.zip_source_keep(buffer)
        guard let archive = zip.zip_open_from_source(buffer, ZIP_TRUNCATE, &error) else {
            zip.zip_source_free(buffer)  // the reference zip_open_from_source did not take
            throw .libzip(zip.message(&error))
        }
        var closed = false
        defer { if !closed { zip.zip_discard(archive) } }
        for entry in entries {
            // libzip reads the data at zip_close: it gets its own copy, freed by it.
            guard let data = malloc(max(entry.bytes.count, 1)) else { throw .libzip("out of memory") }
            entry.bytes.withUnsafeBytes { if let base = $0.baseAddress { memcpy(data, base, $0.count) } }
            guard let source = zip.zip_source_buffer(archive, data, zip_uint64_t(entry.bytes.count), 1) else {
                free(data)
                throw .libzip(zip.message(zip.zip_get_error(archive)))
            }
            let index = zip.zip_file_add(archive, entry.name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
            guard index >= 0 else {
                zip.zip_source_free(source)
                throw .libzip(zip.message(zip.zip_get_error(archive)))
            }
            let entryIndex = zip_uint64_t(index)
            guard zip.zip_set_file_compression(archive, entryIndex, ZIP_CM_DEFLATE, 9) == 0,
                  zip.zip_file_set_dostime(archive, entryIndex, dosTime, dosDate, 0) == 0 else {
                throw .libzip(zip.message(zip.zip_get_error(archive)))
            }
        }
        guard zip.zip_close(archive) == 0 else { throw .libzip(zip.message(zip.zip_get_error(archive))) }
        closed = true
        return try contents(of: buffer, zip: zip)
    }

    /// Everything written into `source`.
    private static func contents(of source: OpaquePointer, zip: kinetic_zip) throws(DotLottieArchiveError) -> [UInt8] {
        guard zip.zip_source_open(source) == 0 else { throw .libzip(zip.message(zip.zip_source_error(source))) }
        defer { _ = zip.zip_source_close(source) }
        var stat = zip_stat_t()
        zip.zip_stat_init(&stat)
        guard zip.zip_source_stat(source, &stat) == 0, stat.valid & zip_uint64_t(ZIP_STAT_SIZE) != 0 else {
            throw .libzip(zip.message(zip.zip_source_error(source)))
        }
        var bytes = [UInt8](repeating: 0, count: Int(stat.size))
        let read = bytes.withUnsafeMutableBytes { buffer -> Int64 in
            guard let base = buffer.baseAddress else { return 0 }
            return zip.zip_source_read(source, base, stat.size)
        }
        guard read == Int64(stat.size) else { throw .libzip(zip.message(zip.zip_source_error(source))) }
        return bytes
    }
}

/// libzip, loaded on first use (see `Sources/CZip/shim.h`): a process that writes no
/// dotLottie archive never maps it (nor libcrypto, which it brings).
enum LibZip {
    /// The function table, or why the library cannot be loaded (`loadFunctionTable`).
    private static let loaded = loadFunctionTable(kinetic_zip_load).mapError {
        DotLottieArchiveError.libzip("cannot load libzip (install libzip4): " + $0.message)
    }

    /// libzip's functions.
    /// - Throws: `.libzip` when the library or a function is missing.
    static func functions() throws(DotLottieArchiveError) -> kinetic_zip { try loaded.get() }
}

extension kinetic_zip {
    /// libzip's text for `error`.
    func message(_ error: UnsafeMutablePointer<zip_error_t>?) -> String {
        error.flatMap { self.zip_error_strerror($0) }.map { String(cString: $0) } ?? "unknown libzip error"
    }
}

/// libzip could not build the archive (in practice: memory ran out).
public enum DotLottieArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    case libzip(String)

    public var description: String {
        switch self {
        case .libzip(let reason): "cannot build the dotLottie archive: \(reason)"
        }
    }
}
