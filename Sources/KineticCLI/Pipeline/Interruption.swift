import Dispatch
import Foundation
import KineticEncode

/// Ctrl-C and SIGTERM: remove the temporary files of unfinished outputs, then exit with
/// the shell's convention (128 + signal number).
enum Interruption {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                TemporaryFiles.removeAll()
                FileHandle.standardError.write(Data("\ninterrupted\n".utf8))
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
