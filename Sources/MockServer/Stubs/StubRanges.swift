/// The range of every number a stub file, a WireMock mapping or an admin request gives, read by
/// ``BoundedNumber`` (through ``ObjectReader/int(_:in:)`` or ``HTTPRequest/boundedQueryInteger(_:in:)``): out of range
/// is exit 3 naming the file and field at load, or 400/422 naming the value in `serve`.
enum StubRanges {
    /// `status`: a final answer, as HTTP defines them. A 1xx is an interim answer: sent alone, the client waits
    /// for the final one that never comes.
    static let status = 200...599
    /// `delayMs`, `fixedDelayMilliseconds`: at most ten minutes.
    static let delayMs = 0...600_000
    /// `POST /__admin/settings` `fixedDelay`: at most a minute, added to every answer.
    static let globalDelayMs = 0...60_000
    /// `priority`: WireMock's (a Java int).
    static let priority = Int(Int32.min)...Int(Int32.max)
    /// `expect.times`, `atLeast`, `atMost`.
    static let expectedCalls = 0...Int(Int32.max)
    /// `GET /__admin/requests?limit=N`.
    static let journalLimit = 0...Int(Int32.max)
}
