import Foundation
import Testing
@testable import KineticPreview

/// The preview answers only its own page: the Host names the address served, an Origin
/// is the page's own, and what writes carries the session's token (issue 37).
@Suite struct RequestGuardTests {
    let guarded = RequestGuard(host: "127.0.0.1", token: "t0k3n")

    @Test(arguments: ["127.0.0.1", "127.0.0.1:8040", "localhost:8040", "LOCALHOST", "[::1]:8040", "[::1]"])
    func theServedAddressesAreAnswered(host: String) {
        #expect(guarded.refusal(changesState: false, host: host, origin: nil, token: nil) == nil)
    }

    /// A site that rebinds its name to 127.0.0.1 still sends its own name as Host.
    @Test(arguments: ["evil.example", "evil.example:8040", "127.0.0.1.evil.example", "", "a b", "user@127.0.0.1",
                      "127.0.0.1:80:80", "[::1", "127.0.0.1:99999999", "localhost:"])
    func otherHostsAreRefused(host: String) {
        #expect(guarded.refusal(changesState: false, host: host, origin: nil, token: nil) != nil)
    }

    @Test func aMissingHostIsRefused() {
        #expect(guarded.refusal(changesState: false, host: nil, origin: nil, token: nil) != nil)
    }

    @Test func theHostGivenIsServedToo() {
        let lan = RequestGuard(host: "192.0.2.7", token: "x")
        #expect(lan.refusal(changesState: false, host: "192.0.2.7:8000", origin: nil, token: nil) == nil)
        #expect(guarded.refusal(changesState: false, host: "192.0.2.7:8000", origin: nil, token: nil) != nil)
    }

    /// An Origin, when a browser sends one, must be the page's own.
    @Test func originMustBeThePagesOwn() {
        #expect(guarded.refusal(changesState: false, host: "127.0.0.1:8040", origin: "http://127.0.0.1:8040", token: nil) == nil)
        for origin in ["http://evil.example", "http://127.0.0.1:8041", "https://127.0.0.1:8040", "null"] {
            #expect(guarded.refusal(changesState: false, host: "127.0.0.1:8040", origin: origin, token: nil) != nil, "\(origin)")
        }
    }

    /// What writes needs the token; a wrong or missing one is refused.
    @Test func writingNeedsTheToken() {
        #expect(guarded.refusal(changesState: true, host: "localhost:1", origin: nil, token: "t0k3n") == nil)
        #expect(guarded.refusal(changesState: true, host: "localhost:1", origin: nil, token: nil) != nil)
        #expect(guarded.refusal(changesState: true, host: "localhost:1", origin: nil, token: "t0k3m") != nil)
        #expect(guarded.refusal(changesState: true, host: "localhost:1", origin: nil, token: "") != nil)
    }

    @Test func tokensAreLongAndFresh() {
        let a = RequestGuard.newToken(), b = RequestGuard.newToken()
        #expect(a.count == 64 && a != b)
    }
}
