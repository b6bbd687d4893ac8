import AutomationHost
import MockServer
import ProcessEngine
import Scenarios
import SutLaunchCLI

// The fuzz targets: what scripts/fuzz.sh hands libFuzzer (it compiles this file with a generated
// LLVMFuzzerTestOneInput that calls one of them), and what FuzzTargetsTests runs on every saved input, so they
// stay compiled and every crash once found stays fixed. Each must end in a value or an error, never a trap.
#if canImport(Glibc)
import AutomationSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FuzzTargets {
    /// The names scripts/fuzz.sh takes, with their functions.
    static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("ParseJSON", parseJSON), ("ParseRequest", parseRequest), ("ParseGherkin", parseGherkin),
        ("ParseFlags", parseFlags), ("ServeConnection", serveConnection), ("ParseRegex", parseRegex),
        ("ParseTerminal", parseTerminal), ("ParseExpressions", parseExpressions), ("AdminRequest", adminRequest),
        ("RenderTemplate", renderTemplate),
        ("StepMatching", stepMatching), ("ShardTimings", shardTimings), ("ServeTLS", serveTLS), ("Inflate", inflate),
        ("MatchWireMock", matchWireMock), ("MatchXML", matchXML), ("ReadMessages", readMessages),
    ]

    /// An admin API or control channel request, as a test or a hostile page could send it: the first line is
    /// `METHOD TARGET`, then header lines up to an empty line, then the body. It goes through the endpoint policy
    /// and the admin API of a server with stubs (answered as a socket client would get it, head written by
    /// ResponseWriter), which is then reset; control waits are 0 ms. Each input must end within 5 s.
    static func adminRequest(_ bytes: [UInt8]) {
        let started = MonotonicClock.milliseconds()
        let text = String(decoding: bytes, as: UTF8.self)
        let (head, body) =
            text.firstRange(of: "\n\n").map { (text[..<$0.lowerBound], Array(text[$0.upperBound...].utf8)) } ?? (text[...], [])
        let lines = head.split(separator: "\n", omittingEmptySubsequences: false)
        let requestLine = (lines.first ?? "").split(separator: " ", maxSplits: 1)
        let method = requestLine.first.map(String.init) ?? "GET"
        var target = requestLine.count > 1 ? String(requestLine[1]) : "/__admin"
        if !target.hasPrefix("/__admin") && !target.hasPrefix("/__sut/control") { target = "/__admin/" + target }
        if target.hasPrefix("/__sut/control") && !target.hasPrefix("/__sut/control/ack") {
            // No long poll: the wait each method reads is given first (a second value of it is a 400, never a wait).
            let parts = target.split(separator: "?", maxSplits: 1)
            let wait = method == "POST" ? "waitForAckMs=1" : "timeoutMs=0"
            target = parts[0] + "?" + wait + (parts.count > 1 ? "&" + parts[1] : "")
        }
        var headers: HTTPHeaders = ["Host": "127.0.0.1:8080"]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces())
        }
        if !headers.contains("Content-Type") {
            headers.add("Content-Type", target.hasPrefix("/__admin") ? "application/json" : "application/octet-stream")
        }
        let response = adminServer.handle(HTTPRequest(method: method, target: target, headers: headers, body: body))
        var output: [UInt8] = []
        ResponseWriter.append(response, to: &output, headRequest: method == "HEAD", keepAlive: true, http10: false)
        _ = adminServer.handle(HTTPRequest(method: "POST", target: "/__admin/reset", headers: ["Host": "127.0.0.1"]))
        let elapsed = MonotonicClock.milliseconds() - started
        FuzzTargets.checkTime(elapsed, limitMs: 5_000, "\(method) \(target) took \(Int(elapsed)) ms")
    }

    private static let adminServer: MockServer = {
        let server = MockServer(stubs: stubSet)
        server.onShutdown {}
        return server
    }()

    /// A response template rendered against a request made of the same input: line 1 is the template (a route's
    /// body and a header value), line 2 the query string, line 3 a header and cookie value, the rest the body.
    /// The answer is the template's, a 400 (a value a helper cannot use) or a 500 (a spent budget), and no
    /// header value carries a control byte from the request.
    static func renderTemplate(_ bytes: [UInt8]) {
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(
            String.init)
        let part = { (index: Int) in parts.count > index ? parts[index] : "" }
        let template = JSONWriter.quoted(part(0))
        // The header value always renders (a value without `{{` would be sent as the file wrote it: the head
        // writer's gate covers that, not templating).
        let header = JSONWriter.quoted("{{request.method}}" + part(0))
        let routes =
            #"{"routes": [{"method": "POST", "path": "/t/{id}", "template": true, "body": \#(template), "responseHeaders": {"X-T": \#(header)}}]}"#
        guard let stubs = try? StubLoader.parse(routes, file: "fuzz.json", directory: "/nonexistent") else { return }
        var headers: HTTPHeaders = ["X-A": part(2)]
        headers.add("Cookie", part(2))
        // The query goes as a client writes it: bytes outside printable ASCII percent-encoded (they decode to
        // anything again). Raw, `?` and a combining mark after it are one Character, and the target no path.
        let query = part(1).utf8.map {
            $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#")
                ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true).leftPadded
        }.joined()
        let request = HTTPRequest(method: "POST", target: "/t/a%2Fb?" + query, headers: headers, body: Array(part(3).utf8))
        let response = MockServer(stubs: stubs).handle(request)
        precondition([200, 400, 500].contains(response.status), "status \(response.status)")
        for (name, value) in response.headers.entries {
            precondition(!value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "a control byte in the header \(name)")
        }
    }

    /// Tag expressions (`--tags`) and Cucumber Expressions (step patterns): the first line is the expression, the
    /// rest is a step text to match and a list of tags to select.
    static func parseExpressions(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let rest = parts.count > 1 ? String(parts[1]) : ""
        if let tags = try? TagExpression.parse(String(parts[0])) {
            _ = tags.matches(rest.split(separator: " ").map(String.init))
        }
        guard let expression = try? CucumberExpression(String(parts[0])),
            let regex = try? Regex("^" + expression.pattern + "$"), let match = try? regex.wholeMatch(in: rest)
        else { return }
        _ = expression.values(match.output.dropFirst().map { $0.substring ?? "" })
        _ = expression.sample
    }

    /// Step matching as `test` does it, on the Pike VM. The first byte picks a Cucumber Expression (a step file's
    /// `step`, even) or a regular expression (a catalog pattern, odd) and, above that bit, the chunk size; the first
    /// line after it is the pattern, the rest the text. The pattern is matched whole with its groups, the text is
    /// substituted (`${NAME}`, `{n}`), looked up in the catalog and turned into snippets, and the text is fed as output in chunks to an output
    /// step's line matcher, which must agree with its lines tested one by one. Each input ends within 1.5 s.
    static func stepMatching(_ bytes: [UInt8]) {
        let started = MonotonicClock.milliseconds()
        guard let kind = bytes.first else { return }
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let pattern = String(parts[0])
        let subject = parts.count > 1 ? String(parts[1]) : ""
        let search: RegexBox
        if kind & 1 == 0 {
            guard let step = try? UserStep(pattern: pattern, run: ["true"], source: "fuzz.steps.json:1", directory: "/") else { return }
            _ = step.match(subject)
            _ = UserSteps.clash(step, among: [])
            search = step.regex
        } else {
            guard let whole = try? RegexBox("^" + pattern + "$", groups: true), let part = try? RegexBox(pattern) else { return }
            _ = StepDefinition.arguments(of: whole, in: subject)
            _ = StepDefinition.literalPrefix(of: pattern)
            search = part
        }
        _ = StepVariables.names(in: subject)
        _ = StepVariables.substitute(subject, values: kind & 2 == 0 ? [] : ["{2}", "${A}"]) { "<\($0)>" }
        _ = StepCatalog.find(subject)
        _ = UserSteps.snippet(for: subject)
        _ = UserSteps.swiftSnippet(for: subject)
        let output = Array(subject.utf8)
        var matcher = LineMatcher(search)
        var streamed = false
        var start = 0
        let chunk = Int(kind >> 1) + 1
        while start < output.count, !streamed {
            streamed = matcher.feed(output[start..<min(output.count, start + chunk)])
            start += chunk
        }
        if !streamed { streamed = matcher.end() }
        var lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let expected = lines.contains { line in
            search.matchesPart(String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self))
        }
        precondition(streamed == expected, "the line matcher said \(streamed) for /\(pattern)/, the lines one by one \(expected)")
        let elapsed = MonotonicClock.milliseconds() - started
        FuzzTargets.checkTime(elapsed, limitMs: 1_500, "/\(pattern.prefix(80))/ on \(output.count) bytes took \(Int(elapsed)) ms")
    }

    /// What a program prints on a pseudo-terminal, rendered as a terminal would (TerminalScreen): the first
    /// byte picks the size (1-64 columns, 1-16 rows), the rest is the output.
    static func parseTerminal(_ bytes: [UInt8]) {
        let shape = bytes.first ?? 0
        var screen = TerminalScreen(TerminalSize(columns: Int(shape & 0x3F) + 1, rows: Int(shape >> 6) * 4 + 1))
        screen.feed(bytes.dropFirst())
        _ = screen.text
        _ = screen.line(Int(shape % 20))
    }

    /// The regular expression engine stubs and steps use: the first line is the pattern, the rest the text.
    static func parseRegex(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let regex = try? RegexBox(String(parts[0])) else { return }
        let input = parts.count > 1 ? String(parts[1]) : ""
        _ = regex.matchesWhole(input)
        _ = regex.matchesPart(input)
    }

    /// The JSON parser and the stub loader (native and WireMock) on arbitrary bytes; and the bytes as a
    /// response template, rendered for a request that carries them as its body.
    static func parseJSON(_ bytes: [UInt8]) {
        let whole = try? JSONParser.parse(bytes)
        // The parse that leaves a stub file's routes to the threads that build them accepts exactly what the
        // whole parse accepts, and gives the same tree.
        precondition(reassembled(bytes) == whole, "the deferred parse disagrees with the whole parse")
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? StubLoader.parse(text, file: "fuzz.json", directory: "/nonexistent")
        if let template = try? ResponseTemplate(text) {
            _ = try? template.render(HTTPRequest(method: "POST", target: "/a/b?q=1", headers: ["X-A": "1"], body: bytes))
        }
    }

    /// `JSONParser.parse(_:deferringArrayAt: "routes")` with its elements parsed and put back; nil when either
    /// part refuses the bytes.
    static func reassembled(_ bytes: [UInt8]) -> JSONNode? {
        guard let (root, deferred) = try? JSONParser.parse(bytes, deferringArrayAt: "routes") else { return nil }
        guard let deferred else { return root }
        var elements: [JSONNode] = []
        for index in 0..<deferred.count {
            guard let element = try? deferred.element(index) else { return nil }
            elements.append(element)
        }
        let array = JSONNode(.array(elements), at: deferred.position)
        guard case .object(var members) = root.value else { return array }
        for index in members.indices where members[index].key == "routes" && members[index].value.position == deferred.position {
            members[index].value = array
        }
        return JSONNode(.object(members), at: root.position)
    }

    /// An HTTP/1.1 request head and a chunked body, as a client could send them.
    static func parseRequest(_ bytes: [UInt8]) {
        _ = try? RequestHead.parse(bytes[...]).framing()
        var decoder = ChunkedDecoder(limit: 1 << 20)
        _ = try? decoder.decode(bytes[...])
    }

    /// The Gherkin parser on arbitrary text.
    /// `--shard K/N --shard-timings FILE`: the first two bytes give N (1 to 10,000), the third the number of
    /// scenarios (0 to 255), the rest is the timings file (a JSON report or JUnit, with the scenarios' names).
    /// A timings file is read or refused, never trapped on; every scenario lands in exactly one share.
    static func shardTimings(_ bytes: [UInt8]) {
        guard bytes.count >= 3 else { return }
        let shards = (Int(bytes[0]) << 8 | Int(bytes[1])) % 10_000 + 1
        let feature = "Feature: f\n" + (0..<Int(bytes[2])).map { "  Scenario: s\($0)\n    Given x\n" }.joined()
        guard let document = try? GherkinParser.parse(feature, uri: "f.feature") else {
            preconditionFailure("the generated feature parses")
        }
        let pickles = Pickle.compile(document)
        let timings = (try? Sharding.timings(from: String(decoding: bytes.dropFirst(3), as: UTF8.self), file: "fuzz.json")) ?? nil
        let shares = Sharding.balanced(pickles, timings: timings ?? [:], shards: shards)
        precondition(shares.count <= shards && shares.map(\.count).reduce(0, +) == pickles.count, "a scenario in no share or in two")
        precondition(Set(shares.flatMap { $0.map(\.line) }).count == pickles.count, "a scenario in two shares")
        var union = 0
        for index in Set([1, shards, shards / 2 + 1]) { union += Sharding.share(pickles, shard: (index, shards), timings: timings).count }
        precondition(union <= pickles.count, "shares overlap")
    }

    static func parseGherkin(_ bytes: [UInt8]) {
        // Parsed and compiled: outline expansion is where rows meet placeholders.
        guard let document = try? GherkinParser.parse(String(decoding: bytes, as: UTF8.self), uri: "fuzz.feature") else { return }
        _ = Pickle.compile(document)
    }

    /// What carries flags: the wire format as the program under test decodes it (launch arguments and
    /// environment), and the CLI's flag assignments, flags files, .env files and durations.
    static func parseFlags(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = WireFormat.decode(
            arguments: ["app", "UI_TEST_MODE", "EPHEMERAL_" + text, "AUTOMATION_" + text],
            environment: ["SUT_EPHEMERAL": text, "SUT_AUTOMATION": text])
        _ = try? FlagAssignment.parse(text)
        _ = try? FlagsFile.parse(text, file: "fuzz.json")
        _ = try? DotEnv.parse(text, file: "fuzz.env")
        _ = DurationParser.parse(text)
    }

    /// A whole client connection: the bytes are what the client sends; the server's connection loop answers
    /// them from a stub set over one end of a socketpair until the client's bytes end.
    static func serveConnection(_ bytes: [UInt8]) {
        withClient(sending: bytes) { socket in
            Connection(
                socket: socket, clientAddress: "fuzz", limits: connectionLimits,
                handler: { stubServer.handle($0) }, isStopped: { false }
            ).serve()
        }
    }

    /// Runs `serve` on the server end of a socketpair whose client end has sent `bytes` and shut down its writes;
    /// the client reads on its own thread, so no server write blocks. Both ends are closed after.
    static func withClient(sending bytes: [UInt8], _ serve: (Socket) -> Void) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, socketStream, 0, &pair) == 0 else { return }
        // Input is at most a few KiB (fuzz.sh's -max_len): it fits the socket buffer, so it is all sent first.
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) }
            if sent <= 0 { break }
            offset += sent
        }
        shutdown(pair[1], Int32(SHUT_WR))
        let client = pair[1]
        let reader = JoinableThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while read(client, &buffer, buffer.count) > 0 {}
        }
        serve(Socket(fd: pair[0]))
        close(pair[0])
        reader.join()
        close(pair[1])
    }

    private static let stubServer = MockServer(stubs: stubSet)

    /// Native routes and WireMock mappings with JSONPath matchers (arbitrary bodies reach matchesJsonPath).
    private static let stubSet: StubSet = {
        var set = nativeStubs
        set.merge(
            try! StubLoader.parse(
                """
                { "mappings": [
                  { "request": { "method": "POST", "urlPath": "/jp", "bodyPatterns": [ { "matchesJsonPath": "$.items[?(@.price > 10)]" } ] },
                    "response": { "status": 200, "body": "jp" } },
                  { "request": { "method": "POST", "urlPath": "/jpv", "bodyPatterns": [ { "matchesJsonPath": { "expression": "$..name", "matches": "a.*" } } ] },
                    "response": { "status": 200, "body": "jpv" } },
                  { "request": { "method": "POST", "urlPath": "/jpa", "bodyPatterns": [ { "matchesJsonPath": { "expression": "$.a[0].b", "absent": true } } ] },
                    "response": { "status": 200, "body": "jpa" } }
                ] }
                """, file: "mappings.json"))
        return set
    }()

    private static let nativeStubs = try! StubLoader.parse(
        """
        { "routes": [
          { "method": "GET", "path": "/message", "body": "Hello world" },
          { "method": "POST", "path": "/users/{id}/orders", "requestJsonIncludes": { "a": 1 }, "status": 201, "json": { "ok": true } },
          { "path": "/chunked", "body": "in chunks", "chunked": true },
          { "path": "/q", "query": { "x": { "matches": "[0-9]+" } }, "headers": { "h": { "contains": "v" } }, "body": "q" },
          { "path": "/seq", "responses": [ { "status": 500 }, { "status": 200 } ] },
          { "path": "/s", "scenario": "s", "whenState": "Started", "setState": "next", "body": "s" },
          { "path": "/bad", "fault": "malformed-chunk" },
          { "path": "/re", "query": { "r": { "matches": "(a+)+b" } }, "body": "re" },
          { "path": "/random", "fault": "random-data" }
        ] }
        """, file: "fuzz.json")

    /// Short timeouts: the client never sends more than its input, so waiting long only slows the fuzzer.
    private static let connectionLimits: ServerLimits = {
        var limits = ServerLimits()
        limits.headerTimeoutMs = 20
        limits.bodyTimeoutMs = 20
        limits.idleTimeoutMs = 20
        limits.sendTimeoutMs = 200
        limits.maxBodyBytes = 64 * 1024
        return limits
    }()

    #if canImport(Glibc)
    private static let socketStream = Int32(SOCK_STREAM.rawValue)
    #else
    private static let socketStream = SOCK_STREAM
    #endif
}

/// A POSIX thread that can be joined (Foundation's Thread cannot).
final class JoinableThread: @unchecked Sendable {
    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        pthread_create(
            &thread, nil,
            { context in
                Unmanaged<JoinableThread>.fromOpaque((context as UnsafeMutableRawPointer?)!).takeUnretainedValue().body()
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    func join() {
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        if let thread { pthread_join(thread, nil) }
        #endif
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}

extension FuzzTargets {
    /// Under the fuzzer (scripts/fuzz.sh builds with `-D FUZZING`), an input slower than `limitMs` is a finding and
    /// stops the run. Under `swift test` the replay of saved inputs is timed by the test itself (a hang detector on a
    /// machine that may be busy): a time check here would crash the whole test process on a loaded machine.
    static func checkTime(_ elapsed: Double, limitMs: Double, _ message: @autoclosure () -> String) {
        #if FUZZING
        precondition(elapsed < limitMs, message())
        #endif
    }
}
