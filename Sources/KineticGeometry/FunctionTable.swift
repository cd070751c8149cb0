/// A C library's function table filled by its shim's loader (`kinetic_ffmpeg_load`,
/// `kinetic_webp_load`, …: `dlopen` + `dlsym` at first use, Sources/C*/shim.h): the table,
/// or `dlerror()`'s message (copied: the next `dl*` call reuses its buffer). Each wrapper
/// keeps the result in a static `let`, so the library is loaded once, by the first thread
/// to ask, and never unloaded.
package func loadFunctionTable<Table>(
    _ load: (UnsafeMutablePointer<Table>) -> UnsafePointer<CChar>?
) -> Result<Table, LibraryLoadFailure> {
    let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    defer { table.deallocate() }
    if let message = load(table) { return .failure(LibraryLoadFailure(message: String(cString: message))) }
    return .success(table.pointee)
}

/// Why a library or one of its functions could not be loaded: `dlerror()`'s message.
package struct LibraryLoadFailure: Error {
    package var message: String
}
