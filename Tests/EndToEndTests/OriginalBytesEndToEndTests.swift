import Foundation
import Testing

/// Bytes that are not UTF-8 reach the program as given (R10C-8, R10C-9): two arguments whose bytes read as the same
/// text (`\xff\xfe` and `\xab\xcd` both read `\u{FFFD}\u{FFFD}`) each keep their own, never another argument's or an
/// inherited variable's; what cannot be told apart (two inherited names that read as one), or cannot be passed
/// (Foundation.Process takes text), is refused at launch by name, exit 125, nothing launched.
@Suite struct OriginalBytesEndToEndTests {
    /// Runs `script` with bash in a fresh directory (`$1` is sut-launch, `$2` a program printing each argument's bytes).
    static func bash(_ script: String) throws -> String {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try CLI.write("#!/bin/sh\nfor a; do printf '%s' \"$a\" | od -An -tx1; done\n", "dump", in: directory)
        chmod(dump, 0o755)
        return try CLI.output(of: ["bash", "-c", "exec 2>&1; " + script, "bash", CLI.sutLaunch, dump], in: directory)
    }

    @Test func eachArgumentKeepsItsOwnBytes() throws {
        let output = try Self.bash(
            #"""
            "$1" -q "$2" $'\xff\xfe' $'\xab\xcd'; echo "status $?"
            env $'V=\xab\xcd' "$1" -q "$2" $'\xff\xfe'; echo "status $?"
            env $'SECRET_TOKEN=\xff\xfe' "$1" -q "$2" x $'\xab\xcd'; echo "status $?"
            env $'V=\xab\xcd' "$1" -q -e $'E=\xff\xfe' sh -c 'printf %s "$V|$E" | od -An -tx1'; echo "status $?"
            """#)
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            lines == [
                "ff fe", "ab cd", "status 0", "ff fe", "status 0", "78", "ab cd", "status 0", "ab cd 7c ff fe", "status 0",
            ], "\(output)")
    }

    @Test func inheritedNamesThatReadAsOneAreRefusedByName() throws {
        let output = try Self.bash(#"env $'K\xff=1' $'K\xfe=2' "$1" -q "$2" x; echo "status $?""#)
        #expect(output.contains(#"the inherited variables K\xff and K\xfe read as one name"#), "\(output)")
        #expect(output.contains("nothing was launched") && output.hasSuffix("status 125\n") && !output.contains(" 78"), "\(output)")
    }

    @Test func theFoundationLauncherRefusesBytesItWouldRewrite() throws {
        let output = try Self.bash(
            #"""
            "$1" -q --launcher foundation "$2" $'caf\xe9'; echo "status $?"
            "$1" -q --launcher foundation -e $'E=\xff\xfeX' "$2" x; echo "status $?"
            env $'V=\xfe\xff' "$1" -q --launcher foundation "$2" x; echo "status $?"
            "$1" -q --launcher foundation "$2" café; echo "status $?"
            """#)
        #expect(output.contains(#"argument 1 (caf\xe9) is not UTF-8, and Foundation.Process passes text only"#), "\(output)")
        #expect(output.contains("the variable E holds bytes that are not UTF-8") && output.contains("the variable V holds"), "\(output)")
        #expect(!output.contains("ef bf bd") && !output.contains(" 78"), "\(output)")
        #expect(output.components(separatedBy: "status 125").count == 4, "\(output)")
        #expect(output.contains("63 61 66 c3 a9\nstatus 0"), "\(output)") // UTF-8 passes
    }
}
