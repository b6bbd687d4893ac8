package import AutomationSupport

/// The client end of the connection a request came on, for an answer that must reach a live reader (a control
/// message: ``ControlQueue``). Not part of the request's value: two requests are equal whatever their peers.
package struct Peer: Sendable, Hashable {
    let socket: Socket

    package init(_ socket: Socket) { self.socket = socket }

    /// True when the client has closed its side or the connection was reset: an answer written now is lost.
    package var hasGone: Bool { socket.peerHasGone }

    package static func == (lhs: Peer, rhs: Peer) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

/// Told whether an answer was written in full to its connection (false: the client had gone), once it was; an
/// answer no connection writes (``MockServer/handle(_:)``) counts as written.
package struct HandOver: Sendable, Hashable {
    let id: Int
    let written: @Sendable (Bool) -> Void

    init(_ written: @escaping @Sendable (Bool) -> Void) {
        id = Int.random(in: Int.min...Int.max)
        self.written = written
    }

    package static func == (lhs: HandOver, rhs: HandOver) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
