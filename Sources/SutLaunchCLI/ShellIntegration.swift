import AutomationSupport
import ProcessEngine
import Scenarios

/// Shell completions and the man page, generated from the same option tables that drive parsing and help,
/// so they cannot drift: `sut-launch completions bash|zsh|fish`, `sut-launch manpage`.
package enum ShellIntegration {
    /// Each subcommand with its options; "" is the run form.
    static var commands: [(name: String, options: [OptionSpec], files: String)] {
        [
            ("", RunOption.specs, ""), ("serve", ServeOption.specs, "json"), ("check", [CheckOption.help.spec], "feature json"),
            ("test", TestOption.specs, "feature"), ("report", ReportOption.specs, "ndjson"), ("init", InitOption.specs, ""),
        ]
    }

    /// The fixed values an option takes, for completion.
    static func values(_ option: OptionSpec) -> [String]? {
        guard let value = option.valueName, value.contains("|") else { return nil }
        return value.split(separator: "|").map(String.init)
    }

    /// Runs `completions bash|zsh|fish`; returns the exit code.
    package static func run(_ arguments: [String]) throws -> Int32 {
        if let shell = arguments.first, ["bash", "zsh", "fish"].contains(shell) {
            try SutLaunchCommand.refuseExtra(arguments.dropFirst(), after: "completions \(shell)")
        }
        switch arguments.first {
        case "bash": Console.out(bash())
        case "zsh":
            Console.out(
                "#compdef sut-launch\n# zsh: the bash completion through bashcompinit.\nautoload -U +X bashcompinit && bashcompinit\n"
                    + bash())
        case "fish": Console.out(fish())
        case let shell?:
            throw UsageError(
                .needsOperands(
                    "completions: '\(shell.prefix(80).escapingControlCharacters())' is not a shell sut-launch writes completions for: bash, zsh or fish"
                ))
        case nil: throw UsageError(.needsOperands("completions needs a shell: sut-launch completions bash|zsh|fish"))
        }
        return 0
    }

    static func bash() -> String {
        var script = "# bash completion for sut-launch (generated: sut-launch completions bash)\n_sut_launch() {\n"
        script += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" sub=\"\"\n"
        script +=
            "    case \"${COMP_WORDS[1]}\" in serve|check|test|init|help|completions) [ \"$COMP_CWORD\" -gt 1 ] && sub=\"${COMP_WORDS[1]}\" ;; esac\n"
        script += "    case \"$prev\" in\n"
        var seen: Set<String> = []
        for (_, options, _) in commands {
            for option in options {
                guard let values = values(option), seen.insert(option.long).inserted else { continue }
                let names = [option.long] + (option.short.map { [$0] } ?? [])
                script +=
                    "        \(names.joined(separator: "|"))) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            }
        }
        script += "        --stub|-s|--flags-file|--env-file) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
        script += "    esac\n    case \"$sub\" in\n"
        for (name, options, files) in commands where !name.isEmpty {
            let words = options.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }.joined(separator: " ")
            var fileGlob = "COMPREPLY+=($(compgen -d -- \"$cur\"))"
            for ext in files.split(separator: " ") { fileGlob += "; COMPREPLY+=($(compgen -f -X '!*.\(ext)' -- \"$cur\"))" }
            script +=
                "        \(name)) if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")); else COMPREPLY=(); \(fileGlob); fi ;;\n"
        }
        let topics = HelpTopic.allCases.map(\.rawValue).filter { $0 != "help" }.joined(separator: " ")
        script += "        help) COMPREPLY=($(compgen -W \"\(topics)\" -- \"$cur\")) ;;\n"
        script += "        completions) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")) ;;\n"
        let runWords = RunOption.specs.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }.joined(separator: " ")
        script += "        *) if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"\(runWords)\" -- \"$cur\"));\n"
        script +=
            "           elif [ \"$COMP_CWORD\" -eq 1 ]; then COMPREPLY=($(compgen -W \"\(Subcommand.allCases.map(\.rawValue).joined(separator: " "))\" -- \"$cur\") $(compgen -c -- \"$cur\"));\n"
        script += "           else COMPREPLY=($(compgen -c -- \"$cur\") $(compgen -f -- \"$cur\")); fi ;;\n"
        script += "    esac\n}\ncomplete -F _sut_launch sut-launch\n"
        return script
    }

    static func fish() -> String {
        var script = "# fish completion for sut-launch (generated: sut-launch completions fish)\n"
        script += "complete -c sut-launch -n '__fish_use_subcommand' -a '\(Subcommand.allCases.map(\.rawValue).joined(separator: " "))'\n"
        for (name, options, files) in commands {
            let condition = name.isEmpty ? "__fish_use_subcommand" : "__fish_seen_subcommand_from \(name)"
            for option in options {
                var line = "complete -c sut-launch -n '\(condition)' -l \(option.long.dropFirst(2))"
                if let short = option.short { line += " -s \(short.dropFirst())" }
                if let values = values(option) {
                    line += " -x -a '\(values.joined(separator: " "))'"
                } else if option.takesValue {
                    line += " -r"
                }
                line += " -d '\(option.help.replacingOccurrences(of: "'", with: "\\'"))'"
                script += line + "\n"
            }
            for ext in files.split(separator: " ") {
                script += "complete -c sut-launch -n '\(condition)' -a '(__fish_complete_suffix .\(ext))'\n"
            }
        }
        script += "complete -c sut-launch -n '__fish_seen_subcommand_from completions' -x -a 'bash zsh fish'\n"
        return script
    }

    /// The man page, roff with the `man` macros.
    package static func manPage() -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "-", with: "\\-")
        }
        func options(_ list: [OptionSpec]) -> String {
            list.map { option in
                var names = (option.short.map { "\\fB\(escape($0))\\fR, " } ?? "") + "\\fB\(escape(option.long))\\fR"
                if let value = option.valueName { names += " \\fI\(escape(value))\\fR" }
                return ".TP\n\(names)\n\(escape(option.help))\n"
            }.joined()
        }
        var page = ".TH SUT-LAUNCH 1 \"\" \"sut-launch \(SutLaunch.version)\" \"User Commands\"\n"
        page += ".SH NAME\nsut\\-launch \\- put a program under test into a known state, run it, tell CI what happened\n"
        page += ".SH SYNOPSIS\n.B sut\\-launch\n[\\fIoptions\\fR] \\fIPROGRAM\\fR [\\fIARGS\\fR...]\n.br\n"
        page += ".B sut\\-launch serve\n[\\fIoptions\\fR] \\fISTUBS\\fR...\n.br\n.B sut\\-launch check\n\\fIFILES\\fR...\n.br\n"
        page +=
            ".B sut\\-launch test\n[\\fIoptions\\fR] \\fIFEATURES\\fR...\n.br\n.B sut\\-launch init\n[\\fB\\-\\-program\\fR \\fIPROGRAM\\fR] [\\fIDIR\\fR]\n"
        page +=
            ".SH DESCRIPTION\nLaunches PROGRAM with feature flags (EPHEMERAL) and automation flags (AUTOMATION) as launch arguments and "
        page += "environment variables, beside a mock HTTP server answering from stub files, streams its output, waits, checks, "
        page += "reports, and exits with a code CI understands.\n"
        page += ".SH OPTIONS\n" + options(RunOption.specs)
        page +=
            ".SH SERVE\nThe mock server alone, until SIGINT or SIGTERM; its URL is the first line on stdout.\n" + options(ServeOption.specs)
        page += ".SH CHECK\nValidates stub files, WireMock mappings and feature files (or directories of them); exit 3 on a problem.\n"
        page += ".SH TEST\nRuns Gherkin scenarios (sut\\-launch test \\-\\-help lists every step).\n" + options(TestOption.specs)
        page += ".SH REPORT\nRenders the reports of a run from its Cucumber Messages, shards merged.\n" + options(ReportOption.specs)
        page += ".SH INIT\n" + options(InitOption.specs)
        page += ".SH EXIT STATUS\n"
        let codes: [(String, String)] = [
            ("the program's", "it ran and every check held"), ("1", "test: a scenario failed"), ("2", "usage error; nothing launched"),
            ("3", "invalid flags, env, stub or feature file; nothing launched"),
            ("4", "the program passed but mock\\-server checks failed"),
            ("5", "test: no scenario selected"), ("74", "a report, JUnit file or journal could not be written"), ("124", "timeout"),
            ("125", "could not launch"), ("126", "not executable"), ("127", "not found"),
            ("128+N", "killed by, or interrupted by, signal N"),
        ]
        page += codes.map { ".TP\n.B \($0.0)\n\($0.1)\n" }.joined()
        page += ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nno colour and no live progress line (also TERM=dumb)\n"
        page +=
            ".TP\n.B CI\nsnapshots are never written (nor with any other CI variable sut-launch knows)\n.TP\n.B SUT_UPDATE_SNAPSHOTS\n1 writes the snapshots a run compares\n"
        page += ".TP\n.B GITHUB_STEP_SUMMARY\nwith \\-\\-format github, a Markdown summary is appended there\n"
        page += ".SH SEE ALSO\nThe README of the sut\\-launch package.\n"
        return page
    }
}
