import AutomationSupport

/// WireMock's recording API: `POST /__admin/recordings/start` (a record spec with `targetBaseUrl`), `POST …/stop`
/// (the mappings made), `GET …/status`, `POST …/snapshot` (mappings from every exchange proxied so far). Guarded by
/// the admin API's policy like every admin endpoint.
extension AdminAPI {
    static func recordings(_ route: String, _ request: HTTPRequest, parts: MockServer.Parts) -> MockResponse? {
        switch route {
        case "GET /__admin/recordings/status":
            return .json(text: "{\"status\":\"\(parts.proxy.status.rawValue)\"}")
        case "POST /__admin/recordings/start":
            let parsed: (RecordSpec, JSONNode)
            switch spec(request, what: "recordings/start") {
            case .failure(let refusal): return refusal.response
            case .success(let read): parsed = read
            }
            guard let base = JSONNode.member("targetBaseUrl", in: parsed.1.members ?? [])?.string else {
                return error("\"targetBaseUrl\" is required: the backend to record, like http://127.0.0.1:8080", status: 422)
            }
            let rule: ProxyRule
            do { rule = ProxyRule(target: try UpstreamTarget(base)) } catch { return self.error("targetBaseUrl: \(error)", status: 422) }
            if rule.target.isServer(listeningOn: parts.settings.host, port: parts.settings.listeningPort) {
                return error(
                    "targetBaseUrl \(rule.target) is this server's own address: recording it would forward every request back here; give the real backend",
                    status: 422)
            }
            guard parts.proxy.start(rule, spec: parsed.0) else {
                return error("a recording is already in progress; stop it first", status: 409)
            }
            return .json(text: "{}")
        case "POST /__admin/recordings/stop":
            guard let result = MockServer.stopRecording(parts) else { return error("Not currently recording.", status: 400) }
            return answer(result, idsOnly: false)
        case "POST /__admin/recordings/snapshot":
            let spec: RecordSpec
            if request.body.isEmpty {
                spec = RecordSpec()
            } else {
                switch self.spec(request, what: "recordings/snapshot") {
                case .failure(let refusal): return refusal.response
                case .success(let read): spec = read.0
                }
            }
            return answer(MockServer.snapshot(spec, parts), idsOnly: spec.idsOnly)
        default: return nil
        }
    }

    private static func spec(_ request: HTTPRequest, what: String) -> Result<(RecordSpec, JSONNode), Refusal> {
        guard let body = try? JSONParser.parse(request.body, refusingLoneSurrogates: true), body.members != nil else {
            return .failure(
                Refusal(response: error("the body is a JSON object like {\"targetBaseUrl\": \"http://127.0.0.1:8080\"}", status: 422)))
        }
        do { return .success((try RecordSpec.parse(body, what: what), body)) } catch {
            return .failure(Refusal(response: self.error("\(error)", status: 422)))
        }
    }

    /// `{"mappings": [...]}` (or `{"ids": [...]}`), with what could not be written as errors.
    private static func answer(_ result: RecordingResult, idsOnly: Bool) -> MockResponse {
        var text =
            idsOnly
            ? "{\"ids\":[" + result.mappings.map { JSONWriter.quoted($0.id) }.joined(separator: ",") + "]"
            : "{\"mappings\":[" + result.mappings.map { JSONWriter.write($0.json) }.joined(separator: ",") + "]"
        if !result.problems.isEmpty {
            text += ",\"errors\":[" + result.problems.map { "{\"title\":" + JSONWriter.quoted($0) + "}" }.joined(separator: ",") + "]"
        }
        return .json(text: text + "}", status: result.problems.isEmpty ? 200 : 500)
    }

    /// An answer that refuses the request, carried as an error.
    private struct Refusal: Error { let response: MockResponse }

    private static func error(_ title: String, status: Int) -> MockResponse {
        .json(text: "{\"errors\":[{\"code\":10,\"title\":" + JSONWriter.quoted(title) + "}]}", status: status)
    }
}
