import Foundation
import Testing
@testable import KineticPreview
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scene that renders nothing: it records what the export button asked for.
final class RecordingScene: PreviewScene, @unchecked Sendable {  // used on the session's queue only
    let info = PreviewSceneInfo(fps: 10, frameCount: 3, width: 4, height: 4, scale: 1, files: [],
                                exportFormats: ["gif", "mp4", "webp"])
    private(set) var exported: [String] = []
    func png(frame index: Int, debug: Bool) throws -> [UInt8] { [] }
    func inspect(frame index: Int) throws -> String { "{}" }
    func export(format: String) throws -> String {
        exported.append(format)
        return "wrote scene.\(format)"
    }
}

/// The server on a free loopback port, stopped when `body` returns.
func withServer(scene: RecordingScene, _ body: (Int) async throws -> Void) async throws {
    try await withServer(scene: scene) { port, _ in try await body(port) }
}

/// The same, handing `body` the session's token too.
func withServer(scene: RecordingScene, _ body: (Int, String) async throws -> Void) async throws {
    let session = PreviewSession(path: "/nonexistent/scene.yaml", cacheBytes: 1 << 20) { _ in .success(scene) }
    let server = PreviewServer(host: "127.0.0.1", port: 0, session: session)
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task { try await server.run { continuation.yield($0) } }
    defer { task.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    try await body(port, server.requestGuard.token)
}

/// Sends `bytes` over a plain TCP connection and returns everything the server answers
/// until it closes the connection (or 10 s pass). The blocking socket calls run on a
/// dispatch thread: on the concurrency pool (two threads on two cores) they would starve
/// the server's own tasks.
func exchange(port: Int, _ bytes: [UInt8]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try blockingExchange(port: port, bytes) })
        }
    }
}

private func blockingExchange(port: Int, _ bytes: [UInt8]) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(connected == 0)
    try #require(send(fd, bytes, bytes.count, 0) == bytes.count)
    var answer: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        answer += buffer[0..<n]
    }
    return String(decoding: answer, as: UTF8.self)
}

@Suite struct PreviewServerRequestTests {
    /// Bytes that are no HTTP request at all get a 400, not a silently closed socket.
    @Test(arguments: [
        Array("\u{01}\u{02} garbage \u{FF}\r\n\r\n".utf8),
        Array("GET / HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n".utf8),
        Array("GET / HTTP/9.9.9\r\n\r\n".utf8),
        [UInt8](repeating: 0, count: 64) + [13, 10, 13, 10],
    ])
    func malformedRequestsGetBadRequest(bytes: [UInt8]) async throws {
        try await withServer(scene: RecordingScene()) { port in
            let answer = try await exchange(port: port, bytes)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "answer: \(answer.prefix(80).debugDescription)")
        }
    }

    /// The server still serves after a malformed request, and a well-formed one is not
    /// mistaken for garbage.
    @Test func aGoodRequestAfterGarbageIsServed() async throws {
        try await withServer(scene: RecordingScene()) { port in
            _ = try await exchange(port: port, Array("\u{16}\u{03}\u{01} not http\r\n\r\n".utf8))
            let answer = try await exchange(port: port, Array("GET /api/scene HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(answer.contains("\"exportFormats\":[\"gif\",\"mp4\",\"webp\"]"))
        }
    }

    /// The export button's request names the format; the scene writes exactly that one,
    /// GIF when none is named, and a format the scene does not offer is a 400.
    @Test func exportWritesTheFormatAsked() async throws {
        let scene = RecordingScene()
        try await withServer(scene: scene) { port, token in
            func post(_ target: String) async throws -> String {
                try await exchange(port: port, Array(("POST \(target) HTTP/1.1\r\nHost: localhost:\(port)\r\n"
                    + "X-Kinetic-Token: \(token)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").utf8))
            }
            let mp4 = try await post("/api/export?format=mp4")
            #expect(mp4.hasPrefix("HTTP/1.1 200") && mp4.contains("wrote scene.mp4"))
            let gif = try await post("/api/export")
            #expect(gif.hasPrefix("HTTP/1.1 200") && gif.contains("wrote scene.gif"))
            let bad = try await post("/api/export?format=exe")
            #expect(bad.hasPrefix("HTTP/1.1 400") && bad.contains("cannot export .exe"))
        }
        #expect(scene.exported == ["mp4", "gif"])
    }
}

/// The guard on the wire: a cross-site page's requests never reach the routes.
@Suite struct PreviewCrossSiteTests {
    @Test func aForeignHostIsRefused() async throws {
        try await withServer(scene: RecordingScene()) { port in
            let answer = try await exchange(port: port, Array("GET /api/scene HTTP/1.1\r\nHost: rebound.example:\(port)\r\nConnection: close\r\n\r\n".utf8))
            #expect(answer.hasPrefix("HTTP/1.1 403"), "answer: \(answer.prefix(80).debugDescription)")
        }
    }

    /// A POST from another site's page (a form or fetch carries its Origin, and no token)
    /// writes nothing.
    @Test func aCrossSiteExportIsRefused() async throws {
        let scene = RecordingScene()
        try await withServer(scene: scene) { port in
            let foreign = try await exchange(port: port, Array(("POST /api/export?format=gif HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Origin: http://evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").utf8))
            #expect(foreign.hasPrefix("HTTP/1.1 403"))
            let tokenless = try await exchange(port: port, Array(("POST /api/export?format=gif HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n").utf8))
            #expect(tokenless.hasPrefix("HTTP/1.1 403"))
        }
        #expect(scene.exported.isEmpty)
    }

    /// The page carries the token its export sends.
    @Test func thePageCarriesTheToken() async throws {
        try await withServer(scene: RecordingScene()) { port, token in
            let page = try await exchange(port: port, Array("GET / HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n".utf8))
            #expect(page.hasPrefix("HTTP/1.1 200"))
            #expect(page.contains("<meta name=\"kinetic-token\" content=\"\(token)\">"))
        }
    }

    /// A WebSocket upgrade from another site's page is not upgraded.
    @Test func aCrossSiteWebSocketIsRefused() async throws {
        try await withServer(scene: RecordingScene()) { port in
            let upgrade = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            let foreign = try await exchange(port: port, Array((upgrade + "Origin: http://evil.example\r\n\r\n").utf8))
            #expect(foreign.hasPrefix("HTTP/1.1 4") && !foreign.contains("101 Switching"), "answer: \(foreign.prefix(80).debugDescription)")
            let own = try await exchange(port: port, Array((upgrade + "Origin: http://127.0.0.1:\(port)\r\n\r\n").utf8))
            #expect(own.hasPrefix("HTTP/1.1 101"), "answer: \(own.prefix(80).debugDescription)")
        }
    }
}
