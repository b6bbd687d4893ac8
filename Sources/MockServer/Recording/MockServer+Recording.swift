import AutomationSupport

/// What a stopped recording or a snapshot made.
package struct RecordingResult: Sendable {
    package var mappings: [RecordedMapping]
    /// Exchanges of the recording dropped to stay within the proxy log's bounds (a recording with losses is a failure).
    package var lost: Int
    /// Files written below the root (`mappings/…`, `__files/…`), in order.
    package var written: [String] = []
    /// Why something could not be written or added, one line each (a failure).
    package var problems: [String] = []
    /// The root written to; nil when nothing was persisted.
    package var root: String?
}

extension MockServer {
    /// Starts recording: requests no stub matches go to `rule`'s backend, and what it answers is kept for
    /// ``stopRecording()``. False when a recording is already running.
    package func startRecording(_ rule: ProxyRule, spec: RecordSpec) -> Bool { parts.proxy.start(rule, spec: spec) }

    /// `NeverStarted`, `Recording` or `Stopped`.
    package var recordingStatus: String { parts.proxy.status.rawValue }

    /// Stops the recording and makes its mappings: written under ``Options/recordingRoot`` and added to the server
    /// when the spec persists them. Nil when no recording was running.
    package func stopRecording() -> RecordingResult? { Self.stopRecording(parts) }

    /// Mappings made from every exchange kept so far (WireMock's snapshot), persisted as the spec says.
    package func snapshot(_ spec: RecordSpec) -> RecordingResult { Self.snapshot(spec, parts) }

    static func stopRecording(_ parts: Parts) -> RecordingResult? {
        guard let (spec, exchanges, lost) = parts.proxy.stop() else { return nil }
        var result = RecordingResult(mappings: RecordedMappings.make(exchanges, spec: spec), lost: lost)
        if lost > 0 {
            result.problems.append(
                "\(lost) recorded exchange\(lost == 1 ? " was" : "s were") dropped to stay within \(ProxyLog.maxExchanges) exchanges and \(ProxyLog.maxBytes >> 20) MiB; record less at once"
            )
        }
        if spec.persist { keep(&result, parts) }
        return result
    }

    static func snapshot(_ spec: RecordSpec, _ parts: Parts) -> RecordingResult {
        var result = RecordingResult(mappings: RecordedMappings.make(parts.proxy.all, spec: spec), lost: 0)
        if spec.persist { keep(&result, parts) }
        return result
    }

    /// Writes the mappings under the root (when there is one) and adds them to the server, newest first among equals.
    private static func keep(_ result: inout RecordingResult, _ parts: Parts) {
        if parts.settings.options.recordingRoot == nil && !result.mappings.isEmpty {
            result.problems.append(
                "persist: this server has no root to write the mappings to (serve --root-dir DIR, or --into DIR); they were only added to the server"
            )
        }
        if let root = parts.settings.options.recordingRoot {
            result.root = root
            do {
                let directory = try RootedDirectory(root, create: true)
                // A recording the admin API started takes the root's lock now (a run's was taken before it served).
                if let refusal = RecordingRootLock.take(root) {
                    result.problems.append("the recording was not written into \(root): \(refusal)")
                } else {
                    try RecordingRootLock.writing(root, in: directory) {
                        write(&result, into: directory, root: root, writer: parts.proxy.loop.token)
                    }
                }
            } catch {
                // Refused before its first file: nothing was cut short, and the root loads as it was.
                result.problems.append("cannot write the recording into \(root): \(error)")
            }
        }
        var stubs = StubSet()
        for mapping in result.mappings {
            do {
                let stub = try StubSet.wireMockMapping(mapping.inline, file: mapping.path, filesDirectory: "/")
                stub.recorded = true
                stubs.append(stub)
            } catch {
                result.problems.append("recorded mapping \(mapping.path) does not load: \(error)")
            }
        }
        parts.stubs.add(stubs.stubs)
    }
}

extension MockServer {
    /// Writes each mapping (and its body file); one that cannot be written is named and the others are still written,
    /// so one taken name never costs the rest of the session.
    fileprivate static func write(_ result: inout RecordingResult, into directory: RootedDirectory, root: String, writer: String) {
        for mapping in result.mappings {
            let bytes = Array(JSONWriter.pretty(mapping.json).utf8)
            if let conflict = RecordingLedger.conflict(root: root, path: mapping.path, bytes: bytes, writer: writer) {
                result.problems.append(conflict)
                continue
            }
            do {
                if let file = mapping.bodyFile {
                    try directory.write(file.bytes, to: file.path)
                    result.written.append(file.path)
                }
                try directory.write(bytes, to: mapping.path)
                result.written.append(mapping.path)
            } catch {
                result.problems.append("\(mapping.path) was not written into \(root): \(error)")
            }
        }
    }
}

extension RecordedMapping {
    /// The mapping with its body file's bytes inline (`base64Body`), for adding to the server without reading a file.
    var inline: JSONNode {
        guard let file = bodyFile, let members = json.members else { return json }
        return JSONNode(
            .object(
                members.map { member in
                    guard member.key == "response", let response = member.value.members else { return member }
                    var copy = member
                    copy.value = JSONNode(
                        .object(
                            response.map { field in
                                guard field.key == "bodyFileName" else { return field }
                                return JSONNode.Member(
                                    key: "base64Body", keyPosition: field.keyPosition, value: .text(Base64Text.encode(file.bytes)))
                            }))
                    return copy
                }))
    }
}
