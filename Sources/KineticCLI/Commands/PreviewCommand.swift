import ArgumentParser
import Foundation
import Kinetic
import KineticPreview

/// `kinetic preview SCENE`: a live player in the browser.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a live player for a scene on a local web page (reloads when the file changes).",
        discussion: """
        Open the printed address in a browser: the frame (full size or fitted), a scrubber with \
        frame and time, play/pause at the scene's fps, loop, step ±1 frame (arrow keys), speed \
        0.25×/1×, the physics debug overlay, layer bounds, a layer list that outlines the chosen \
        layer and shows its `inspect` JSON, and an export button that writes the scene as GIF, \
        APNG, WebP, MP4, WebM or MOV next to it (as `render -o NAME.gif` and the like would).

        Frames are rendered on demand exactly as `render --frame N` renders them and kept in a \
        cache of at most --cache-mb megabytes. When the scene file or one of its images changes \
        the page updates, keeping its time; a scene with errors lists each one (FILE:LINE:COL) \
        and the last good frame stays.

        The server listens on 127.0.0.1 unless --host says otherwise, and serves only its page, \
        frames, JSON and the files under the scene's folder.

        Examples:
          kinetic preview scenes/jump-star.yaml
          kinetic preview scene.yaml --port 8040
        """)

    @Argument(help: "The scene file (.yaml, .yml or .json).")
    var scene: String

    @Option(help: "The port to listen on (default: a free one).")
    var port: Int?

    @Option(help: "The address to listen on; anything but loopback lets other machines see the scene's folder.")
    var host = "127.0.0.1"

    @Option(help: "Most megabytes of encoded frames kept in memory.")
    var cacheMb = 64

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be 1…65535") }
        if !(1...4096).contains(cacheMb) { throw ValidationError("--cache-mb must be 1…4096") }
    }

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: scene, isDirectory: &isDirectory), !isDirectory.boolValue else {
            Terminal.error("\(scene): \(isDirectory.boolValue ? "is a folder, not a scene file" : "no such file")")
            throw ExitStatus.noInput
        }
        if !PreviewServer.isLoopback(host) {
            Terminal.warning("--host \(host): the preview and every file in the scene's folder are served to other machines")
        }
        let limits = limitOptions.limits
        let session = PreviewSession(path: scene, cacheBytes: cacheMb << 20) { PreviewFrames.load(path: $0, limits: limits) }
        let server = PreviewServer(host: host, port: port ?? 0, session: session)
        let scene = self.scene
        let finished = DispatchSemaphore(value: 0)
        // Written by the server task before `finished.signal()`, read after `wait()`: the
        // semaphore orders the two accesses.
        nonisolated(unsafe) var failure: Error?
        Task.detached {
            do {
                try await server.run { port in
                    Terminal.error("kinetic preview: \(scene) at \(server.url(port: port))  (Ctrl-C stops)")
                }
            } catch { failure = error }
            finished.signal()
        }
        finished.wait()
        if let failure {
            Terminal.error("kinetic preview: cannot serve on \(host):\(port.map(String.init) ?? "any port"): \(failure)")
            throw ExitStatus.software
        }
    }
}
