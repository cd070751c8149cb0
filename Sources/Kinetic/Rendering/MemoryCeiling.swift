import Foundation
import KineticFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory the system grants this process, whatever `--max-memory` says: the
/// address-space limit (`ulimit -v`, RLIMIT_AS) and a container's cgroup memory limit.
///
/// Under either, an allocation fails long before the budget is spent: a frame's pixels
/// fail cleanly (exit 70), but glib and fontconfig abort the process when their own small
/// allocations fail, and a worker thread that cannot get its stack never starts. So a
/// render fits its frames into what the ceiling leaves after `reserve`, and refuses at
/// start (exit 71) when that is not even `minimum`.
package struct MemoryCeiling: Sendable {
    /// Bytes the process may still take.
    package var available: Int
    /// The limit that binds, for messages ("the address-space limit (ulimit -v) of 300 MB").
    package var name: String

    /// Kept back from the frame budget for what is not frames: fontconfig's caches (the
    /// CJK and emoji fonts' are large), glib, the second malloc arena, the encoder.
    /// Measured with the CJK and emoji text scene under caps: its address space grows
    /// by about 190 MB past the check with one worker, 235 MB with two, besides frames.
    package static let reserve = 160 << 20
    /// Kept back for each worker besides: its stack and Pango's font map (one a thread).
    package static let perWorker = 48 << 20
    /// The least a render needs beyond `reserve` (one worker and a few small frames).
    package static let minimum = perWorker + (16 << 20)

    /// The tighter of the two limits, nil when neither is set.
    package static func current() -> MemoryCeiling? {
        var found: [MemoryCeiling] = []
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
           let used = mappedBytes() {
            let cap = Int(clamping: limit.rlim_cur)
            found.append(MemoryCeiling(available: max(0, cap - used),
                                       name: "the address-space limit (ulimit -v) of \(ByteCount.format(cap))"))
        }
        // cgroup v2 at the container's root, then v1's memory controller.
        for (maxFile, usedFile) in [("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                    ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes")] {
            guard let cap = number(in: maxFile), cap < 1 << 60, let used = number(in: usedFile) else { continue }
            found.append(MemoryCeiling(available: max(0, cap - used),
                                       name: "the container's memory limit (cgroup) of \(ByteCount.format(cap))"))
            break
        }
        return found.min { $0.available < $1.available }
    }

    /// The frame budget a render may use: `budget`, or less when the ceiling leaves less.
    /// Throws when the ceiling leaves less than `minimum` past `reserve`.
    package static func frameBudget(_ budget: Int) throws(SceneRenderError) -> (bytes: Int, ceiling: MemoryCeiling?) {
        guard let ceiling = current() else { return (budget, nil) }
        let left = ceiling.available - reserve
        guard left >= minimum else {
            throw .outOfMemory("\(ceiling.name) leaves \(ByteCount.format(ceiling.available)); a render needs at least "
                               + "\(ByteCount.format(reserve + minimum))")
        }
        return left < budget ? (left, ceiling) : (budget, nil)
    }

    /// Tunes the allocator once at start, by whether an address-space limit is set.
    ///
    /// Under `ulimit -v`: at most two malloc arenas, since glibc reserves 64 MB of address
    /// space for each further thread's arena (up to 8 a core), which counts against the
    /// limit however little of it is used; and glibc's own mmap and trim thresholds, so
    /// freed frames go back at once. Without one: frame-sized blocks (a 750×1334 frame is
    /// 4 MB) stay in the heap between frames. glibc otherwise serves them with `mmap` and
    /// returns them, and every frame faulted in fresh pages the kernel zeroes first: 11–15%
    /// of an MP4 render's CPU was kernel time, against 5% for ffmpeg's encode of the same
    /// frames (docs/outputs.md). Blocks up to 32 MiB from the heap and up to 64 MiB of free
    /// heap kept halve that system time or better (0.85–1.09 s → 0.26–0.41 s on the bench
    /// scene) with the same peak memory, since the frames in flight are bounded anyway.
    package static func tuneAllocator() {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            Malloc.set(.arenaMax, 2)
        } else {
            Malloc.set(.mmapThreshold, 32 << 20)
            Malloc.set(.trimThreshold, 64 << 20)
        }
    }

    /// The process's mapped address space (VmSize), from /proc/self/statm.
    package static func mappedBytes() -> Int? {
        guard let text = GuardedFile.readSystemText("/proc/self/statm"),
              let pages = text.split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The decimal number a cgroup file holds ("max" or anything else: nil).
    private static func number(in path: String) -> Int? {
        guard let text = GuardedFile.readSystemText(path) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
