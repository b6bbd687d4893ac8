import Foundation
import Testing

/// A program's output as every report shows it (issue 29's attack): terminal sequences, OSC titles and hyperlinks
/// with their payload, and their 8-bit C1 forms never reach JUnit (which XML 1.0 could not carry), the JSON report
/// (escaped, so `cat report.json` is inert) or a GitHub annotation; in the HTML transcript a colour one stream
/// never reset stays in that stream's section, and a title never terminated hides no later line.
@Suite struct ReportTextEndToEndTests {
    /// Output with a title (OSC 0 … BEL), a hyperlink (OSC 8 … ST), C1 CSI and OSC, a DCS string and a colour.
    static let hostileOutput =
        #"a\033]0;TITLE\007b \033]8;;http://evil.example/\033\\link\033]8;;\033\\ c\302\233 31m d\302\235 TITLE2\302\234 e\033P DCS \033\\ f \033[31mred\n"#

    @Test func terminalSequencesStayOutOfJUnitJSONAndAnnotations() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: osc
              Scenario: titles and links
                When I run "printf '\(Self.hostileOutput)'"
                Then the output is:
                  \"\"\"
                  nothing like it
                  \"\"\"

            """, "o.feature", in: directory)
        let result = try CLI.run(
            ["test", "--run-id", "t:1", "--format", "github", "--junit", "o.xml", "--report", "o.json", feature],
            environment: ReportGapsEndToEndTests.environment(), cwd: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let junit = try Data(contentsOf: directory.appendingPathComponent("o.xml"))
        let junitText = String(decoding: junit, as: UTF8.self)
        // The output's line, in the failure and in system-out (the step's own text quotes the printf, escapes as text).
        let shown = junitText.components(separatedBy: "--- last 1 line of stdout ---\n").dropFirst().map { $0.prefix { $0 != "\n" } }
        #expect(shown.count == 2 && shown.allSatisfy { $0 == "ab link c d e f red" }, "\(junitText)")
        #expect(!junitText.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value) })
        if CLI.hasCommand("xmllint") {
            let lint = try CLI.runTool("xmllint", ["--noout", directory.appendingPathComponent("o.xml").path])
            #expect(lint.status == 0, "\(lint.output)")
        }
        // The JSON report keeps the text, every control character escaped: no raw ESC, BEL or C1 byte in the file.
        let json = try Data(contentsOf: directory.appendingPathComponent("o.json"))
        #expect(!json.contains(0x1B) && !json.contains(0x07))
        #expect(!String(decoding: json, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(String(decoding: json, as: UTF8.self).contains("\\u001b]0;TITLE\\u0007b"))
        // The annotation: outside the stop-commands block, so every control character is shown escaped.
        let annotation = result.stdout.split(separator: "\n").first { $0.hasPrefix("::error ") } ?? ""
        #expect(annotation.contains("\\u{1B}]0;TITLE\\u{7}b"), "\(annotation)")
        #expect(!annotation.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(annotation)")
    }

    @Test(.enabled(if: HTMLReportEndToEndTests.browser != nil, "needs chromium (scripts/install-test-deps.sh installs it)"))
    func aColourNeverResetStaysInItsStreamInTheHTML() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: colours
              Scenario: red leaks
                When I run "sh -c 'printf \\"plain \\\\033[31mred never reset\\\\n\\"; printf \\"\\\\033]0;no end\\\\nafter the title\\\\n\\" >&2'"
                Then the exit code is 3

              Scenario: next one
                When I run "printf 'second scenario\\n'"
                Then the exit code is 3

            """, "c.feature", in: directory)
        let ran = try CLI.run(["test", "--run-id", "t:2", "--html", "c.html", feature], cwd: directory)
        #expect(ran.status == 1, "\(ran.stderr)")
        let page = directory.appendingPathComponent("c.html").path
        let (dom, log) = try HTMLReportEndToEndTests.openInBrowser(
            page, directory: directory,
            screenshot: try HTMLReportEndToEndTests.artifactDirectory().appendingPathComponent("colours.png").path)
        #expect(dom.contains("<span class=\"f1\">red never reset</span>"), "\(dom)")
        // stderr's section starts plain, and the unterminated title ends at its line: the next line is shown.
        #expect(dom.range(of: #"<span class="f1">[^<]*(of stderr|after the title)"#, options: .regularExpression) == nil, "\(dom)")
        #expect(dom.contains("--- last 2 lines of stderr ---\n\nafter the title"), "\(dom)")
        #expect(dom.range(of: #"<span class="f1">[^<]*second scenario"#, options: .regularExpression) == nil)
        let transcripts = dom.components(separatedBy: "<pre class=\"term\">").dropFirst().map { $0.components(separatedBy: "</pre>")[0] }
        #expect(transcripts.count == 2 && !transcripts[0].contains("no end"), "\(transcripts)")
        #expect(!log.contains(":CONSOLE"), "\(log)")
    }
}
