import Foundation
import Testing

@testable import MockServer

/// Interception: the proxy listener answers `CONNECT` for listed hosts with a certificate minted for them, serves
/// the tunnel's requests from the stubs (WireMock's `host`, `scheme`, `port` pick among them), and refuses every
/// other host as an unexpected request; nothing goes to the network.
@Suite struct InterceptionTests {
    @Test func aListedHostIsCoveredExactlyOrByOneWildcardLabel() throws {
        let context = try #require(tlsAvailable ? try TLSServerContext.minted() : nil)
        let intercept = Interception(hosts: ["API.example.com", "*.example.org", "10.0.0.7"], context: context)
        for host in ["api.example.com", "API.EXAMPLE.COM", "a.example.org", "10.0.0.7"] { #expect(intercept.covers(host), "\(host)") }
        for host in [
            "example.com", "x.api.example.com", "example.org", "a.b.example.org", "evilexample.org", ".example.org", "10.0.0.70", "",
        ] {
            #expect(!intercept.covers(host), "\(host)")
        }
    }

    @Test func aConnectAuthorityIsHostColonPortAndNothingElse() {
        #expect(Interception.authority("api.example.com:443")! == ("api.example.com", 443))
        #expect(Interception.authority("[::1]:8443")! == ("::1", 8443))
        for bad in [
            "api.example.com", "api.example.com:", ":443", "h:0", "h:65536", "h:99999999999999999999", "h:+1", "::1:443", "[::1", "[]:1",
            "h]:1", "h:0443", ":0443",
        ] {
            #expect(Interception.authority(bad) == nil, "\(bad)")
        }
    }

    @Test func aRequestKnowsItsHostAndPortFromItsAbsoluteTargetOrHostHeader() {
        var headers = HTTPHeaders()
        headers.add("Host", "API.Example.com:8443")
        let origin = HTTPRequest(method: "GET", target: "/x?a=1", headers: headers, scheme: "https")
        #expect(origin.host == "api.example.com" && origin.port == 8443 && origin.originTarget == "/x?a=1")
        let absolute = HTTPRequest(method: "GET", target: "http://user@evil.example:81/p?q=1", headers: headers)
        #expect(absolute.host == "evil.example" && absolute.port == 81 && absolute.originTarget == "/p?q=1" && absolute.path == "/p")
        let bare = HTTPRequest(method: "GET", target: "http://[::1]")
        #expect(bare.host == "::1" && bare.port == 80 && bare.path == "/")
        let noHost = HTTPRequest(method: "GET", target: "/", scheme: "https")
        #expect(noHost.host == "" && noHost.port == 443)
    }

    static let stubs = """
        { "mappings": [
          { "request": { "method": "GET", "url": "/v1/me", "host": { "equalTo": "api.example.com" }, "scheme": "https" },
            "response": { "status": 200, "body": "api over tls" } },
          { "request": { "method": "GET", "url": "/v1/me", "host": { "matches": ".*\\\\.example\\\\.org" } },
            "response": { "status": 200, "body": "org" } },
          { "request": { "method": "GET", "url": "/v1/me", "scheme": "http", "port": 80 },
            "response": { "status": 200, "body": "plain on 80" } }
        ] }
        """

    /// A server intercepting api.example.com and *.example.org, its authority in a file for clients.
    private func server() throws -> (TLSTestServer, proxy: String) {
        let context = try TLSServerContext.minted(hosts: ["api.example.com", "*.example.org"])
        var options = MockServer.Options()
        options.intercept = Interception(hosts: ["api.example.com", "*.example.org"], context: context)
        let server = try TLSTestServer(Self.stubs, context: context, options: options)
        return (server, try #require(server.server.proxyURL))
    }

    @Test(.enabled(if: tlsAvailable && hasCommand("curl"))) func curlThroughTheProxyReachesListedHostsOverVerifiedTLS() throws {
        let (server, proxy) = try server()
        defer { server.stop() }
        let result = try server.shell(
            "P='\(proxy)'; "
                + #"curl -sS --proxy "$P" --cacert "$CA" https://api.example.com/v1/me https://a.example.org/v1/me http://api.example.com/v1/me"#
        )
        #expect(result.stdout == "api over tlsorgplain on 80", "\(result.stderr)")
        #expect(server.server.summary.unexpected.isEmpty)
        let absolute = server.server.journal.ordered.map { $0.request }.first { $0.scheme == "http" }
        #expect(absolute?.target == "http://api.example.com/v1/me")
        // The admin API gives WireMock's url (path and query) and the scheme it came over.
        #expect(
            AdminAPI.loggedRequest(server.server.journal.ordered[0], secrets: false).contains(
                #""absoluteUrl":"https://api.example.com/v1/me""#))
    }

    @Test(.enabled(if: tlsAvailable && hasCommand("curl"))) func anotherHostIsRefusedAndUnexpectedAndNeverReached() throws {
        let (server, proxy) = try server()
        defer { server.stop() }
        let tunnel = try server.shell("curl -sS --proxy '\(proxy)' --cacert \"$CA\" https://example.net/ 2>&1; echo \" rc=$?\"")
        #expect(tunnel.stdout.contains("403") && tunnel.stdout.contains("rc=56"), "\(tunnel.stdout)")
        let plain = try server.shell("curl -sS --proxy '\(proxy)' -w ' %{http_code}' http://example.net/x")
        #expect(plain.stdout.contains("not an intercepted host") && plain.stdout.hasSuffix(" 403"), "\(plain.stdout)")
        let unexpected = server.server.summary.unexpected.map { "\($0.method) \($0.url)" }
        #expect(unexpected == ["CONNECT example.net:443", "GET http://example.net/x"])
        #expect(server.server.summary.unexpected.allSatisfy { $0.nearMiss.contains("refused 403") })
    }

    @Test(.enabled(if: tlsAvailable)) func aConnectWithoutAPortIsA400AndAnIdleTunnelIsClosedAtItsDeadline() throws {
        var limits = ServerLimits()
        limits.idleTimeoutMs = 300
        let context = try TLSServerContext.minted(hosts: ["api.example.com"])
        var options = MockServer.Options()
        options.intercept = Interception(hosts: ["api.example.com"], context: context)
        let server = try TLSTestServer(Self.stubs, limits: limits, context: context, options: options)
        defer { server.stop() }
        let port = try #require(server.server.proxyURL.flatMap { UInt16($0.split(separator: ":").last ?? "") })
        let bad = try RawClient(port: port)
        defer { bad.close() }
        bad.send("CONNECT api.example.com HTTP/1.1\r\nHost: api.example.com\r\n\r\n")
        #expect(bad.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 400"))
        let idle = try RawClient(port: port)
        defer { idle.close() }
        idle.send("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n")
        #expect(idle.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200 Connection Established"))
        #expect(idle.isClosed(timeout: 3), "a tunnel that never starts its handshake holds its connection")
    }

    /// A proxy listener on a free port for `stubs`, intercepting api.example.com; its port for raw clients.
    private func rawProxy(_ stubs: String = InterceptionTests.stubs) throws -> (TLSTestServer, port: UInt16) {
        let context = try TLSServerContext.minted(hosts: ["api.example.com"])
        var options = MockServer.Options()
        options.intercept = Interception(hosts: ["api.example.com"], context: context)
        let server = try TLSTestServer(stubs, context: context, options: options)
        return (server, try #require(server.server.proxyURL.flatMap { UInt16($0.split(separator: ":").last ?? "") }))
    }

    /// Fourth hostile review: inside a tunnel to api.example.com, `Host: evil.com` was answered from a stub that
    /// ignores hosts, where the same request at the proxy got 403.
    @Test(.enabled(if: tlsAvailable)) func aTunnelAnswersOnlyItsOwnHost() throws {
        let (server, port) = try rawProxy()
        defer { server.stop() }
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send("CONNECT api.example.com:80 HTTP/1.1\r\nHost: api.example.com:80\r\n\r\n")
        _ = client.read(until: "\r\n\r\n")
        client.send(
            "GET /v1/me HTTP/1.1\r\nHost: evil.com\r\n\r\nGET /v1/me HTTP/1.1\r\nHost: API.example.com.\r\nConnection: close\r\n\r\n")
        let answers = client.read(until: "plain on 80")
        #expect(
            answers.hasPrefix("HTTP/1.1 403") && answers.contains("evil.com asked inside the tunnel to api.example.com:80"), "\(answers)")
        #expect(answers.contains("plain on 80"))
        #expect(server.server.summary.unexpected.map(\.url) == ["/v1/me"])
        // The answered one is journaled with its host: which of several intercepted hosts was asked.
        #expect(server.server.journal.ordered.last?.request.target == "http://api.example.com/v1/me")
    }

    /// Fourth hostile review: `http://alice:hunter2@host/` put the password in the summary, the 403 and the journal.
    @Test(.enabled(if: tlsAvailable)) func userinfoInAnAbsoluteTargetIsNeverKept() throws {
        let (server, port) = try rawProxy()
        defer { server.stop() }
        for target in ["http://alice:hunter2@evil.example.net/x", "HTTP://alice:hunter2@API.example.com/v1/me"] {
            let client = try RawClient(port: port)
            client.send("GET \(target) HTTP/1.1\r\nHost: x.example\r\nConnection: close\r\n\r\n")
            let answer = client.read()
            client.close()
            #expect(!answer.contains("hunter2") && !answer.contains("alice"), "\(answer)")
        }
        #expect(!server.server.journal.json().contains("hunter2"))
        #expect(server.server.summary.unexpected.map(\.url) == ["http://evil.example.net/x"])
        // The scheme is case-insensitive: the second was absolute form for an intercepted host, answered.
        #expect(server.server.journal.ordered.last?.status == 200)
    }

    /// Attack 1, F9: at the proxy listener, origin form (`GET /any`, no tunnel) was answered for any `Host` and
    /// counted as matched, where the same request in absolute form was a 403.
    @Test(.enabled(if: tlsAvailable)) func originFormAtTheProxyIsAnsweredOnlyForAnInterceptedHost() throws {
        let (server, port) = try rawProxy()
        defer { server.stop() }
        var answers: [String] = []
        for host in ["evil.example.net", "127.0.0.1:\(port)", "API.example.com"] {
            let client = try RawClient(port: port)
            client.send("GET /v1/me HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            answers.append(client.read())
            client.close()
        }
        #expect(answers[0].hasPrefix("HTTP/1.1 403") && answers[0].contains("http://evil.example.net/v1/me: not an intercepted host"))
        #expect(answers[1].hasPrefix("HTTP/1.1 403"), "\(answers[1])")
        #expect(answers[2].hasPrefix("HTTP/1.1 200") && answers[2].hasSuffix("plain on 80"), "\(answers[2])")
        #expect(server.server.summary.unexpected.count == 2)
    }

    /// Fourth hostile review: a Host with a port that is not a number, userinfo, or a CONNECT with a body were
    /// answered (ports read as 80; the body became the next request, `helloGET`).
    @Test(.enabled(if: tlsAvailable)) func badHostHeadersAndAConnectWithABodyAre400s() throws {
        let (server, port) = try rawProxy()
        defer { server.stop() }
        let heads = [
            "GET /v1/me HTTP/1.1\r\nHost: api.example.com:abc\r\n\r\n", "GET /v1/me HTTP/1.1\r\nHost: api.example.com:99999\r\n\r\n",
            "GET /v1/me HTTP/1.1\r\nHost: user@api.example.com\r\n\r\n", "GET /v1/me HTTP/1.1\r\nHost: [::1\r\n\r\n",
            "CONNECT api.example.com:80 HTTP/1.1\r\nHost: api.example.com:80\r\nContent-Length: 5\r\n\r\nhello",
            "CONNECT user@api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n",
        ]
        for head in heads {
            let client = try RawClient(port: port)
            client.send(head)
            let answer = client.read(until: "\r\n\r\n")
            client.close()
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(head.debugDescription): \(answer)")
        }
        #expect(server.server.summary.unexpected.count == heads.count)
    }

    /// Attack 1, F8: a final dot made `api.example.com.` another name for `host` matchers and `{{request.host}}`, where
    /// the intercept check already read it as the same name.
    @Test func aFinalDotIsTheSameNameForMatchersAndTemplates() throws {
        let server = try Mappings.server(#"{"urlPath": "/v1/me", "host": {"equalTo": "api.example.com"}}"#)
        for host in ["API.EXAMPLE.COM.", "api.example.com.:80"] {
            #expect(Mappings.ask(server, "/v1/me", headers: [("Host", host)]).matched, "\(host)")
        }
        #expect(Mappings.ask(server, "http://api.example.com./v1/me").matched)
        #expect(!Mappings.ask(server, "/v1/me", headers: [("Host", "api.example.com..")]).matched)
        var headers = HTTPHeaders()
        headers.add("Host", "Api.Example.com.:8080")
        let template = try ResponseTemplate("{{request.host}} {{request.baseUrl}}")
        #expect(
            try template.render(HTTPRequest(method: "GET", target: "/", headers: headers)) == "api.example.com http://api.example.com:8080")
    }

    @Test func templatesAndTheAdminAPIGiveWireMocksBaseURLAndAbsoluteURL() throws {
        var headers = HTTPHeaders()
        headers.add("Host", "api.example.com:443")
        let standard = HTTPRequest(method: "GET", target: "/x", headers: headers, scheme: "https")
        let template = try ResponseTemplate("{{request.baseUrl}} {{request.host}} {{request.port}} {{request.scheme}}")
        #expect(try template.render(standard) == "https://api.example.com api.example.com 443 https")
        var other = HTTPHeaders()
        other.add("Host", "[::1]:8443")
        #expect(
            try template.render(HTTPRequest(method: "GET", target: "/x", headers: other, scheme: "https"))
                == "https://[::1]:8443 ::1 8443 https")
        let connect = HTTPRequest(method: "CONNECT", target: "127.0.0.1:22", headers: headers)
        #expect(AdminAPI.absoluteURL(connect, host: "api.example.com:443", url: connect.originTarget) == "127.0.0.1:22")
    }
}
