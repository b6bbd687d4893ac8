import AutomationSupport
import Testing

@testable import MockServer

/// WireMock mappings for matcher tests: one mapping's `request` (JSON text), loaded as `mapping.json`.
enum Mappings {
    /// The text of a mapping file holding `request` and a response that says "matched".
    static func file(_ request: String) -> String { #"{"request": "# + request + #", "response": {"body": "matched"}}"# }

    /// A server with that one mapping (loading must succeed).
    static func server(_ request: String) throws -> MockServer {
        MockServer(stubs: try StubLoader.parse(file(request), file: "mapping.json"))
    }

    /// The error that loading the mapping gives (`mapping.json:1:40: …`), or nil when it loads.
    static func problem(_ request: String) -> String? {
        do {
            _ = try StubLoader.parse(file(request), file: "mapping.json")
            return nil
        } catch {
            return error.description
        }
    }

    /// One matcher object (`{"before": "now"}`), read as a header's matcher is read.
    static func matcher(_ json: String, place: MatcherPlace = .values) throws -> ValueMatcher {
        try ValueMatcher.parse(try JSONParser.parse(json), file: "mapping.json", what: "headers \"X\"", place: place)
    }

    /// A request's answer: whether the mapping matched it, and the body (the near miss when it did not).
    static func ask(
        _ server: MockServer, method: String = "GET", _ target: String = "/", headers: [(String, String)] = [], body: [UInt8] = []
    ) -> (matched: Bool, text: String) {
        let response = server.handle(
            HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: body))
        let text = String(decoding: response.body, as: UTF8.self)
        return (response.status == 200 && text == "matched", text)
    }
}
