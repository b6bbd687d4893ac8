import AutomationSupport
import ProcessEngine

/// The size a feature file may have: its text goes whole into the Cucumber Messages (`source`, `gherkinDocument`,
/// each pickle's doc strings), and a Messages line over ``MessagesReader/lineLimit`` is one `sut-launch report`
/// refuses. A file that could never be reported is refused when it loads (exit 3, naming it), not after the suite ran.
extension ScenarioLint {
    /// The most bytes a feature file may hold: with JSON's escapes at their worst (6 bytes for one), its text still
    /// fits one Messages line.
    package static let featureFileLimit = 8 << 20

    /// The most bytes a run's feature texts (each in a `source` and a `gherkinDocument`) and pickles may take in its
    /// Cucumber Messages, JSON escapes counted: a Background or an Outline writes its doc strings and tables into every
    /// scenario, so a 1 MiB feature once made 314 MB of Messages that `sut-launch report` (which reads at most
    /// ``FileSystem/readLimit``, 256 MiB) refused. The rest of the envelopes fit in what is left.
    package static let messagesBytesLimit = 192 << 20

    /// The bytes `text` takes as a JSON string's content.
    static func escapedBytes(_ text: String) -> Int {
        var total = 0
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x0A, 0x09, 0x0D: total += 2 // \" \\ \n \t \r
            case ..<0x20, 0x7F: total += 6 // \u0001
            default: total += 1
            }
        }
        return total
    }

    /// The bytes `pickles` take in Messages (their steps' texts, doc strings and tables, escaped as JSON), counted only
    /// up to `limit`: past it, any number over `limit` (the work stays bounded by the limit, whatever the expansion).
    static func messagesBytes(_ pickles: [Pickle], upTo limit: Int) -> Int {
        var total = 0
        func add(_ text: String) { total += escapedBytes(text) }
        for pickle in pickles {
            for step in pickle.steps {
                add(step.text)
                if let docString = step.docString { add(docString.content) }
                for row in step.dataTable?.rows ?? [] { for cell in row { add(cell) } }
                if total > limit { return total }
            }
        }
        return total
    }

    /// The most bytes one pickle's texts may take in Messages, JSON escapes counted: its `pickle` envelope is one line,
    /// which `sut-launch report` reads up to ``MessagesReader/lineLimit`` (64 MiB), and the scenario's record repeats
    /// its step texts. An Outline row that fills a doc string with a long value makes one such line.
    package static let pickleBytesLimit = 24 << 20

    /// Why one of `pickles` is refused (its Messages line would be over what `report` reads), naming it; or nil.
    static func pickleProblem(_ pickles: [Pickle]) -> (line: Int, message: String)? {
        for pickle in pickles {
            var total = 0
            for step in pickle.steps {
                total += escapedBytes(step.text) + (step.docString.map { escapedBytes($0.content) } ?? 0)
                for row in step.dataTable?.rows ?? [] { for cell in row { total += escapedBytes(cell) } }
                guard total <= pickleBytesLimit else {
                    return (
                        pickle.line,
                        "scenario \"\(String(pickle.name.prefix(60)).escapingControlCharacters())\" would take over "
                            + "\(ByteSize.text(pickleBytesLimit)) in one Cucumber Messages line (its steps' texts, JSON escapes counted), "
                            + "past what its reports can be read back from: keep large texts in fixture files (Given the files from \"DIR\")"
                    )
                }
            }
        }
        return nil
    }

    /// Why a file whose text and pickles take `bytes` in Messages, after `before` taken by the files read before it,
    /// makes the run's reports too large to read back; nil when it does not. Said once, for the first such file.
    static func expansionProblem(bytes: Int, before: Int) -> String? {
        guard before <= messagesBytesLimit, before + bytes > messagesBytesLimit else { return nil }
        let earlier = before > 0 ? " (the files before it take \(ByteSize.text(before)))" : ""
        return "its scenarios would bring the run's Cucumber Messages over \(ByteSize.text(messagesBytesLimit))\(earlier), "
            + "past what its reports can be read back from (a Background or an Outline writes its doc strings and tables into "
            + "every scenario): keep large texts in fixture files (Given the files from \"DIR\")"
    }

    /// Why a feature file of `bytes` bytes is refused, or nil.
    static func sizeProblem(_ path: String, bytes: Int) -> String? {
        guard bytes > featureFileLimit else { return nil }
        return "\(path): a feature file of \(bytes) bytes (the limit is \(ByteSize.text(featureFileLimit)), so that its reports can be "
            + "read back): split it, or keep large texts in fixture files (Given the files from \"DIR\")"
    }
}
