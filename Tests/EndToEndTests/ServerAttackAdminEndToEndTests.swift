import Foundation
import Testing

/// The mock server's journal and admin API against the attack-core findings: repeated headers, requests cut short
/// by the client, native routes' ids, and ids kept unique (real binary, raw sockets, curl and python3 as peers).
@Suite struct ServerAttackAdminEndToEndTests {
    static let json = ["-H", "Content-Type: application/json"]

    /// Sends raw requests (each argument one connection, `\r\n` escapes read) and closes each after 0.3 s.
    static let rawClient = """
        import os, socket, sys, time
        host, port = os.environ["SUT_MOCK_SERVER_URL"].rsplit("/", 1)[-1].rsplit(":", 1)
        for text in sys.argv[1:]:
            s = socket.create_connection((host, int(port)))
            s.sendall(text.encode().decode("unicode_escape").encode("latin-1"))
            time.sleep(0.3)
            s.close()
        """

    /// Repeated headers were written as duplicate JSON keys (readers kept only the last value); now one key per
    /// name, in any case, the values as a list, as WireMock's LoggedRequest writes them.
    @Test(.enabled(if: CLI.hasCommand("python3") && CLI.hasCommand("curl"), "needs python3 and curl"))
    func repeatedHeadersAreOneKeyWithAList() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"path": "/ok", "body": "ok"}]}"#, "ok.json", in: directory)
        let client = try CLI.write(Self.rawClient, "raw.py", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        let admin = directory.appendingPathComponent("admin.json").path
        let run = try CLI.run([
            "-q", "--port", "0", "--stub", stubs, "--journal", journal, "sh", "-c",
            "python3 \(client) 'GET /ok HTTP/1.1\\r\\nHost: a\\r\\nX-A: one\\r\\nx-a: two\\r\\nX-A: three\\r\\n\\r\\n'"
                + " && curl -s $SUT_MOCK_SERVER_URL/__admin/requests > \(admin)",
        ])
        #expect(run.status == 0, "\(run)")
        let check = """
            import json, sys
            def strict(pairs):
                keys = [k for k, _ in pairs]
                assert len(keys) == len(set(keys)), keys
                return dict(pairs)
            j = json.load(open(sys.argv[1]), object_pairs_hook=strict)["requests"][0]["headers"]
            a = json.load(open(sys.argv[2]), object_pairs_hook=strict)["requests"][0]["request"]["headers"]
            assert j["X-A"] == ["one", "two", "three"] and j["Host"] == "a", j
            assert a["X-A"] == ["one", "two", "three"], a
            print("ok")
            """
        let script = try CLI.write(check, "check.py", in: directory)
        #expect(try CLI.output(of: ["python3", script, journal, admin]).hasPrefix("ok"))
    }

    /// Requests the client cut short (head begun, or body short of its length, then closed) vanished: a strict
    /// run passed with 0 requests. They are journaled as refused and fail a strict run; a bare connect is nothing.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
    func requestsCutShortByTheClientFailAStrictRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"method": "ANY", "path": "/ok", "body": "ok"}]}"#, "ok.json", in: directory)
        let client = try CLI.write(Self.rawClient, "raw.py", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        for (request, words) in [
            ("POST /ok HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 100\\r\\n\\r\\nabc", "POST /ok"),
            ("GET /nope HTTP/1.1\\r\\nHost: a\\r\\nX-A: b", "/nope"),
            ("POST /ok HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n10\\r\\nabc", "POST /ok"),
        ] {
            let run = try CLI.run(["--strict", "--port", "0", "--stub", stubs, "--journal", journal, "python3", client, request])
            #expect(run.status != 0 && run.stderr.contains("1 unexpected") && run.stderr.contains(words), "\(request): \(run)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.contains("cut short by the client"), "\(request): \(text)")
        }
        // A connection that sends nothing (a port probe) is not a request.
        let probe = try CLI.run(["--strict", "--port", "0", "--stub", stubs, "python3", client, ""])
        #expect(probe.status == 0 && probe.stderr.contains("0 unexpected"), "\(probe)")
    }

    /// Native routes were listed with ids like `ex.json:1`, and a mapping read could not be put back (422 "not a
    /// UUID"). They get UUIDs, stable per file and place; GET, PUT back as read and DELETE work by them.
    @Test(.enabled(if: CLI.hasCommand("curl") && CLI.hasCommand("python3"), "needs curl and python3"))
    func nativeRoutesHaveUUIDsAndRoundTrip() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"method": "GET", "path": "/need", "body": "x"}]}"#, "ex.json", in: directory)
        let script = """
            U=$SUT_MOCK_SERVER_URL
            ID=$(curl -s $U/__admin/mappings | python3 -c 'import json,sys,uuid; i=json.load(sys.stdin)["mappings"][0]["id"]; print(uuid.UUID(i))')
            M=$(curl -s $U/__admin/mappings/$ID)
            echo "get $(curl -s -o /dev/null -w '%{http_code}' $U/__admin/mappings/$ID)"
            echo "put $(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: application/json' --data "$M" $U/__admin/mappings/$ID)"
            echo "count $(curl -s $U/__admin/mappings | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')"
            echo "delete $(curl -s -o /dev/null -w '%{http_code}' -X DELETE $U/__admin/mappings/$ID)"
            echo "id $ID"
            """
        let first = try CLI.run(["-q", "--admin-writes", "trust", "--port", "0", "--stub", stubs, "sh", "-c", script])
        for line in ["get 200", "put 200", "count 1", "delete 200"] { #expect(first.stdout.contains(line), "\(first)") }
        let again = try CLI.run(["-q", "--admin-writes", "trust", "--port", "0", "--stub", stubs, "sh", "-c", script])
        #expect(first.stdout.split(separator: "\n").last == again.stdout.split(separator: "\n").last, "stable: \(first) \(again)")
    }

    /// Two mappings with one id were both served and listed (import and POST). An id names one mapping: a later
    /// one replaces it (WireMock's duplicatePolicy OVERWRITE, the default), IGNORE keeps the first.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func mappingIdsStayUnique() throws {
        let id = "5a2c0e3e-1111-4222-8333-444455556666"
        func mapping(_ url: String, _ body: String) -> String {
            #"{"id": "\#(id)", "request": {"url": "\#(url)"}, "response": {"status": 200, "body": "\#(body)"}}"#
        }
        _ = try ServerTrustEndToEndTests.serving { url, _ throws in
            let curl = ServerTrustEndToEndTests.curl
            let imported = try curl(
                Self.json + [
                    "--data", #"{"mappings": [\#(mapping("/d1", "first")), \#(mapping("/d2", "second"))]}"#,
                    "\(url)/__admin/mappings/import",
                ])
            #expect(imported.hasSuffix(" 200"), "\(imported)")
            // Of two with one id the list's first is kept, as WireMock 2.35 imports (last mapping first; r10a C4).
            #expect(try curl(["\(url)/d2"]).hasSuffix(" 404"))
            #expect(try curl(["\(url)/d1"]) == "first 200")
            #expect(try curl(["\(url)/__admin/mappings"]).contains(#""total":1"#))
            #expect(try curl(Self.json + ["--data", mapping("/d3", "third"), "\(url)/__admin/mappings"]).hasSuffix(" 201"))
            #expect(try curl(["\(url)/d1"]).hasSuffix(" 404"))
            #expect(try curl(["\(url)/__admin/mappings/\(id)"]).contains("/d3"))
            let ignored = #"{"mappings": [\#(mapping("/d4", "fourth"))], "importOptions": {"duplicatePolicy": "IGNORE"}}"#
            #expect(try curl(Self.json + ["--data", ignored, "\(url)/__admin/mappings/import"]).hasSuffix(" 200"))
            #expect(try curl(["\(url)/d3"]) == "third 200")
            #expect(try curl(["\(url)/d4"]).hasSuffix(" 404"))
            let bad = #"{"mappings": [], "importOptions": {"duplicatePolicy": "MERGE"}}"#
            #expect(try curl(Self.json + ["--data", bad, "\(url)/__admin/mappings/import"]).hasSuffix(" 422"))
            #expect(try curl(["-X", "DELETE", "\(url)/__admin/mappings/\(id)"]).hasSuffix(" 200"))
            #expect(try curl(["\(url)/__admin/mappings"]).contains(#""total":0"#))
        }
    }
}

/// Under a low `ulimit -n`, 80 idle connections made the server stop answering anyone, silently.
@Suite struct ServerDescriptorLimitEndToEndTests {
    static let flood = """
        import os, resource, signal, socket, subprocess, sys, time
        def probe(host, port):
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(b"GET /ok HTTP/1.1\\r\\nHost: a\\r\\nConnection: close\\r\\n\\r\\n")
            data = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    data += chunk
            except OSError: pass
            s.close()
            return data.split(b" ")[1].decode() if data else "none"
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        if sys.argv[1] == "serve":
            limit = lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (40, hard))
            server = subprocess.Popen([sys.argv[2], "serve", "-q", "--port", "0", sys.argv[3]], stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, preexec_fn=limit, start_new_session=True)
            url = server.stdout.readline().decode().strip()
        else:
            url = os.environ["SUT_MOCK_SERVER_URL"]
        host, port = url.rsplit("/", 1)[-1].rsplit(":", 1)
        held = [socket.create_connection((host, int(port))) for _ in range(80)]
        time.sleep(0.5)
        print("flooded", probe(host, int(port)))
        for s in held: s.close()
        time.sleep(0.5)
        print("after", probe(host, int(port)))
        if sys.argv[1] == "serve": os.killpg(server.pid, signal.SIGKILL)
        """

    /// `serve` raises its soft limit to the hard one (as servers do): 80 idle connections under a soft limit of 40
    /// leave room for the next client. A run keeps the program's limit, so its server holds fewer connections than
    /// the descriptors it has and answers the rest 503 at once; either way no client hangs unanswered.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
    func aLowDescriptorLimitNeverLeavesClientsHanging() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"path": "/ok", "body": "ok"}]}"#, "ok.json", in: directory)
        let script = try CLI.write(Self.flood, "flood.py", in: directory)
        let served = try CLI.output(of: ["python3", script, "serve", CLI.sutLaunch, stubs])
        #expect(served.contains("flooded 200") && served.contains("after 200"), "\(served)")
        let run = try CLI.output(of: [
            "sh", "-c", "ulimit -Sn 40 && exec \"$0\" -q --port 0 --stub \"$1\" python3 \"$2\" run", CLI.sutLaunch, stubs, script,
        ])
        #expect(run.contains("flooded 503") && run.contains("after 200"), "\(run)")
    }
}
