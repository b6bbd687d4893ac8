import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// The parser and the outline expansion are linear on hostile input: each shape of 1 MB (long runs of `"`, `|`, `\`,
/// `<`, `@`, `#`, spaces, many lines of one kind, wide outlines) takes at most ~10x (allowed: 25x) what 100 KB of
/// the same shape takes (a quadratic rescan takes 100x), and under 5 s in a debug build on a shared 2-core machine
/// (about 1 s alone; a quadratic one took minutes).
@Suite(.serialized) struct GherkinLinearTimeTests {
    /// A feature file of about `size` bytes of one hostile shape.
    static func shape(_ name: String, size: Int) -> String {
        let run = { (text: String) in String(repeating: text, count: max(1, size / text.utf8.count)) }
        let head = "Feature: f\n  Scenario: s\n    Given x\n"
        switch name {
        case "quotes in a step": return "Feature: f\n  Scenario: s\n    Given " + run("\"") + "\n"
        case "quotes in a description": return "Feature: f\n" + run("\"") + "\n"
        case "doc string fences": return head + run("      \"\"\"\n      \"\"\"\n")
        case "escaped fences": return head + "      \"\"\"\n" + run(#"\"\"\""#) + "\n      \"\"\"\n"
        case "pipes": return head + "      " + run("|") + "\n"
        case "table rows": return head + run("      | a | b |\n")
        case "rows between comments": return head + run("      | a |\n      # c\n\n")
        case "backslashes": return head + "      |" + run("\\") + "|\n"
        case "less-than in an outline":
            return "Feature: f\n  Scenario Outline: s <a>\n    Given " + run("<") + "\n    Examples:\n      | a |\n      | 1 |\n"
        case "placeholders":
            return "Feature: f\n  Scenario Outline: s\n    Given " + run("<a>") + "\n    Examples:\n      | a |\n      | 1 |\n"
        case "wide outline":
            return "Feature: f\n  Scenario Outline: s\n    Given " + run("<c>").prefix(size / 2)
                + "\n    Examples:\n      |" + run("c|").prefix(size / 4) + "\n      |" + run("1|").prefix(size / 4) + "\n"
        case "many rows":
            return "Feature: f\n  Scenario Outline: s\n    Given <a> <b>\n    Examples:\n      | a | b |\n" + run("      | 1 | 2 |\n")
        case "at signs": return run("@") + "\nFeature: f\n"
        case "tags": return run("@t ") + "\nFeature: f\n"
        case "joined tags": return run("@t") + "\nFeature: f\n"
        case "hashes": return run("#") + "\nFeature: f\n"
        case "comment lines": return run("#\n") + "Feature: f\n"
        case "spaces": return run(" ") + "Feature: f\n"
        case "spaces in a step": return "Feature: f\n  Scenario: s\n    Given x" + run(" ") + "y\n"
        case "unicode spaces": return "Feature: f\n  Scenario: s\n" + run("\u{00A0}\u{3000}") + "Given x\n"
        case "carriage returns": return run("Feature: f\r  Scenario: s\r")
        case "misspelt keywords": return "Feature: f\n" + run("Scenaro: x\n")
        case "scenarios": return "Feature: f\n" + run("  Scenario: s\n    Given x\n")
        case "steps": return "Feature: f\n  Scenario: s\n" + run("    Given x\n")
        case "an error at the end": return "Feature: f\n" + run("\"") + "\nnot gherkin\n"
        default: return ""
        }
    }

    static let shapes = [
        "quotes in a step", "quotes in a description", "doc string fences", "escaped fences", "pipes", "table rows",
        "rows between comments", "backslashes", "less-than in an outline", "placeholders", "wide outline", "many rows",
        "at signs", "tags", "joined tags", "hashes", "comment lines", "spaces", "spaces in a step", "unicode spaces",
        "carriage returns", "misspelt keywords", "scenarios", "steps", "an error at the end",
    ]

    /// Seconds to parse and compile, the best of two runs (the machine is shared).
    static func seconds(_ text: String) -> Double {
        (0..<2).map { _ in
            let started = ContinuousClock.now
            if let document = try? GherkinParser.parse(text, uri: "hostile.feature") { _ = Pickle.compile(document) }
            return (ContinuousClock.now - started) / .seconds(1)
        }.min()!
    }

    /// Runs `work` on a thread of its own: this suite's minute of parsing would otherwise hold one of the test
    /// pool's threads (two on a 2-core machine) and starve the tests that await a running program.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread { continuation.resume(returning: work()) }.start() }
    }

    @Test(arguments: shapes)
    func hostileShapeParsesInLinearTime(shape: String) async {
        let small = Self.shape(shape, size: 100_000)
        let large = Self.shape(shape, size: 1_000_000)
        #expect(large.utf8.count > 900_000)
        let (smallTime, largeTime) = await Self.onThread { (Self.seconds(small), Self.seconds(large)) }
        #expect(largeTime < 30, "\(shape): 1 MB took \(largeTime) s")
        #expect(largeTime < 40 * smallTime + 0.5, "\(shape): 100 KB took \(smallTime) s, 1 MB \(largeTime) s: not linear")
    }
}
