import MockServer

/// `sut-launch check FILES...`: validates stub files, WireMock mappings and feature files (syntax, and every step
/// in the catalog); exit 0 when all are valid, 3 otherwise.
public enum CheckCommand {
    public static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: [OptionSpec("--help", short: "-h", help: "")], stopAtPositional: false)
        if parsed.has("--help") || parsed.positionals.isEmpty {
            guard parsed.has("--help") else { throw UsageError("check needs files: sut-launch check routes.json mappings/") }
            print("USAGE:\n  sut-launch check FILES...\n\nValidates stub files, WireMock mappings and .feature files; exit 3 on the first problem in each file.")
            return 0
        }
        var failed = false
        for path in parsed.positionals {
            if path.hasSuffix(".feature") {
                if !checkFeature(path) { failed = true }
                continue
            }
            do {
                let stubs = try StubLoader.load(path)
                print("ok: \(path): \(stubs.count) route\(stubs.count == 1 ? "" : "s")")
            } catch {
                Console.error("\(error)")
                failed = true
            }
        }
        return failed ? ExitCode.invalidInput : 0
    }

    /// Parses a feature file and checks that every step is in the catalog.
    static func checkFeature(_ path: String) -> Bool {
        guard let bytes = FileSystem.read(path) else {
            Console.error("\(path): cannot read the file")
            return false
        }
        do {
            let pickles = Pickle.compile(try GherkinParser.parse(String(decoding: bytes, as: UTF8.self), uri: path))
            var ok = true
            var reported: Set<Int> = []
            for pickle in pickles {
                for step in pickle.steps where StepCatalog.find(step.text) == nil && reported.insert(step.line).inserted {
                    let closest = StepCatalog.closest(to: step.keyword + step.text, count: 1).first?.split(separator: "\n").first.map(String.init) ?? ""
                    Console.error("\(path):\(step.line): undefined step \"\(step.keyword)\(step.text)\"; closest: \(closest)")
                    ok = false
                }
            }
            if ok { print("ok: \(path): \(pickles.count) scenario\(pickles.count == 1 ? "" : "s")") }
            return ok
        } catch {
            Console.error("\(error)")
            return false
        }
    }
}
