import Foundation
import Testing

/// `--format github` never lets a program's output, a scenario name or a step's text become a workflow command
/// (issue 24: a CR in an annotation forged a second command; `::warning …` and `::stop-commands::` printed by
/// the program ran). The output is read as GitHub's runner reads it: lines split at CR, LF or CRLF; `::name
/// props::data` after leading spaces, `##[name props]data` anywhere in a line; `::stop-commands::T` ignores all
/// until a command named T.
@Suite struct GitHubOutputEndToEndTests {
    /// actions/runner's ActionCommandManager + ActionCommand.TryParseV2/TryParse, in Python: the commands it would
    /// process, as JSON `[{"name", "data", "properties"}]`.
    static let runner = #"""
        import json, re, sys
        registered = {"set-env", "set-output", "save-state", "add-mask", "add-path", "debug", "warning", "error", "notice",
                      "group", "endgroup", "echo", "add-matcher", "remove-matcher", "stop-commands"}
        def unescape(text, prop):
            pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if prop else []) + [("%25", "%")]
            for escaped, raw in pairs: text = text.replace(escaped, raw)
            return text
        def parse(line, names):
            trimmed = line.lstrip()
            if trimmed.startswith("::"):
                end = trimmed.find("::", 2)
                if end >= 0:
                    info = trimmed[2:end]; name = info.split(" ", 1)[0]
                    if name.lower() in names:
                        props = {}
                        if " " in info:
                            for pair in info.split(" ", 1)[1].strip().split(","):
                                if "=" in pair: key, value = pair.split("=", 1); props[key] = unescape(value, True)
                        return {"name": name.lower(), "data": unescape(trimmed[end + 2:], False), "properties": props}
            start = line.find("##[")
            if start >= 0:
                close = line.find("]", start)
                if close >= 0:
                    name = line[start + 3:close].split(" ", 1)[0]
                    if name.lower() in names: return {"name": name.lower(), "data": line[close + 1:], "properties": {}}
            return None
        names = set(registered); stopped = None; processed = []
        for line in re.split(r"\r\n|\r|\n", sys.stdin.read()):
            command = parse(line, names)
            if command is None: continue
            if stopped is not None:
                if command["name"] == stopped:
                    processed.append(command); names.discard(stopped); stopped = None
                continue
            processed.append(command)
            if command["name"] == "stop-commands":
                stopped = command["data"].lower(); names.add(stopped)
        print(json.dumps(processed))
        """#

    struct Command: Decodable {
        var name: String
        var data: String
        var properties: [String: String]
    }

    static func commands(in output: String) throws -> [Command] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = ["python3", "-c", runner]
        let input = Pipe()
        let out = Pipe()
        process.standardInput = input
        process.standardOutput = out
        try process.run()
        input.fileHandleForWriting.write(Data(output.utf8))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([Command].self, from: data)
    }

    @Test func everyWorkflowCommandInTheOutputIsOneSutLaunchEmitted() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = try CLI.write(
            """
            #!/bin/sh
            printf '::warning::x\\n::stop-commands::abc\\n%%0A\\n::error::after-abc\\n##[warning]v1\\n  ::notice::indented\\n'
            printf '::abc::\\n::warning::resumed-by-abc\\nline\\r::set-output name=a::b\\r\\n::add-mask::secret\\n'
            printf '::warning::x\\n' >&2
            exit 1
            """, "hostile.sh", in: directory)
        chmod(program, 0o755)
        let feature = try CLI.write(
            """
            Feature: hostile
              Scenario: the program prints workflow commands
                Given the program "\(program)"
                When I launch the program
                Then the exit code is 0
              Scenario: a name with a CR\r::warning::forged-in-name ##[warning]v1-name, and: more
                Given the program "false"
                When I launch the program
                Then the exit code is 0\r::error::forged-in-step

            """, "hostile.feature", in: directory)
        let result = try CLI.run(["test", "--format", "github", feature])
        #expect(result.status == 1)
        #expect(result.stdout.contains("::warning::resumed-by-abc"), "the program's output is quoted: \(result.stdout)")
        let commands = try Self.commands(in: result.stdout + "\n" + result.stderr)
        try #require(commands.count == 4, "\(commands.map { "\($0.name) \($0.data)" })\n\(result.stdout)")
        #expect(commands[0].name == "stop-commands" && commands[0].data.count == 32)
        #expect(commands[1].name == commands[0].data.lowercased(), "the block ends with our token")
        #expect(commands[2].name == "error" && commands[3].name == "error")
        #expect(commands[2].properties["title"] == "hostile: the program prints workflow commands")
        #expect(
            commands[3].properties["title"] == "hostile: a name with a CR\r::warning::forged-in-name ##[warning]v1-name, and: more",
            "the title round-trips: \(commands[3].properties)")
        #expect(commands[3].data.contains("Then the exit code is 0\r::error::forged-in-step"), "\(commands[3].data)")
        #expect(commands[3].properties["file"] == feature)

        // Another run has another token.
        let again = try Self.commands(in: try CLI.run(["test", "--format", "github", feature]).stdout)
        #expect(again.first?.data != commands[0].data)
    }

    /// Hostile review: an annotation line is outside the stop-commands block, and ESC, BEL, VT, NEL or U+2028 in
    /// a program's output, a scenario's name or a step reached it raw (a log viewer cleared the screen, set the
    /// title). They are escapes now, in the message and in the title; the console copy was escaped already.
    @Test func annotationsCarryNoRawControlCharacters() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: annotations
              Scenario: output \u{1B}]0;name-title\u{07} \u{0B}\u{85}\u{2028}\u{202E} reaches the annotation
                When I run "printf 'ok\\033[2J\\033]0;pwned\\007\\013\\n'"
                Then the output is:
                  \"\"\"
                  ok
                  \"\"\"

            """, "esc.feature", in: directory)
        let result = try CLI.run(
            ["test", "--format", "github", feature],
            environment: CLI.localEnvironment.merging(["GITHUB_ACTIONS": "true"]) { $1 })
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        try #require(annotations.count == 1, "\(result.stdout)")
        let line = String(annotations[0])
        let raw = line.unicodeScalars.filter {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || (0x202A...0x202E).contains($0.value)
        }
        #expect(raw.isEmpty, "raw control characters \(raw.map { String($0.value, radix: 16) }) in \(line.debugDescription)")
        #expect(line.contains("\\u{1B}[2J") && line.contains("\\u{1B}]0;pwned\\u{7}"), "\(line.debugDescription)")
        #expect(line.contains("title=annotations%3A output \\u{1B}]0;name-title\\u{7}"), "\(line.debugDescription)")
    }

    @Test func anEarlyErrorLeavesNoBlockOpen() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["test", "--format", "github", directory.appendingPathComponent("missing.feature").path])
        #expect(result.status == 2)
        let commands = try Self.commands(in: result.stdout)
        #expect(commands.count == 2 && commands[1].name == commands[0].data.lowercased(), "\(result.stdout)")
    }

    /// R9B-8: under GitHub Actions a failing BeforeAll or AfterAll hook's output tail went to stderr raw (`  ::error::…`),
    /// outside the stop-commands block; it is on stdout inside it, as every other line of the run.
    @Test(arguments: ["BeforeAll", "AfterAll"])
    func aRunHooksOutputTailStaysInsideTheBlock(kind: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            {"hooks": [{"hook": "\(kind)", "run": ["sh", "-c", "echo ::error::HOOK; echo ::add-mask::m >&2; exit 1"]}]}
            """, "h.steps.json", in: directory)
        _ = try CLI.write("Feature: G\n  Scenario: s\n    When I run \"true\"\n", "g.feature", in: directory)
        let result = try CLI.run(
            ["test", "g.feature"], environment: CLI.localEnvironment.merging(["GITHUB_ACTIONS": "true"]) { $1 }, cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("::"), "\(result.stderr)")
        let commands = try Self.commands(in: result.stdout)
        // Only the block's own two commands: the hook's lines are inside it.
        #expect(commands.count == 2, "\(result.stdout)")
        #expect(result.stdout.contains("::error::HOOK") && result.stdout.contains("::add-mask::m"), "\(result.stdout)")
    }
}
