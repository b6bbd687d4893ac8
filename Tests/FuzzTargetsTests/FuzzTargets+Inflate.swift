import AutomationSupport
import MockServer

// The DEFLATE decoder, as request bodies with `Content-Encoding: gzip` or `deflate` reach it: any bytes as gzip, zlib,
// raw DEFLATE and a deflate body, and through the server's content codings. The limit comes from the first byte (0
// to 1 MiB in 4 KiB steps; gzip data, 1F, gets 124 KiB): output never passes it, and a gzip, zlib or raw stream that
// decodes decodes at exactly its size and is over the limit one byte below. Each input must end within 2 s (a hang is a failure).
extension FuzzTargets {
    static func inflate(_ bytes: [UInt8]) {
        let started = MonotonicClock.milliseconds()
        let limit = Int(bytes.first ?? 0) << 12
        for format in 0..<4 {
            guard let output = try? decode(format, bytes, limit) else { continue }
            precondition(output.count <= limit, "\(output.count) bytes decoded past the limit of \(limit)")
            // (A deflate body may be both zlib and raw DEFLATE: which one decodes can depend on the limit.)
            guard format < 3 else { continue }
            precondition((try? decode(format, bytes, output.count)) == output, "the same stream did not decode at its own size")
            if !output.isEmpty {
                do throws(Inflate.Error) {
                    _ = try decode(format, bytes, output.count - 1)
                    preconditionFailure("\(output.count) bytes decoded under a limit of \(output.count - 1)")
                } catch {
                    precondition(error == .overLimit(output.count - 1), "one byte under its size: \(error)")
                }
            }
        }
        for coding in ["gzip", "deflate", "x-gzip, deflate"] {
            if let output = try? ContentCoding.decode(bytes, headers: ["Content-Encoding": coding], limit: limit) {
                precondition(output.count <= limit || output == bytes, "a \(coding) body decoded past the limit")
            }
        }
        let elapsed = MonotonicClock.milliseconds() - started
        FuzzTargets.checkTime(elapsed, limitMs: 2_000, "an input of \(bytes.count) bytes took \(Int(elapsed)) ms")
    }

    /// Gzip, zlib, raw DEFLATE, or a `deflate` body (zlib, else raw).
    private static func decode(_ format: Int, _ bytes: [UInt8], _ limit: Int) throws(Inflate.Error) -> [UInt8] {
        switch format {
        case 0: try Inflate.gunzip(bytes, limit: limit)
        case 1: try Inflate.zlib(bytes, limit: limit)
        case 2: try Inflate.raw(bytes, limit: limit)
        default: try Inflate.deflateContent(bytes, limit: limit)
        }
    }
}
