#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// glibc's `mallopt`, the one place kinetic tunes its allocator.
package enum Malloc {
    /// malloc.h's option numbers, which Swift's Glibc module does not import.
    package enum Option: Int32 {
        case trimThreshold = -1  // M_TRIM_THRESHOLD
        case mmapThreshold = -3  // M_MMAP_THRESHOLD
        case arenaMax = -8       // M_ARENA_MAX
    }

    /// Sets `option`; does nothing on a libc without `mallopt` (looked up by name, since
    /// malloc.h is not in any imported module).
    package static func set(_ option: Option, _ value: Int32) {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(option.rawValue, value)
        #endif
    }
}
