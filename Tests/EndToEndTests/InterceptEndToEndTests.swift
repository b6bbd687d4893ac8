import Foundation
import Testing

/// `--intercept HOST` as a user runs it: a program with its hosts written in its code (`https://api.example.com`)
/// reaches the mock server through the proxy variables it is given, over TLS it verifies with its own client, and
/// never reaches the network: a host not listed is an unexpected request.
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it, and libssl3)"))
struct InterceptEndToEndTests {
    static let mappings = """
        { "mappings": [
          { "request": { "method": "GET", "url": "/v1/me", "host": { "equalTo": "api.example.com" } },
            "response": { "status": 200, "body": "alice from api" } },
          { "request": { "method": "GET", "url": "/v1/me", "host": { "equalTo": "auth.example.org" } },
            "response": { "status": 200, "body": "alice from auth" } },
          { "request": { "method": "GET", "urlPath": "/status" }, "response": { "status": 200, "body": "direct" } }
        ] }
        """

    @Test func curlWithHardCodedHostsReachesTheStubsThroughTheProxyAndTheMockServerDirectly() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let script = """
            curl -sS --fail https://api.example.com/v1/me && echo
            curl -sS --fail https://auth.example.org/v1/me && echo
            curl -sS --fail "$SUT_MOCK_SERVER_URL/status" && echo
            echo "proxy=$([ "$HTTPS_PROXY" = "$SUT_MOCK_PROXY_URL" ] && [ "$http_proxy" = "$SUT_MOCK_PROXY_URL" ] && echo same)"
            """
        let result = try CLI.run([
            "--strict", "--intercept", "api.example.com", "--intercept", "*.example.org", "-p", "0", "--stub", stubs, "sh", "-c", script,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "alice from api\nalice from auth\ndirect\nproxy=same\n", "\(result.stderr)")
        // The server's own port stays plain HTTP: only the tunnels speak TLS.
        #expect(result.stderr.contains("3 requests, 0 unexpected"), "\(result.stderr)")
    }

    @Test(.enabled(if: CLI.hasCommand("python3"))) func pythonThroughTheProxyTrustsTheMintedCertificateWithNoSetting() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let script = """
            import urllib.request
            print(urllib.request.urlopen("https://api.example.com/v1/me", timeout=10).read().decode())
            try:
                import requests
            except ImportError:
                print("alice from auth")
            else:
                print(requests.get("https://auth.example.org/v1/me", timeout=10).text)
            """
        let result = try CLI.run([
            "--intercept", "api.example.com", "--intercept", "auth.example.org", "-p", "0", "--stub", stubs, "python3", "-c", script,
        ])
        #expect(result.stdout == "alice from api\nalice from auth\n", "\(result.stderr)")
        #expect(result.status == 0)
    }

    /// A client that sends its ClientHello right behind the CONNECT, before the 200 (Python's memory BIOs, the
    /// bytes in one write): the tunnel's handshake starts from the bytes already read.
    @Test(.enabled(if: CLI.hasCommand("python3"))) func aClientHelloSentWithTheConnectIsNotLost() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let script = """
            import os, socket, ssl, urllib.parse
            proxy = urllib.parse.urlparse(os.environ["SUT_MOCK_PROXY_URL"])
            context = ssl.create_default_context(cafile=os.environ["SUT_MOCK_SERVER_CA"])
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            tls = context.wrap_bio(incoming, outgoing, server_hostname="api.example.com")
            try:
                tls.do_handshake()
            except ssl.SSLWantReadError:
                pass
            s = socket.create_connection((proxy.hostname, proxy.port), timeout=10)
            s.sendall(b"CONNECT api.example.com:443 HTTP/1.1\\r\\nHost: api.example.com:443\\r\\n\\r\\n" + outgoing.read())
            received = b""
            while b"\\r\\n\\r\\n" not in received:
                received += s.recv(4096)
            head, rest = received.split(b"\\r\\n\\r\\n", 1)
            print(head.split(b"\\r\\n")[0].decode())
            incoming.write(rest)
            while True:
                try:
                    tls.do_handshake()
                    break
                except ssl.SSLWantReadError:
                    s.sendall(outgoing.read())
                    incoming.write(s.recv(65536))
            tls.write(b"GET /v1/me HTTP/1.1\\r\\nHost: api.example.com\\r\\nConnection: close\\r\\n\\r\\n")
            s.sendall(outgoing.read())
            answer = b""
            while True:
                try:
                    chunk = tls.read(65536)
                except ssl.SSLWantReadError:
                    data = s.recv(65536)
                    if not data:
                        break
                    incoming.write(data)
                    continue
                except ssl.SSLZeroReturnError:
                    break
                if not chunk:
                    break
                answer += chunk
            print(answer.split(b"\\r\\n\\r\\n", 1)[1].decode())
            """
        let result = try CLI.run(["--strict", "--intercept", "api.example.com", "-p", "0", "--stub", stubs, "python3", "-c", script])
        #expect(result.stdout == "HTTP/1.1 200 Connection Established\nalice from api\n", "\(result.stderr)")
        #expect(result.status == 0)
    }

    @Test func aHostNotListedIsRefusedNeverReachedAndFailsAStrictRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let script = """
            curl -sS https://example.net/ 2>/dev/null; echo "tls rc=$?"
            curl -sS -o /dev/null -w 'plain %{http_code}\\n' http://example.net/leak
            """
        let result = try CLI.run(["--strict", "--intercept", "api.example.com", "-p", "0", "--stub", stubs, "sh", "-c", script])
        #expect(result.stdout == "tls rc=56\nplain 403\n", "\(result.stderr)")
        #expect(result.status == 4, "\(result.stderr)")
        #expect(
            result.stderr.contains("CONNECT example.net:443") && result.stderr.contains("GET http://example.net/leak"), "\(result.stderr)")
        #expect(result.stderr.contains("not an intercepted host"))
    }

    /// A caller's NO_PROXY that names an intercepted host (or `*`) would send the program's request to the network:
    /// those entries are dropped, the others kept.
    @Test func noProxyEntriesThatWouldBypassTheInterceptionAreDropped() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        var environment = CLI.localEnvironment
        environment["NO_PROXY"] = "*,.example.com,corp.internal,10.0.0.0/8"
        environment["no_proxy"] = "api.example.com:443,auth.example.org,api.example.com."
        let result = try CLI.run(
            [
                "--intercept", "api.example.com", "--intercept", "*.example.org", "--intercept", "10.1.2.3", "-p", "0", "--stub", stubs,
                "sh", "-c", #"echo "$NO_PROXY|$no_proxy"; curl -sS https://api.example.com/v1/me"#,
            ], environment: environment)
        #expect(
            result.stdout == "corp.internal,127.0.0.1,localhost|corp.internal,127.0.0.1,localhost\nalice from api",
            "\(result.stdout) \(result.stderr)")
    }

    @Test func interceptValuesAreCheckedAsUsageErrorsBeforeAnythingRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let marker = directory.appendingPathComponent("ran").path
        // Fourth hostile review: loopback names passed and were never intercepted (NO_PROXY keeps them direct);
        // `*.test` was minted and every client refused it; a port or URL was called "not an IPv6 address".
        for value in [
            "https://api.example.com", "api.example.com:443", "api.example.com/v1", "a b", "", "*.*.example.com", "api.example.com,DNS:x",
            "127.0.0.1", "127.0.0.2", "localhost", "db.localhost", "::1", "0.0.0.0", "::", "*.test",
        ] {
            let result = try CLI.run(["--intercept", value, "-p", "0", "--stub", stubs, "touch", marker])
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("--intercept") && result.stderr.split(separator: "\n").count == 1, "\(value): \(result.stderr)")
        }
        let port = try CLI.run(["--intercept", "api.example.com:443", "-p", "0", "--stub", stubs, "true"])
        #expect(port.stderr.contains("holds a port: write the host alone"), "\(port.stderr)")
        let url = try CLI.run(["--intercept", "https://api.example.com", "-p", "0", "--stub", stubs, "true"])
        #expect(url.stderr.contains("is a URL: write the host alone"), "\(url.stderr)")
        // A proxy variable of the user's beside --intercept would send the program around it (an empty http_proxy
        // made Python go direct to a real host).
        for variable in ["http_proxy=", "HTTPS_PROXY=http://127.0.0.1:9", "SUT_MOCK_PROXY_URL=x"] {
            let given = try CLI.run(["--intercept", "api.example.com", "--env", variable, "-p", "0", "--stub", stubs, "touch", marker])
            #expect(
                given.status == 2 && given.stderr.contains("--intercept sets the proxy variables itself"), "\(variable): \(given.stderr)")
        }
        let many = (1...101).flatMap { ["--intercept", "h\($0).example.com"] }
        let tooMany = try CLI.run(many + ["-p", "0", "--stub", stubs, "touch", marker])
        #expect(tooMany.status == 2 && tooMany.stderr.contains("at most 100"), "\(tooMany.stderr)")
        let noServer = try CLI.run(["--intercept", "api.example.com", "touch", marker])
        #expect(noServer.status == 2 && noServer.stderr.contains("--stub"), "\(noServer.stderr)")
        let own = try CLI.run([
            "--https", "--https-cert", stubs, "--https-key", stubs, "--intercept", "api.example.com", "-p", "0", "--stub", stubs, "touch",
            marker,
        ])
        #expect(own.status == 2 && own.stderr.contains("--intercept api.example.com"), "\(own.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Fourth hostile review: a client that does not trust the run's authority failed its handshake in the tunnel
    /// and the strict run passed with "0 requests". It is an unexpected request now, saying why; a tunnel carries
    /// what the client speaks in it (TLS to port 80, plain HTTP to 443).
    @Test func aTunnelWhoseHandshakeFailsFailsAStrictRunAndATunnelCarriesWhatTheClientSpeaks() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let refused = try CLI.run([
            "--strict", "--intercept", "api.example.com", "-p", "0", "--stub", stubs, "sh", "-c",
            "curl -sS --cacert /etc/ssl/certs/ca-certificates.crt https://api.example.com/v1/me 2>/dev/null; echo c=$?",
        ])
        #expect(refused.stdout == "c=60\n" && refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        #expect(
            refused.stderr.contains("unexpected: CONNECT api.example.com:443")
                && refused.stderr.contains("the client refused the certificate"),
            "\(refused.stderr)")
        let crossed = try CLI.run([
            "--strict", "--intercept", "api.example.com", "-p", "0", "--stub", stubs, "sh", "-c",
            "curl -sS https://api.example.com:80/v1/me && echo && curl -sS http://api.example.com:443/v1/me",
        ])
        #expect(crossed.stdout == "alice from api\nalice from api" && crossed.status == 0, "\(crossed.stdout) \(crossed.stderr)")
    }

    /// Fourth hostile review: out of file descriptors, the run's private directory stayed in TMPDIR.
    @Test func outOfDescriptorsTheTrustDirectoryIsRemoved() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try CLI.run([
            "-q", "/bin/sh", "-c",
            "for n in 9 10 11 12 13; do (ulimit -n $n; TMPDIR='\(temporary.path)' '\(CLI.sutLaunch)' -q --intercept api.example.com -p 0 --stub '\(stubs)' true 2>/dev/null); done; echo rc=$?",
        ])
        #expect(result.stdout.hasPrefix("rc="), "\(result.stdout) \(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "\(left) \(result.stdout) \(result.stderr)")
    }

    @Test func servePrintsItsProxyAndAnswersThroughIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings.json", in: directory)
        let result = try CLI.run(["serve", "--intercept", "api.example.com", "--port", "0", stubs]) { process, outURL in
            let errURL = outURL.deletingLastPathComponent().appendingPathComponent("stderr")
            let deadline = Date().addingTimeInterval(20)
            var proxy = ""
            var authority = ""
            while Date() < deadline && (proxy.isEmpty || authority.isEmpty) {
                let err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
                for line in err.split(separator: "\n") {
                    if line.contains("proxy for api.example.com: ") { proxy = String(line.split(separator: " ")[4]) }
                    if line.contains("certificate authority: ") { authority = String(line.split(separator: " ")[3]) }
                }
                usleep(50_000)
            }
            #expect(proxy.hasPrefix("http://127.0.0.1:"), "no proxy line")
            let answer = try CLI.output(of: ["curl", "-sS", "--proxy", proxy, "--cacert", authority, "https://api.example.com/v1/me"])
            #expect(answer == "alice from api")
            process.terminate()
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("http://127.0.0.1:"), "serve's URL stays plain HTTP and first: \(result.stdout)")
    }

    @Test func aScenarioSaysWhichHostsItsServerIntercepts() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = """
            Feature: hard-coded hosts

              Scenario: the program calls its API by name
                Given the mock server intercepts "api.example.com"
                And the route "GET /v1/me" answers 200 with:
                  \"\"\"
                  alice
                  \"\"\"
                When I run "sh -c 'curl -sS --fail https://api.example.com/v1/me && echo && echo proxy=${SUT_MOCK_PROXY_URL}'"
                Then the exit code is 0
                And I see "alice"
                And I see "proxy=http://127.0.0.1:"
                And the server received 1 request to "GET /v1/me"

              Scenario: the host comes from a definition
                Given the mock server intercepts "${APIHOST}"
                And the route "GET /v1/me" answers 200 with:
                  \"\"\"
                  bob
                  \"\"\"
                When I run "sh -c 'curl -sS --fail https://auth.example.org/v1/me'"
                Then I see "bob"

              Scenario: too late to say
                Given the route "GET /x" answers 200 with:
                  \"\"\"
                  x
                  \"\"\"
                When I run "true"
                And the mock server intercepts "api.example.com"
            """
        let path = try CLI.write(feature, "intercept.feature", in: directory)
        let result = try CLI.run(["test", "-D", "APIHOST=auth.example.org", path])
        #expect(result.status != 0 && result.stdout.contains("3 scenarios: 2 passed, 1 could not run"), "\(result.stdout)")
        #expect(result.stdout.contains("the mock server already runs: say which hosts it intercepts before the first launch"))
        let listed = try CLI.run([
            "test", "-D", "APIHOST=auth.example.org", "--intercept", "api.example.com", "--name", "calls its API", path,
        ])
        #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)")
    }
}
