import Foundation
import KineticFiles

/// Files earlier runs left beside an output, removed before it is written (each removal
/// said through `warn`): temporary files of a killed run (SIGKILL cannot be caught), and PNG
/// frames of a longer render the new one would not overwrite.
package enum StaleOutputs {
    /// Removes `AtomicFile` temporaries (`.NAME.PID.RANDOM.tmp`) in `output`'s folder whose
    /// process is gone.
    package static func removeTemporaries(besides output: String, warn: (String) -> Void) {
        let folder = (output as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names {
            guard let pid = temporaryOwner(name), !isRunning(pid) else { continue }
            let path = (dir as NSString).appendingPathComponent(name)
            if unlink(path) == 0 {
                warn("removed \(path), a temporary file left by process \(pid), which is gone")
            }
        }
    }

    /// The PID in an `AtomicFile` temporary's name: `.` NAME `.` PID `.` RANDOM `.tmp`.
    package static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, let random = parts.last, !random.isEmpty,
              random.allSatisfy({ $0.isNumber || ("a"..."z").contains($0) }),
              let pid = pid_t(parts[parts.count - 2]), pid > 0 else { return nil }
        return pid
    }

    /// Whether `pid` is a running process. Whatever it runs, its files stay: a kinetic may
    /// run under another name (a versioned copy, valgrind's tool), and a file whose PID an
    /// unrelated process reused is left only until that one ends.
    private static func isRunning(_ pid: pid_t) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the files named by `pattern` (`frame-%04d.png`) with an index of
    /// `frameCount` or more: frames of an earlier, longer render, which the new one would
    /// leave beside its own as if they belonged to it. Frames inside the scene's range are
    /// kept (a render of `--frames 50-99` does not remove 0-49).
    package static func removeFrames(of pattern: String, from frameCount: Int, warn: (String) -> Void) {
        let folder = (pattern as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        let namePattern = (pattern as NSString).lastPathComponent
        guard let p = namePattern.range(of: "%"), let e = namePattern[p.upperBound...].firstIndex(of: "d") else { return }
        let prefix = String(namePattern[..<p.lowerBound]), suffix = String(namePattern[namePattern.index(after: e)...])
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        var removed = 0
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.count > prefix.count + suffix.count {
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard digits.allSatisfy(\.isNumber), let index = Int(digits), index >= frameCount,
                  OutputTarget.fileName(pattern: namePattern, index: index) == name else { continue }
            if unlink((dir as NSString).appendingPathComponent(name)) == 0 { removed += 1 }
        }
        if removed > 0 {
            warn("removed \(removed) frame\(removed == 1 ? "" : "s") of an earlier render past the last frame (\(frameCount - 1)) from \(dir)")
        }
    }
}
