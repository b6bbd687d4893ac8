import Foundation
import Testing

/// The option lists in the manual against the binary's option tables (read from `sut-launch completions bash`,
/// which is generated from the tables that drive parsing and `--help`): command-line.md listed `--junit-strict`
/// among the options of a plain run, which refuses it.
@Suite struct DocumentedOptionsTests {
    /// The long options the completion script offers for `command` (nil: the main form).
    static func binaryOptions(_ command: String?) throws -> Set<String> {
        let script = try CLI.output(of: [CLI.sutLaunch, "completions", "bash"])
        let marker = command.map { "        \($0)) " } ?? "        *) "
        guard let line = script.split(separator: "\n").first(where: { $0.hasPrefix(marker) }),
            let words = line.firstRange(of: "compgen -W \"")
        else { return [] }
        let list = line[words.upperBound...].prefix { $0 != "\"" }
        return Set(list.split(separator: " ").map(String.init).filter { $0.hasPrefix("--") })
    }

    /// The options a page's fenced block lists: each line that starts (after blanks) with `-x, --name` or `--name`,
    /// up to the first line that starts with `sut-launch ` (a synopsis of another command).
    static func documentedOptions(page: String, heading: String) throws -> [String] {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/\(page)"), encoding: .utf8)
        guard let section = text.firstRange(of: "\n\(heading)\n") else { return [] }
        let lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        guard let open = lines.firstIndex(where: { $0.hasPrefix("```") }) else { return [] }
        var options: [String] = []
        for line in lines[(open + 1)...] {
            if line.hasPrefix("```") || line.hasPrefix("sut-launch ") && !line.hasSuffix(":") { break }
            let trimmed = line.drop { $0 == " " }
            let option = (trimmed.hasPrefix("-") && !trimmed.hasPrefix("--") ? trimmed.drop { $0 != " " }.drop { $0 == " " } : trimmed)
                .prefix { $0 != " " }
            if option.hasPrefix("--") && option.count > 2 { options.append(String(option)) }
        }
        return options
    }

    @Test(arguments: [("command-line.md", "## Options"), ("mock-server.md", "## Options, subcommands, admin API")])
    func everyOptionListedForAPlainRunIsOneOfItsOptions(page: String, heading: String) throws {
        let known = try Self.binaryOptions(nil)
        #expect(known.contains("--stub") && known.contains("--report"), "completion script not read: \(known)")
        let documented = try Self.documentedOptions(page: page, heading: heading)
        #expect(documented.count >= 10, "\(page): \(documented)")
        for option in documented where option != "--version" {
            #expect(known.contains(option), "\(page) lists \(option) among a plain run's options; sut-launch refuses it")
        }
    }

    /// Each option of a plain run appears in one of its two lists (or in the recording page, which lists its own).
    @Test func everyOptionOfAPlainRunIsDocumented() throws {
        let documented = try Set(
            Self.documentedOptions(page: "command-line.md", heading: "## Options")
                + Self.documentedOptions(page: "mock-server.md", heading: "## Options, subcommands, admin API"))
        let recording = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/recording.md"), encoding: .utf8)
        // `--version` shares the `-h, --help / --version` line.
        for option in try Self.binaryOptions(nil).sorted() where !documented.contains(option) && option != "--version" {
            #expect(recording.contains("`\(option)") || recording.contains(" \(option) "), "\(option) is in no option list of the docs")
        }
    }
}
