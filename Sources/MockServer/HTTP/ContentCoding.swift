import AutomationSupport

/// The content codings of a request body (RFC 9110 §8.4) that the server undoes before anything reads the body, as
/// WireMock does: matchers, templates (`{{request.body}}`), the admin API and the journal see the decoded bytes. The
/// header fields stay as sent: `Content-Encoding` and `Content-Length` describe the bytes that came over the wire.
/// `Connection` applies it to every request read from a socket; ``MockServer/handle(_:)`` takes a request as given.
package enum ContentCoding {
    /// Codings undone at most (each is bounded by the limit; no client stacks more than two).
    static let maxCodings = 4

    /// The body with the codings its `Content-Encoding` fields name undone, the last applied first: `gzip` and
    /// `x-gzip` (RFC 1952, concatenated members too), `deflate` (zlib, RFC 1950, or raw DEFLATE as some clients send
    /// it); `identity` is no coding. A body with a coding we do not decode (`br`, `zstd`, `compress`, a name we do not
    /// know) is left as sent, as WireMock leaves it; so is an empty one.
    /// - Throws: 413 when a decoded body would be larger than `limit` (stopped there: a decompression bomb costs no
    ///   more); 400 when a body does not decode (corrupt, cut short, a bad checksum, bytes after the data) or more
    ///   than ``maxCodings`` codings are named.
    package static func decode(_ body: [UInt8], headers: HTTPHeaders, limit: Int) throws(RequestHead.Error) -> [UInt8] {
        guard !body.isEmpty else { return body }
        let values = headers.values("Content-Encoding")
        guard !values.isEmpty else { return body }
        var codings: [String] = []
        for value in values {
            for part in value.split(separator: ",") {
                let coding = part.trimmingCharacters(in: " \t").lowercased()
                guard !coding.isEmpty, coding != "identity" else { continue }
                guard coding == "gzip" || coding == "x-gzip" || coding == "deflate" else { return body }
                codings.append(coding)
            }
        }
        guard codings.count <= maxCodings else {
            throw RequestHead.Error(400, "request body with \(codings.count) content codings (at most \(maxCodings) are decoded)")
        }
        var decoded = body
        for coding in codings.reversed() {
            do throws(Inflate.Error) {
                decoded =
                    coding == "deflate" ? try Inflate.deflateContent(decoded, limit: limit) : try Inflate.gunzip(decoded, limit: limit)
            } catch .overLimit {
                throw RequestHead.Error(413, "request body decoded from \(coding) is larger than \(limit) bytes")
            } catch {
                throw RequestHead.Error(400, "request body is not valid \(coding) (Content-Encoding): \(error)")
            }
        }
        return decoded
    }
}
