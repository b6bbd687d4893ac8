/// What the mock server answers: status, headers, body, and how (delay, fault, chunked).
public struct MockResponse: Sendable, Hashable {
    /// Ways to misbehave on purpose, as WireMock's faults.
    public enum Fault: String, Sendable, Hashable, CaseIterable {
        /// Close with a TCP reset (WireMock CONNECTION_RESET_BY_PEER).
        case connectionReset = "connection-reset"
        /// Close without a byte (WireMock EMPTY_RESPONSE).
        case emptyResponse = "empty-response"
        /// A 200 with a broken chunked body (WireMock MALFORMED_RESPONSE_CHUNK).
        case malformedChunk = "malformed-chunk"
        /// Garbage bytes, then close (WireMock RANDOM_DATA_THEN_CLOSE).
        case randomDataThenClose = "random-data"

        /// The WireMock name of the fault.
        package var wireMockName: String {
            switch self {
            case .connectionReset: "CONNECTION_RESET_BY_PEER"
            case .emptyResponse: "EMPTY_RESPONSE"
            case .malformedChunk: "MALFORMED_RESPONSE_CHUNK"
            case .randomDataThenClose: "RANDOM_DATA_THEN_CLOSE"
            }
        }
    }

    /// The status code.
    public var status: Int
    /// The reason phrase; nil for the standard one.
    public var reason: String?
    /// Header fields to send (Content-Length is added unless the body goes chunked).
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]
    /// Milliseconds to wait before answering.
    public var delayMs: Int
    /// Misbehave instead of answering (WireMock's faults).
    public var fault: Fault?
    /// Send the body with chunked transfer encoding (HTTP/1.1 clients only).
    public var chunked: Bool
    /// Send what follows the head slowly, in pieces (WireMock's `chunkedDribbleDelay`); nil: at once.
    package var dribble: Dribble?
    /// Work to do once the answer is written (a mapping's webhooks); nil: none.
    package var afterAnswer: AfterAnswer?
    /// The body, made while it is written (large admin listings); `body` is empty then. nil: `body` is the body.
    package var stream: BodyStream?
    /// Told whether the answer reached its connection (a control message counts as delivered only then); nil: none.
    package var handOver: HandOver?
    /// Why this is not the answer the chosen stub defines (its template could not be rendered for this request, a
    /// file it serves cannot be read, its head cannot be written): the request then fails a strict run, as an
    /// unexpected one does, with this reason. nil: the stub's answer as defined.
    package var unanswered: String?

    /// An answer; by default 200 with no body.
    public init(
        status: Int = 200, reason: String? = nil, headers: HTTPHeaders = [:], body: [UInt8] = [],
        delayMs: Int = 0, fault: Fault? = nil, chunked: Bool = false
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.delayMs = delayMs
        self.fault = fault
        self.chunked = chunked
    }

    /// A text response (text/plain; charset=utf-8 unless `contentType` says otherwise).
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> MockResponse {
        MockResponse(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// A text answer with `status` that stands in for a stub's answer which could not be made (``unanswered``).
    package static func unanswered(_ reason: String, status: Int) -> MockResponse {
        var response = MockResponse.text(reason + "\n", status: status)
        response.unanswered = reason
        return response
    }

    /// A JSON response from already-encoded JSON text.
    public static func json(text: String, status: Int = 200) -> MockResponse {
        MockResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }
}

/// Standard reason phrases.
package enum HTTPStatus {
    package static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    /// Statuses that never carry a body (RFC 9110 §6.4.1).
    package static func forbidsBody(_ status: Int) -> Bool { status < 200 || status == 204 || status == 304 }
}

/// Work a connection does after it wrote an answer; equal by its number, so answers stay comparable.
package struct AfterAnswer: Sendable, Hashable {
    let id: Int
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        id = Int.random(in: Int.min...Int.max)
        self.run = run
    }

    package static func == (lhs: AfterAnswer, rhs: AfterAnswer) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
