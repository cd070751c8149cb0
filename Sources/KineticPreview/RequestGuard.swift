/// Which requests the preview answers.
///
/// The preview runs beside a browser that visits any web page, and a page of any site
/// can make that browser send requests to 127.0.0.1. Three checks keep such pages out,
/// as Jupyter's server does:
/// - **Host**: the request's `Host` must name the address served (127.0.0.1, localhost,
///   [::1] or the `--host` given). A site that rebinds its own name to 127.0.0.1 (DNS
///   rebinding) sends its own name, so it is refused before it can read a response.
/// - **Origin**: when a browser sends one, it must be the page's own (`http://` + Host);
///   this also covers the WebSocket upgrade, which browsers send across sites freely.
/// - **Token**: a request that changes anything (the export, which writes a file) must
///   carry the per-session token in `X-Kinetic-Token`. Only the page has it (it is in the
///   page's HTML, which another site cannot read), and a cross-site page cannot set the
///   header without a preflight that the preview never grants.
public struct RequestGuard: Sendable {
    /// Host names served, lowercased, without brackets or port.
    public let hosts: Set<String>
    /// The per-session token that state-changing requests carry.
    public let token: String

    public static let tokenHeader = "X-Kinetic-Token"

    public init(host: String, token: String = RequestGuard.newToken()) {
        var names: Set<String> = ["127.0.0.1", "localhost", "::1"]
        names.insert(Self.bare(host.lowercased()))
        hosts = names
        self.token = token
    }

    /// 32 random bytes as hex, from the system's generator.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let n = generator.next() as UInt64
            let hex = String(n, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Why a request is refused (403), or nil to answer it.
    /// - Parameters:
    ///   - changesState: the request writes something (POST).
    ///   - host, origin, token: the request's `Host`, `Origin` and `X-Kinetic-Token`
    ///     headers, nil when absent.
    public func refusal(changesState: Bool, host: String?, origin: String?, token: String?) -> String? {
        guard let host, let name = Self.hostName(host), hosts.contains(name) else {
            return "this preview serves only requests addressed to \(hosts.sorted().joined(separator: ", ")) (Host header)"
        }
        if let origin, origin.lowercased() != "http://" + host.lowercased() {
            return "requests from other sites' pages are refused (Origin header)"
        }
        if changesState {
            guard let token, Self.equal(token, self.token) else {
                return "a request that writes needs the page's session token (\(Self.tokenHeader) header)"
            }
        }
        return nil
    }

    /// The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), lowercased;
    /// nil when malformed (spaces, userinfo, a bad port).
    static func hostName(_ header: String) -> String? {
        let text = header.lowercased()
        guard !text.isEmpty, text.count <= 255,
              text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != "@" && $0 != "/" }) else { return nil }
        var name = Substring(text), port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            name = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !name.contains(":") else { return nil }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        return name.isEmpty ? nil : String(name)
    }

    static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// Compares without stopping at the first difference.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
