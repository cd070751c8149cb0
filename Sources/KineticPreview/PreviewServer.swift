import Foundation
import KineticFiles
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// `kinetic preview`'s web server (Hummingbird): the page, the scene's state and frames
/// as JSON and PNG, files under the scene's folder, and a WebSocket that tells the page
/// when the scene file changed.
///
/// Routes (anything else is 404; a malformed frame number or path is 400):
///   GET  /                    the player page
///   GET  /api/scene           timing, canvas, generation, problems (JSON)
///   GET  /api/frame/N.png     frame N as `render --frame N` writes it (?debug=1: `--debug`)
///   GET  /api/inspect/N       `inspect --frame N`'s JSON
///   POST /api/export?format=F writes the scene as F (gif, the default; mp4, webm, …) next to it
///   GET  /files/PATH          a file under the scene's folder (no folders, no `..`)
///   GET  /ws                  WebSocket: the state JSON each time the scene reloads
///
/// Every request, the WebSocket upgrade included, passes ``RequestGuard`` first (Host,
/// Origin, and the session token for the export): anything else is 403.
public struct PreviewServer: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    public let session: PreviewSession
    let files: ServedFiles
    let hub = SocketHub()
    /// Who may ask: the Host and Origin checks and the session token.
    public let requestGuard: RequestGuard
    /// The largest file `/files/` serves (it streams, never holding a file whole).
    public var maxFileBytes = 256 << 20
    /// How often the scene's files are checked for changes.
    public var pollInterval: Duration = .milliseconds(250)

    public init(host: String, port: Int, session: PreviewSession) {
        self.host = host
        self.port = port
        self.session = session
        requestGuard = RequestGuard(host: host)
        let folder = (session.path as NSString).deletingLastPathComponent
        files = ServedFiles(root: folder.isEmpty ? "." : folder)
    }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) || host.hasPrefix("127.")
    }

    /// The page's address for a bound port.
    public func url(port: Int) -> String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "http://\(h):\(port)/"
    }

    /// Serves until the process ends; `onRunning` gets the bound port once it listens.
    public func run(onRunning: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "kinetic-preview")
        logger.logLevel = .critical
        let hub = self.hub, requestGuard = self.requestGuard
        let app = Application(
            router: router(),
            server: HTTPServerBuilder { responder in
                AnswersMalformedRequests(base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, configuration: .init()
                ) { request, _, _ in
                    // A refused upgrade falls through to the router, whose guard answers 403.
                    guard request.path == "/ws", requestGuard.refusal(
                        changesState: false, host: request.authority,
                        origin: request.headerFields[.origin], token: nil) == nil else { return .dontUpgrade }
                    return .upgrade([:]) { inbound, outbound, _ in
                        let id = await hub.add(outbound)
                        // The page sends nothing; reading until it closes keeps the socket served.
                        do { for try await _ in inbound {} } catch {}
                        await hub.remove(id)
                    }
                })
            },
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        let session = self.session, interval = pollInterval
        let watcher = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if await session.reloadIfChanged() {
                    await hub.broadcast(String(decoding: await session.stateJSON(), as: UTF8.self))
                }
            }
        }
        defer { watcher.cancel() }
        try await app.runService(gracefulShutdownSignals: [])
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let session = self.session, files = self.files, requestGuard = self.requestGuard, maxFileBytes = self.maxFileBytes
        router.add(middleware: GuardMiddleware(requestGuard: requestGuard))
        router.get("/") { _, _ in
            Self.response(.ok, Array(PreviewPage.html(token: requestGuard.token).utf8), type: "text/html; charset=utf-8")
        }
        router.get("/api/scene") { _, _ in
            Self.response(.ok, await session.stateJSON(), type: "application/json")
        }
        router.get("/api/frame/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            guard name.hasSuffix(".png"), let index = Self.frameNumber(name.dropLast(4)) else {
                return Self.problem(.badRequest, "a frame is /api/frame/N.png with N a frame number")
            }
            let debug = request.uri.queryParameters.get("debug") == "1"
            return Self.reply(await session.png(frame: index, debug: debug), type: "image/png")
        }
        router.get("/api/inspect/:index") { _, context in
            guard let index = Self.frameNumber(Substring(context.parameters.get("index") ?? "")) else {
                return Self.problem(.badRequest, "inspect takes /api/inspect/N with N a frame number")
            }
            return Self.reply(await session.inspect(frame: index), type: "application/json")
        }
        router.post("/api/export") { request, _ in
            let format = request.uri.queryParameters.get("format") ?? "gif"
            switch await session.export(format: format) {
            case .success(let message): return Self.response(.ok, PreviewSession.json(["message": message]), type: "application/json")
            case .failure(let failure): return Self.reply(.failure(failure), type: "application/json")
            }
        }
        router.get("/files/**") { request, _ in
            let path = request.uri.path
            guard path.hasPrefix("/files/") else { return Self.problem(.badRequest, "malformed path") }
            switch files.resolve(path.dropFirst("/files/".count)) {
            case .failure(.malformed): return Self.problem(.badRequest, "malformed path")
            case .failure(.notFound): return Self.problem(.notFound, "no such file")
            case .success(let real):
                return Self.stream(real, root: files.root, maxBytes: maxFileBytes)
            }
        }
        return router
    }

    /// The file at `path` as a streamed body, read through the guarded reader in 64 KiB
    /// pieces: never more than one piece in memory, whatever the file's size.
    static func stream(_ path: String, root: String, maxBytes: Int) -> Response {
        let size: Int
        do { size = try GuardedFile(path: path, maxBytes: maxBytes, root: root).size } catch {
            if case .tooLarge = error { return problem(.contentTooLarge, "the file is over the \(maxBytes)-byte limit the preview serves") }
            return problem(.notFound, "no such file")
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType(of: path)
        headers[.cacheControl] = "no-store"
        let body = ResponseBody(contentLength: size) { writer in
            let file = try GuardedFile(path: path, maxBytes: maxBytes, root: root)
            var offset = 0
            // The length promised above: a file that grew is cut there, one that shrank ends early.
            while offset < size {
                let piece = try file.read(count: min(65_536, size - offset), at: offset)
                if piece.isEmpty { break }
                try await writer.write(ByteBuffer(bytes: piece))
                offset += piece.count
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// A frame number: decimal digits only, at most 9 of them (no sign, no overflow).
    static func frameNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    static func reply(_ result: Result<[UInt8], PreviewSession.FrameFailure>, type: String) -> Response {
        switch result {
        case .success(let bytes): response(.ok, bytes, type: type)
        case .failure(.notFound(let message)): problem(.notFound, message)
        case .failure(.failed(let message)): problem(.unprocessableContent, message)
        case .failure(.invalid(let message)): problem(.badRequest, message)
        }
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
        response(status, PreviewSession.json(["error": message]), type: "application/json")
    }

    static func response(_ status: HTTPResponse.Status, _ bytes: [UInt8], type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        case "yaml", "yml", "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

/// Answers 403 to every request ``RequestGuard`` refuses, before any route sees it.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let requestGuard: RequestGuard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = request.headers.first { $0.name.canonicalName == RequestGuard.tokenHeader.lowercased() }?.value
        if let why = requestGuard.refusal(changesState: request.method != .get && request.method != .head,
                                          host: request.head.authority,
                                          origin: request.headers[.origin], token: token) {
            return PreviewServer.problem(.forbidden, why)
        }
        return try await next(request, context)
    }
}

/// The open WebSockets, each told of every reload.
actor SocketHub {
    private var sockets: [Int: WebSocketOutboundWriter] = [:]
    private var next = 0

    func add(_ writer: WebSocketOutboundWriter) -> Int {
        next += 1
        sockets[next] = writer
        return next
    }

    func remove(_ id: Int) { sockets[id] = nil }

    func broadcast(_ text: String) async {
        for (id, socket) in sockets {
            do { try await socket.write(.text(text)) } catch { sockets[id] = nil }
        }
    }
}
