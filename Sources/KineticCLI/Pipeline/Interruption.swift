import Foundation
import Kinetic

/// Ctrl-C, SIGTERM, SIGQUIT (no crash report: it is a request to stop), SIGHUP (the
/// terminal closed), SIGPIPE (stderr's reader went away) and SIGUSR1: remove the
/// temporary files of unfinished outputs (and let child processes remove theirs), then exit with the shell's convention
/// (128 + signal number).
///
/// The signal handler only writes the signal number into a pipe (all a handler may
/// safely do, whichever thread the kernel picks); a waiting thread reads it, removes the
/// files and exits.
enum Interruption {
    // Both are written once, in `install()`, before any handler is installed or the
    // reading thread starts; afterwards they are only read.
    nonisolated(unsafe) private static var pipeFDs: [Int32] = [-1, -1]
    /// The pipe's write end, read by the handler (a C function cannot capture).
    nonisolated(unsafe) private static var writeFD: Int32 = -1

    static func install() {
        guard pipe(&pipeFDs) == 0 else { return }
        writeFD = pipeFDs[1]
        let readFD = pipeFDs[0]
        for signalNumber in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGUSR1] {
            signal(signalNumber) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(Interruption.writeFD, &byte, 1)
            }
        }
        let waiter = Thread {
            var byte: UInt8 = 0
            while read(readFD, &byte, 1) < 0, errno == EINTR {}
            // A batch's scenes render in child processes: they get the signal too and
            // remove their own temporary files before this process exits.
            ChildProcesses.forward(Int32(byte))
            UnfinishedOutputs.removeAll()
            // write(2), not FileHandle: stderr may be the closed pipe that raised SIGPIPE.
            let message = Array("\ninterrupted\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(128 + Int32(byte))
        }
        waiter.start()
    }
}
