import ArgumentParser

/// The sysexits codes of section 9.
enum ExitStatus {
    /// EX_USAGE: a command-line mistake.
    static let usage = ExitCode(64)
    /// EX_DATAERR: the scene file is invalid.
    static let dataError = ExitCode(65)
    /// EX_NOINPUT: the scene file (or an input) is missing.
    static let noInput = ExitCode(66)
    /// EX_SOFTWARE: the simulation blew up, or an internal error.
    static let software = ExitCode(70)
    /// EX_OSERR: the system refuses what a render needs (memory under `ulimit -v`).
    static let systemError = ExitCode(71)
    /// EX_CANTCREAT: an output cannot be written.
    static let cannotCreate = ExitCode(73)
    /// EX_TEMPFAIL: a batch scene stopped by `--timeout` (trying again may succeed).
    static let timedOut = ExitCode(75)
}
