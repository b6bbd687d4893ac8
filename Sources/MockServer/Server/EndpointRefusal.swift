import AutomationSupport

/// An admin or control request refused with this answer (a 4xx naming what was wrong).
struct EndpointRefusal: Error {
    let response: MockResponse
    init(_ response: MockResponse) { self.response = response }
}

extension HTTPRequest {
    /// The query parameter `name` read by ``BoundedNumber`` in `range`; nil when absent.
    /// - Throws: a 400 naming the parameter, its value and the range.
    func boundedQueryInteger(_ name: String, in range: ClosedRange<Int>, bareDigits: Bool = false) throws(EndpointRefusal) -> Int? {
        let values = queryValues(name)
        guard let text = values.first else { return nil }
        // ack?id=2&id=3 took the first silently: which one was meant is not ours to guess.
        guard values.count == 1 else {
            throw EndpointRefusal(.text("?\(name) is given \(values.count) times; give it once\n", status: 400))
        }
        do {
            // sut-launch's own endpoints read bare digits, as every number of its own (`-0` was taken as 0 where `-1`
            // is a 400); the admin API reads numbers as WireMock does.
            return try bareDigits ? BoundedNumber.requireWritten(text, in: range) : BoundedNumber.requireInteger(text, in: range)
        } catch {
            // The value as the client wrote it, control characters escaped (R8a-A6: NUL, ESC, CR LF were echoed raw).
            throw EndpointRefusal(.text("?\(name): \(error)".escapingControlCharacters() + "\n", status: 400))
        }
    }
}
