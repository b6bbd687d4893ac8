import AutomationSupport
import Foundation
import ProcessEngine
import Testing

@Suite struct TerminalScreenTests {
    private func screen(_ text: String, columns: Int = 20, rows: Int = 4) -> TerminalScreen {
        TerminalScreen(TerminalSize(columns: columns, rows: rows), output: Array(text.utf8))
    }

    @Test func aRedrawnPromptShowsOnlyItsLastState() {
        #expect(screen("loading...\r\u{1B}[Kready\r\n$ ").text == "ready\n$")
        #expect(screen("50%\u{8}\u{8}\u{8}99%").text == "99%")
    }

    @Test func positioningAndErasingDrawAFullScreen() {
        let drawn = screen("garbage\u{1B}[2J\u{1B}[H+----+\u{1B}[2;1H|menu|\u{1B}[3;1H+----+\u{1B}[2;3H\u{1B}[1P")
        #expect(drawn.text == "+----+\n|mnu|\n+----+")
        #expect(drawn.cursor == (1, 2))
    }

    @Test func aFullRowWrapsOnlyWithTheNextCharacter() {
        // xterm: the cursor stays on the last column; colours do not cancel the wrap, erasing does.
        #expect(screen("abcde\u{1B}[1;31mf", columns: 5, rows: 3).text == "abcde\nf")
        #expect(screen("abcde\u{1B}[Kf", columns: 5, rows: 3).text == "abcdf")
        #expect(screen("abcde\r\n", columns: 5, rows: 3).cursor == (1, 0))
    }

    @Test func textWrapsAtTheLastColumnAndTheScreenScrolls() {
        #expect(screen("abcdefgh", columns: 5, rows: 3).text == "abcde\nfgh")
        #expect(screen("abcde", columns: 5, rows: 3).cursor == (0, 4)) // xterm waits before wrapping
        #expect(screen("1\r\n2\r\n3\r\n4\r\n5", columns: 5, rows: 3).text == "3\n4\n5")
        #expect(screen("1\n2", columns: 5, rows: 3).text == "1\n 2") // a line feed alone keeps the column
        #expect(screen("a\r\nb\u{1B}[H\u{1B}[2M\u{1B}[S", columns: 5, rows: 3).text.isEmpty) // delete lines, scroll up
        #expect(screen("a\u{1B}[2T", columns: 5, rows: 3).text == "\n\na")
    }

    @Test func theAlternateScreenStartsBlankAndAttributesAreDropped() {
        #expect(screen("shell\r\n\u{1B}[?1049h\u{1B}[1;31mred\u{1B}[0m").text == "red")
        #expect(screen("\u{1B}]0;a title\u{7}title gone").text == "title gone")
        #expect(screen("\u{1B}(Bcharset").text == "charset")
    }

    @Test func hostileParametersAreClamped() {
        let drawn = screen(
            "\u{1B}[99999999999;99999999999Hx\u{1B}[99999999L\u{1B}[99999999M\u{1B}[99999@" + String(repeating: ";", count: 10_000) + "m")
        #expect(drawn.size == TerminalSize(columns: 20, rows: 4))
        #expect(drawn.text.isEmpty || drawn.text.count < 200)
        #expect(screen("é日🙂", columns: 3, rows: 1).text == "é日🙂")
    }

    /// Against pyte (PyPI), a terminal emulator in Python used to test curses programs: the same random
    /// output on both, the same screen. Sequences are the subset TerminalScreen documents, less three pyte
    /// 0.8.2 gets wrong or lacks (measured: `ESC[M` deletes no line, `ESC[S` and `ESC[T` do not scroll);
    /// those are checked by the examples above against xterm's behaviour. pyte also models a full row as a
    /// cursor one past the last column, where xterm keeps it on the last column until the next character
    /// wraps; outputs that fill a last column are left out of the comparison (the examples check xterm's way).
    @Test(.enabled(if: Self.hasPyte, "needs pyte: pip install pyte (scripts/install-test-deps.sh installs it)"))
    func matchesPyteOnRandomOutput() throws {
        var generator = SplitMix64(seed: 0x7E57)
        let pieces = [
            "a", "bc", "défg", " ", "\r", "\n", "\u{8}", "\t", "\u{1B}[A", "\u{1B}[2B", "\u{1B}[3C", "\u{1B}[D",
            "\u{1B}[2;5H", "\u{1B}[H", "\u{1B}[J", "\u{1B}[1J", "\u{1B}[2J", "\u{1B}[K", "\u{1B}[1K", "\u{1B}[2K",
            "\u{1B}[2P", "\u{1B}[3@", "\u{1B}[L", "\u{1B}[2L", "\u{1B}[2X", "\u{1B}[4G",
            "\u{1B}[3d", "\u{1B}[E", "\u{1B}[F", "\u{1B}7", "\u{1B}8", "\u{1B}[1;32m", "\u{1B}[0m", "xyzxyzxyzxyz",
        ]
        var samples: [[String]] = []
        for _ in 0..<300 {
            samples.append((0..<generator.next(upTo: 40)).map { _ in pieces[generator.next(upTo: pieces.count)] })
        }
        let ours = { (text: String) in TerminalScreen(TerminalSize(columns: 12, rows: 5), output: Array(text.utf8)).text }
        let expected = try Self.pyteScreens(samples.map { $0.joined() })
        let comparable = { (text: String) in !TerminalScreen(TerminalSize(columns: 12, rows: 5), output: Array(text.utf8)).filledLastColumn
        }
        let compared = samples.filter { comparable($0.joined()) }
        #expect(compared.count >= 150, "only \(compared.count) outputs kept clear of the last column")
        let failing = zip(samples, expected).filter { comparable($0.0.joined()) && ours($0.0.joined()) != $0.1 }.map(\.0)
        #expect(failing.isEmpty, "\(failing.count) of \(compared.count) outputs differ")
        // Shrink the first few: the shortest prefix (in pieces) whose screen differs, for a readable failure.
        for sample in failing.prefix(3) {
            let prefixes = (1...sample.count).map { sample.prefix($0).joined() }
            let screens = try Self.pyteScreens(prefixes)
            if let index = prefixes.indices.first(where: { ours(prefixes[$0]) != screens[$0] }) {
                Issue.record("output \(prefixes[index].debugDescription)\npyte:\n\(screens[index])\nours:\n\(ours(prefixes[index]))")
            }
        }
    }

    /// pyte's screen (12x5) for each output, rows joined with "\n", trailing blanks removed.
    private static func pyteScreens(_ outputs: [String]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pyte-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("samples.json")
        try JSONSerialization.data(withJSONObject: outputs).write(to: input)
        let script = """
            import json, sys, pyte
            for text in json.load(open(sys.argv[1])):
                screen = pyte.Screen(12, 5)
                pyte.Stream(screen).feed(text)
                lines = [line.rstrip() for line in screen.display]
                while lines and not lines[-1]:
                    lines.pop()
                print(json.dumps("\\n".join(lines)))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, input.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let screens = String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)) as? String ?? "?"
        }
        try #require(screens.count == outputs.count, "pyte answered \(screens.count) screens for \(outputs.count) outputs")
        return screens
    }

    static let hasPyte = pythonCanImport("pyte")
}
