import Foundation
import Testing

/// What a run reads before it launches, replayed from the re-attack's findings (R4a-2, 3, 18, 12, 11): env and
/// flags files read one way only, automation flags the program can use, and paths that are not UTF-8.
@Suite struct LaunchInputsEndToEndTests {
    /// Runs `script` with bash in a fresh directory (`$1` is sut-launch); returns what it printed, stderr included.
    static func bash(_ script: String) throws -> String {
        let directory = try CLI.temporaryDirectory()
        return try CLI.output(of: ["bash", "-c", "exec 2>&1; " + script, "bash", CLI.sutLaunch], in: directory)
    }

    /// R4a-2: bytes that are not UTF-8 in an env file or a flags file, and lone surrogates in JSON, are refused at
    /// their file:line (exit 3), never passed on as U+FFFD; `-e` still passes the byte itself.
    @Test func notUTF8AndLoneSurrogatesAreRefusedWhereTheyAre() throws {
        let output = try Self.bash(
            #"""
            printf 'A=1\nK=\xff\n' > e.env; "$1" -q --env-file e.env true; echo "status $?"
            printf '{"env":{"K":"\xff"}}' > f.json; "$1" -q --flags-file f.json true; echo "status $?"
            printf '{"env":{"K":"\\ud800"}}' > g.json; "$1" -q --flags-file g.json true; echo "status $?"
            printf '{"featureFlags":{"y":"\\udc00"}}' > h.json; "$1" -q --flags-file h.json true; echo "status $?"
            "$1" -q -f 'y:="\ud800x"' true; echo "status $?"
            "$1" -q -f 'x:=1e-400' true; echo "status $?"
            "$1" -q -f 'x:=0e-400' -f 'z:=1e-300' true; echo "status $?"
            "$1" -q -e "K=$(printf '\xff')" sh -c 'printf %s "$K" | od -An -tx1'
            """#)
        let statuses = output.split(separator: "\n").filter { $0.hasPrefix("status") }
        #expect(statuses == ["status 3", "status 3", "status 3", "status 3", "status 2", "status 2", "status 0"], "\(output)")
        #expect(output.contains("e.env:2:3: not UTF-8") && output.contains("f.json:1:"))
        #expect(output.contains(#"\uD800 is a lone surrogate"#) && output.contains(#"\uDC00 is a lone surrogate"#))
        #expect(output.contains("the number 1e-400 has more digits than a double keeps (it would read as 0.0)"))
        #expect(output.contains(" ff\n"), "\(output)") // -e keeps the byte
        #expect(!output.contains("ef bf bd"))
    }

    /// R4a-3: a variable given twice, in one env file or in two, is refused naming both lines.
    @Test func aVariableGivenTwiceInEnvFilesIsRefusedNamingBothLines() throws {
        let output = try Self.bash(
            #"""
            printf 'A=1\nB=0\nA=2\n' > e.env; "$1" -q --env-file e.env sh -c 'echo A=$A'; echo "status $?"
            printf 'A=1\n' > a.env; printf 'B=2\nA=2\n' > b.env; "$1" -q --env-file a.env --env-file b.env sh -c 'echo A=$A'; echo "status $?"
            """#)
        #expect(!output.contains("A=2"))
        #expect(output.contains("e.env:3: A is given twice: at e.env:1 and here"), "\(output)")
        #expect(output.contains("b.env:2: A is given twice: at a.env:1 and here"))
        #expect(output.components(separatedBy: "status 3").count == 3)
    }

    /// R4a-18: `${VAR}` and `$VAR` outside single quotes are refused at their line (dotenv tools expand them);
    /// single quotes keep a `$` as written, and a `$` that starts no name is text.
    @Test func dollarReferencesInEnvFilesAreRefusedUnlessQuotedLiterally() throws {
        let output = try Self.bash(
            #"""
            printf 'A=${HOME}\n' > a.env; "$1" -q --env-file a.env true; echo "status $?"
            printf 'X=1\nB="${HOME}/x"\n' > b.env; "$1" -q --env-file b.env true; echo "status $?"
            printf 'C=$HOME\n' > c.env; "$1" -q --env-file c.env true; echo "status $?"
            printf "D='\${HOME}'\nF=a\$ \$5 \$\n" > d.env; "$1" -q --env-file d.env sh -c 'echo "[$D|$F]"'; echo "status $?"
            printf 'E="\\$HOME"\n' > e.env; "$1" -q --env-file e.env true; echo "status $?"
            """#)
        #expect(output.contains("a.env:1: the value of A holds a $ reference"), "\(output)")
        #expect(output.contains("b.env:2: the value of B holds a $ reference"))
        #expect(output.contains("c.env:1: the value of C"))
        #expect(output.contains("[${HOME}|a$ $5 $]"), "\(output)")
        // R10C-5: `"\$HOME"` is a backslash and a $ to python-dotenv: refused as two values, not read as `$HOME`.
        #expect(output.contains("e.env:1: the double-quoted value of E holds \\$"), "\(output)")
        #expect(
            output.split(separator: "\n").filter { $0.hasPrefix("status") } == ["status 3", "status 3", "status 3", "status 0", "status 3"])
    }

    /// R4a-12: `entryPoint` and `mockServerURL` must be non-empty strings, on the command line and in a flags file.
    @Test func automationFlagsTheProgramReadsAsStringsMustBeStrings() throws {
        for value in ["entryPoint:=5", "entryPoint:=null", "entryPoint:=\"\"", "mockServerURL:=1", "entryPoint:=[\"a\"]"] {
            let result = try CLI.run(["-q", "-a", value, CLI.myApp, "start"])
            #expect(result.status == 2, "\(value): \(result.stdout)")
            #expect(result.stderr.contains("must be a non-empty string"), "\(value): \(result.stderr)")
        }
        let directory = try CLI.temporaryDirectory()
        let file = try CLI.write(#"{"automationFlags":{"entryPoint":5}}"#, "f.json", in: directory)
        let fromFile = try CLI.run(["-q", "--flags-file", file, CLI.myApp, "start"])
        #expect(fromFile.status == 3)
        #expect(fromFile.stderr.contains("f.json:1:") && fromFile.stderr.contains("entryPoint must be a non-empty string"))
        #expect(try CLI.run(["-q", "-a", "entryPoint=start", "true"]).status == 0)
    }

    /// R4a-11: a path that is not UTF-8 (program, `-C`, `--stub`, `--env-file`, `--flags-file`, `--report`,
    /// `--journal`, inline `--report=`, `test`'s feature path) is refused naming the option (exit 2), and nothing is written under the
    /// U+FFFD name; program arguments keep their bytes.
    @Test func pathsThatAreNotUTF8AreRefusedNeverRenamed() throws {
        let output = try Self.bash(
            #"""
            X=$(printf '\xff'); cp "$(command -v true)" "./ad$X"; mkdir "d$X"; printf 'A=1\n' > "env$X"
            printf '{"routes":[]}' > "st$X.json"; printf '{}' > "fl$X.json"; printf '{"routes":[]}' > ok.json
            "$1" "./ad$X"; echo "status $?"
            "$1" -C "d$X" true; echo "status $?"
            "$1" --stub "st$X.json" true; echo "status $?"
            "$1" --env-file "env$X" true; echo "status $?"
            "$1" --flags-file "fl$X.json" true; echo "status $?"
            "$1" -q --report "rep$X.json" true; echo "status $?"
            "$1" -q --report="rep$X.json" true; echo "status $?"
            "$1" -q --stub ok.json --port 0 --journal "j$X.json" true; echo "status $?"
            "$1" test "f$X.feature"; echo "status $?"
            "$1" -q printf '%s' "a${X}b" | od -An -tx1
            ls
            """#)
        let statuses = output.split(separator: "\n").filter { $0.hasPrefix("status") }
        #expect(statuses == Array(repeating: "status 2", count: 9), "\(output)")
        for option in [
            "the feature path 'f\\xff.feature'", "the program './ad\\xff'", "-C 'd\\xff'", "--stub 'st\\xff.json'", "--env-file 'env\\xff'",
            "--report 'rep\\xff.json'",
        ] {
            #expect(output.contains("\(option) is not UTF-8"), "\(option): \(output)")
        }
        #expect(!output.contains("rep\u{FFFD}") && !output.contains("j\u{FFFD}"))
        #expect(output.contains(" 61 ff 62"), "\(output)")
    }
}
