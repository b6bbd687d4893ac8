/// A body made piece by piece while its connection writes it: each piece goes out before the next is made, so a
/// large answer (a listing of the journal or the mappings) is never held whole, and the making stops as soon as a
/// piece cannot be written (the client went away, or did not read within the write deadline). r10a C3: each reader of
/// `GET /__admin/requests` built the whole 43 MB answer first, and went on after its client had gone (8 readers that
/// hung up cost 34 s of CPU and 830 MB). Sent chunked (HTTP/1.0: closed after). Equal by its number, as
/// ``AfterAnswer``.
package struct BodyStream: Sendable, Hashable {
    let id: Int
    /// Makes the body, handing each piece to `emit`; stops when `emit` says false.
    let produce: @Sendable (_ emit: (String) -> Bool) -> Void

    init(_ produce: @escaping @Sendable (_ emit: (String) -> Bool) -> Void) {
        id = Int.random(in: Int.min...Int.max)
        self.produce = produce
    }

    /// The whole body at once, for an answer no connection writes (``MockServer/handle(_:)``) and for tests.
    package func collected() -> [UInt8] {
        var bytes: [UInt8] = []
        produce { piece in
            bytes.append(contentsOf: piece.utf8)
            return true
        }
        return bytes
    }

    package static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension MockResponse {
    /// A JSON answer written as it is made (``BodyStream``): `opening`, the `count` items `item` makes (by index,
    /// comma-separated), then `closing`.
    static func streamedJSON(
        opening: String, count: Int, closing: String, item: @escaping @Sendable (Int) -> String
    ) -> MockResponse {
        var response = MockResponse(status: 200, headers: ["Content-Type": "application/json"])
        response.stream = BodyStream { emit in
            guard emit(opening) else { return }
            for index in 0..<count {
                guard emit(index == 0 ? item(index) : "," + item(index)) else { return }
            }
            _ = emit(closing)
        }
        return response
    }

    /// The body, made whole when it is a ``BodyStream`` (an answer no connection writes).
    package var wholeBody: [UInt8] { stream?.collected() ?? body }
}
