import Foundation
import Testing

/// Package managers as the program under test against an HTTPS mock server, trusting it through the variables
/// `--https` injects and nothing else: pip from a stubbed simple index, git through `GIT_SSL_CAINFO` from a bare
/// repository served by a `files` route (git's dumb HTTP protocol). Each has a control where the variables name the
/// system's authorities only, and the client refuses: the pass is the trust at work. (pip's vendored requests reads
/// `REQUESTS_CA_BUNDLE`, then `CURL_CA_BUNDLE`, before its own `PIP_CERT`: measured, a `PIP_CERT` alone pointing
/// elsewhere still passes, so the control overrides all three.)
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it, and libssl3)"))
struct HTTPSClientsEndToEndTests {
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// A minimal pure-Python wheel and a PEP 503 index page naming it (with its sha256, which pip checks).
    static let makeIndex = #"""
        import base64, hashlib, json, os, sys, zipfile
        root = sys.argv[1]
        name = "demo_pkg-1.0-py3-none-any.whl"
        files = {
            "demo_pkg/__init__.py": b"VALUE = 1\n",
            "demo_pkg-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0\n",
            "demo_pkg-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        }
        record = ""
        for path, data in files.items():
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record += f"{path},sha256={digest},{len(data)}\n"
        record += "demo_pkg-1.0.dist-info/RECORD,,\n"
        os.makedirs(os.path.join(root, "files"), exist_ok=True)
        wheel = os.path.join(root, "files", name)
        with zipfile.ZipFile(wheel, "w") as archive:
            for path, data in files.items():
                archive.writestr(path, data)
            archive.writestr("demo_pkg-1.0.dist-info/RECORD", record)
        sha = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        page = f'<!DOCTYPE html><html><body><a href="/files/{name}#sha256={sha}">{name}</a></body></html>'
        routes = {"routes": [
            {"method": "GET", "path": "/simple/demo-pkg/", "responseHeaders": {"Content-Type": "text/html"}, "body": page},
            {"method": "GET", "path": "/files/*", "files": "./files"},
        ]}
        json.dump(routes, open(os.path.join(root, "routes.json"), "w"))
        """#

    @Test(.enabled(if: CLI.hasCommand("python3") && hasPip(), "needs python3 with pip"))
    func pipDownloadsFromAStubbedIndexTrustingItThroughItsEnvironment() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.output(of: ["python3", "-c", Self.makeIndex, directory.path])
        let stubs = directory.appendingPathComponent("routes.json").path
        let out = directory.appendingPathComponent("out").path
        // No cache, no other index or links, no retries (a refusal is at once), no version check against PyPI.
        let pip =
            #"python3 -m pip download --no-deps --no-cache-dir --retries 0 --timeout 20 --index-url "$SUT_MOCK_SERVER_URL/simple" -d "\#(out)" demo-pkg"#
        let quiet = ["--env", "PIP_CONFIG_FILE=/dev/null", "--env", "PIP_FIND_LINKS=", "--env", "PIP_DISABLE_PIP_VERSION_CHECK=1"]
        let result = try CLI.run(["--https", "-p", "0", "--strict", "--stub", stubs] + quiet + ["sh", "-c", pip])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/demo_pkg-1.0-py3-none-any.whl"), "\(result.stdout)")
        #expect(result.stderr.contains("1× GET /simple/demo-pkg/") && result.stderr.contains("1× GET /files/*"), "\(result.stderr)")

        // The control: every variable pip reads naming the system's authorities only (a --env wins over ours).
        try? FileManager.default.removeItem(atPath: out)
        let system = ["PIP_CERT", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE"].flatMap {
            ["--env", "\($0)=\(Self.systemBundle)"]
        }
        let control = try CLI.run(["--https", "-p", "0", "--stub", stubs] + system + quiet + ["sh", "-c", pip])
        #expect(control.status != 0, "pip reached the server without trusting its authority")
        #expect(control.stdout.contains("CERTIFICATE_VERIFY_FAILED") || control.stderr.contains("CERTIFICATE_VERIFY_FAILED"))
        #expect(!FileManager.default.fileExists(atPath: out + "/demo_pkg-1.0-py3-none-any.whl"))
    }

    @Test(.enabled(if: CLI.hasCommand("git"), "needs git"))
    func gitLsRemoteAndCloneADumbHTTPRepositoryTrustingItThroughGITSSLCAINFO() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source")
        let bare = directory.appendingPathComponent("repo.git").path
        let git = ["git", "-c", "user.name=t", "-c", "user.email=t@t.test", "-c", "init.defaultBranch=main"]
        _ = try CLI.output(of: git + ["init", "-q", source.path])
        try "over https\n".write(to: source.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        _ = try CLI.output(of: git + ["-C", source.path, "add", "a.txt"])
        _ = try CLI.output(of: git + ["-C", source.path, "commit", "-qm", "one"])
        _ = try CLI.output(of: git + ["clone", "-q", "--bare", source.path, bare])
        _ = try CLI.output(of: ["git", "-C", bare, "update-server-info"]) // info/refs: what dumb HTTP reads
        // A files route serves the bare repository: git asks for smart HTTP, gets a plain file and falls back to dumb.
        let stubs = try CLI.write(
            #"{ "routes": [ { "method": "GET", "path": "/repo.git/**", "files": "./repo.git" } ] }"#, "routes.json", in: directory)
        let clone = directory.appendingPathComponent("clone").path
        let script =
            #"git ls-remote "$SUT_MOCK_SERVER_URL/repo.git" && git clone -q "$SUT_MOCK_SERVER_URL/repo.git" "\#(clone)" && cat "\#(clone)/a.txt""#
        let isolated = ["--env", "GIT_CONFIG_NOSYSTEM=1", "--env", "GIT_CONFIG_GLOBAL=/dev/null", "--env", "GIT_TERMINAL_PROMPT=0"]
        let result = try CLI.run(["--https", "-p", "0", "--strict", "--stub", stubs] + isolated + ["sh", "-c", script])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\trefs/heads/main\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("over https\n"), "\(result.stdout)")

        // The control: GIT_SSL_CAINFO naming the system's authorities only.
        try? FileManager.default.removeItem(atPath: clone)
        let control = try CLI.run(
            ["--https", "-p", "0", "--stub", stubs, "--env", "GIT_SSL_CAINFO=\(Self.systemBundle)"] + isolated + ["sh", "-c", script])
        #expect(control.status != 0, "git reached the server without trusting its authority")
        #expect(control.stderr.contains("certificate verification failed"), "\(control.stderr)")
        #expect(!FileManager.default.fileExists(atPath: clone + "/a.txt"))
    }
}

private func hasPip() -> Bool {
    (try? CLI.output(of: ["python3", "-m", "pip", "--version"]))?.hasPrefix("pip ") == true
}
