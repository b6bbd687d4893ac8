import AutomationSupport
import MockServer
import ProcessEngine

/// `sut-launch record --target URL --into DIR [serve options]`: a server that forwards every request no mapping in
/// DIR answers to the backend at URL and, when stopped (Ctrl-C, SIGTERM, `POST /__admin/shutdown`), writes what it
/// forwarded into DIR as a WireMock root. It is `serve --proxy-all URL --record-mappings --root-dir DIR`, named for
/// what it does; its URL is printed first, as `serve` prints it.
enum RecordCommand {
    static let help = HelpText.record

    static func run(_ arguments: [String]) throws -> Int32 {
        var target: String?
        var into: String?
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--help" || argument == "-h" {
                Console.out(help)
                return 0
            }
            guard argument == "--target" || argument == "--into" else {
                rest.append(argument)
                index += 1
                continue
            }
            guard index + 1 < arguments.count else {
                throw UsageError(.missingValue(argument, placeholder: argument == "--target" ? "URL" : "DIR"))
            }
            let value = arguments[index + 1]
            if argument == "--target" {
                if target != nil { throw UsageError(.givenTwice("--target", first: target!, second: value)) }
                target = value
            } else {
                if into != nil { throw UsageError(.givenTwice("--into", first: into!, second: value)) }
                into = value
            }
            index += 2
        }
        guard let target else { throw UsageError(.recordingOptionNeeds("record", needs: "needs --target URL, the backend to record")) }
        guard let into else { throw UsageError(.recordingOptionNeeds("record", needs: "needs --into DIR, where the mappings are written")) }
        var recording = RecordingOptions()
        try recording.setBackend(target, option: "--target", index: 0, recording: true)
        recording.into = into
        // Its host and port, to refuse our own address (parsing reads no file), with record's own spellings in every
        // message; the recording options (`--keep-secrets`…) are left out there: alone they ask for a recording.
        let serve = try ServeOptions.parse(RecordingOptions.withoutRecordingOnly(rest))
        try recording.refuseOwnAddress(host: serve.host, port: serve.port, spelling: "--target")
        try recording.checkInto()
        return try ServeCommand.run(["--proxy-all", target, "--record-mappings", "--root-dir", into] + rest, recordingRequired: true)
    }
}
