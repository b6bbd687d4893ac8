import Foundation
import Testing

@testable import MockServer

/// WireMock's `delayDistribution` and `chunkedDribbleDelay` (issue 28: mappings using them were refused).
@Suite struct ResponseTimingTests {
    static func mapping(_ response: String) -> String {
        #"{ "request": { "method": "GET", "url": "/slow" }, "response": { "status": 200, "body": "0123456789", \#(response) } }"#
    }

    @Test func aUniformDelayWaitsAtLeastItsLowerBoundAndTheAnswerIsWhole() throws {
        let server = try TestServer(Self.mapping(#""delayDistribution": { "type": "uniform", "lower": 300, "upper": 320 }"#))
        defer { server.stop() }
        let start = Date()
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = client.read(timeout: 10)
        #expect(answer.hasSuffix("0123456789"), "\(answer)")
        #expect(Date().timeIntervalSince(start) >= 0.3)
    }

    @Test func samplesStayInsideTheirBoundsAndALognormalNeverTraps() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            #expect((15...25).contains(DelayDistribution.uniform(lower: 15, upper: 25).sampleMs(using: &random)))
            let capped = DelayDistribution.lognormal(median: 80, sigma: 0.4, maxValue: 100).sampleMs(using: &random)
            #expect((0...100).contains(capped))
            // A sigma at its limit draws samples far past any delay: they wait the limit, never trap.
            let wild = DelayDistribution.lognormal(median: 600_000, sigma: 16, maxValue: nil).sampleMs(using: &random)
            #expect((0...StubRanges.delayMs.upperBound).contains(wild))
        }
        #expect(DelayDistribution.fixed(7).sampleMs(using: &random) == 7)
    }

    @Test(arguments: [
        (#"{ "type": "uniform", "lower": 30, "upper": 20 }"#, "\"upper\" (20) is below \"lower\" (30)"),
        (#"{ "type": "uniform", "lower": -1, "upper": 20 }"#, "lower"),
        (#"{ "type": "lognormal", "median": 80, "sigma": 1e300 }"#, "\"sigma\" must be a number from 0.0 to 16.0"),
        (#"{ "type": "lognormal", "median": -5, "sigma": 0.1 }"#, "\"median\" must be a number"),
        (#"{ "type": "lognormal", "sigma": 0.1 }"#, "\"median\" must be a number"),
        (#"{ "type": "gaussian", "median": 1 }"#, "lognormal, uniform or fixed, found \"gaussian\""),
        (#"{ "type": "fixed", "milliseconds": 9223372036854775807 }"#, "milliseconds"),
        (#"{ "type": "fixed", "milliseconds": 5, "extra": 1 }"#, "extra"),
    ])
    func badDistributionsAreRefusedAtLoadNamingTheKey(distribution: String, message: String) {
        #expect {
            _ = try StubLoader.parse(Self.mapping("\"delayDistribution\": \(distribution)"), file: "m.json")
        } throws: { error in
            "\(error)".contains(message) && "\(error)".hasPrefix("m.json:1:")
        }
    }

    @Test func aDribbledAnswerArrivesInPiecesOverItsDuration() throws {
        let server = try TestServer(Self.mapping(#""chunkedDribbleDelay": { "numberOfChunks": 5, "totalDuration": 500 }"#))
        defer { server.stop() }
        let start = Date()
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = client.read(until: "\r\n\r\n", timeout: 10)
        let headAt = Date().timeIntervalSince(start)
        let whole = head + client.read(until: "0123456789", timeout: 10)
        let doneAt = Date().timeIntervalSince(start)
        #expect(whole.hasSuffix("0123456789") && whole.contains("Content-Length: 10"), "\(whole)")
        #expect(doneAt - headAt >= 0.35, "the body came at once: head \(headAt) s, body \(doneAt) s")
        // Keep-alive holds: the next request on the connection is answered.
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(client.read(timeout: 10).hasSuffix("0123456789"))
    }

    /// r12 R12-3: the first piece went at once, so an answer took (n-1)/n of `totalDuration`, and a one-piece body none
    /// of it; WireMock 2.35 pauses before every piece.
    @Test(arguments: [(1, 400), (5, 500)])
    func aDribbledAnswerTakesItsWholeDurationEvenInOnePiece(chunks: Int, totalMs: Int) throws {
        let server = try TestServer(
            Self.mapping(#""chunkedDribbleDelay": { "numberOfChunks": \#(chunks), "totalDuration": \#(totalMs) }"#))
        defer { server.stop() }
        let start = Date()
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(client.read(timeout: 10).hasSuffix("0123456789"))
        #expect(Date().timeIntervalSince(start) >= Double(totalMs) / 1000 * 0.98)
    }

    @Test func badDribblesAreRefused() {
        for dribble in [
            #"{ "numberOfChunks": 0, "totalDuration": 5 }"#, #"{ "numberOfChunks": 5 }"#, #"{ "numberOfChunks": 5, "totalDuration": -1 }"#,
        ] {
            #expect(throws: StubError.self) { try StubLoader.parse(Self.mapping("\"chunkedDribbleDelay\": \(dribble)"), file: "m.json") }
        }
    }
}
