#if canImport(Glibc)
import Glibc
#endif

extension Kinetic {
    /// Keeps frame-sized buffers (a 750×1334 frame is 4 MB) in the heap between frames.
    ///
    /// glibc serves such blocks with `mmap` and returns them with `munmap` or a heap trim,
    /// so every frame faulted in fresh pages that the kernel zeroes first: 11–15% of an MP4
    /// render's CPU was kernel time, against 5% for ffmpeg's encode of the same frames
    /// (perf, docs/outputs.md). With blocks up to 32 MiB taken from the heap and up to
    /// 64 MiB of free heap kept, that system time halves (0.85 → 0.37 s on the bench
    /// scene); peak memory is unchanged, since the frames in flight are bounded anyway.
    public static func tuneAllocator() {
        #if canImport(Glibc)
        // Glibc's Swift module leaves out malloc.h, so `mallopt` is looked up by name, with
        // its M_MMAP_THRESHOLD (-3) and M_TRIM_THRESHOLD (-1). Another libc: nothing to do.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, 32 << 20)
        _ = mallopt(-1, 64 << 20)
        #endif
    }
}
