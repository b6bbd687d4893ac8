import AutomationSupport

/// The control channel's messages for the program under test (`/__sut/control`) and the program's
/// acknowledgements, behind a lock of their own: a program long-polling for a message never holds up
/// requests, stubs or the journal. Bounded: messages queued and not yet received, their bytes, the size of
/// one message, acknowledgements kept and their bytes.
package final class ControlQueue: @unchecked Sendable {
    /// Messages queued and not yet received; a test that sends more gets 503 (a program that never reads).
    package static let queueLimit = 10_000
    /// Bytes of messages queued and not yet received (each may be as large as a request body).
    package static let queueByteLimit = 64 << 20
    /// Acknowledgements kept for tests to wait on; the oldest go first.
    package static let ackLimit = 1_000
    /// The largest control message, in bytes of UTF-8.
    package static let messageLimit = 1 << 20
    /// Bytes of acknowledgement replies kept; the oldest go first.
    package static let ackByteLimit = 64 << 20

    private let lock = Lock()
    /// Messages for the program, oldest first, with their ids.
    private var messages: [(id: Int, text: String)] = []
    private var lastId = 0
    /// Messages taken off the queue for a poller and being written to its connection: delivered once written, back at
    /// the head of the queue when the write failed (R8a-A2: a poller whose client was gone "took" the message, lost).
    private var inFlight: Set<Int> = []
    /// Polls waiting for a message now.
    private var waitingPolls = 0
    /// Replies of acknowledged messages by id (the latest ``ackLimit``).
    private var acks: [Int: String] = [:]
    /// Messages the program took and has not acknowledged: only these can be acknowledged (R4a-4: an unread
    /// message was "answered", and a second acknowledgement replaced nothing the sender saw, silently).
    private var delivered: Set<Int> = []
    /// Messages whose sender was told 504 before they were acknowledged: never delivered after, never acknowledged.
    private var withdrawn: Set<Int> = []
    private var queueBytes = 0
    private var ackBytes = 0
    /// The run ended (its program exited, the server is stopping): no acknowledgement can come now.
    private var ended = false

    /// This queue's name on the wire (32 hex digits, drawn at start): the program's `SUT_CONTROL_URL` carries it as
    /// `?channel=`, and a receive or acknowledgement naming another channel is refused. A program left running by an
    /// earlier run keeps polling its port; when a later server is given that port, it would otherwise take that
    /// run's messages (seen in the project's own suite: a test waited 300 s for a "refresh" a leftover had taken).
    package let channel: String

    package init() {
        var random = SystemRandomNumberGenerator()
        channel = (0..<2).map { _ in
            let text = String(random.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    /// Queues a message: its id, or why it was not queued (the queue is full, the message too large).
    package func enqueue(_ message: String) -> Result<Int, ControlQueueError> {
        let size = message.utf8.count
        guard size <= Self.messageLimit else { return .failure(.tooLarge(bytes: size, limit: Self.messageLimit)) }
        return lock.withLock {
            guard messages.count < Self.queueLimit else { return .failure(.full(limit: Self.queueLimit)) }
            guard queueBytes + size <= Self.queueByteLimit else { return .failure(.fullBytes(limit: Self.queueByteLimit)) }
            lastId += 1
            messages.append((lastId, message))
            queueBytes += size
            lock.broadcast()
            return .success(lastId)
        }
    }

    /// Waits up to `timeoutMs` for a message and takes it (delivered at once: no connection writes it).
    package func next(timeoutMs: Int) -> (id: Int, text: String)? {
        guard let message = take(timeoutMs: timeoutMs, peerGone: { false }) else { return nil }
        handedOver(message, written: true)
        return message
    }

    /// Waits up to `timeoutMs` for a message and takes it for a poller, which then writes it and tells
    /// ``handedOver(_:written:)``. Nil when none came, or when the poller's client is gone (`peerGone`, asked before a
    /// message is taken and whenever the wait wakes): a poll whose client closed or was killed takes nothing.
    package func take(timeoutMs: Int, peerGone: () -> Bool) -> (id: Int, text: String)? {
        lock.withLock {
            waitingPolls += 1
            defer { waitingPolls -= 1 }
            guard lock.wait(until: { !messages.isEmpty || peerGone() }, timeoutMs: timeoutMs), !peerGone() else { return nil }
            let message = messages.removeFirst()
            inFlight.insert(message.id)
            queueBytes -= message.text.utf8.count
            return message
        }
    }

    /// How many polls wait for a message now (tests wait for a poller to be there before its client goes).
    package var pollsWaiting: Int { lock.withLock { waitingPolls } }

    /// Ends the hand-over of a message ``take(timeoutMs:peerGone:)`` gave: written, it is delivered (the program has
    /// it; it can acknowledge it); not written (the client went away), it goes back to the queue in its place, for the
    /// next poller. Nothing when it was acknowledged or withdrawn meanwhile.
    package func handedOver(_ message: (id: Int, text: String), written: Bool) {
        lock.withLock {
            guard inFlight.remove(message.id) != nil else { return }
            if written {
                delivered.insert(message.id)
            } else {
                messages.insert(message, at: messages.firstIndex { $0.id > message.id } ?? messages.count)
                queueBytes += message.text.utf8.count
            }
            lock.broadcast()
        }
    }

    /// Waits up to `timeoutMs` until the program took message `id` (`GET /__sut/control` wrote it to a live client).
    package func waitForDelivery(_ id: Int, timeoutMs: Int) -> Bool {
        lock.withLock { lock.wait(until: { isDeliveredLocked(id) }, timeoutMs: timeoutMs) }
    }

    /// Sent, written to the program, not withdrawn (acknowledged or not).
    private func isDeliveredLocked(_ id: Int) -> Bool {
        id > 0 && id <= lastId && !inFlight.contains(id) && !withdrawn.contains(id) && !messages.contains { $0.id == id }
    }

    /// Why an acknowledgement was not recorded.
    package enum AckRefusal: Equatable {
        case neverSent, notDelivered, alreadyAcknowledged, withdrawn
    }

    /// Records the program's acknowledgement of message `id`: only a message delivered (taken by `GET`) and not yet
    /// acknowledged, nor withdrawn because its sender was told 504.
    /// - Returns: nil when recorded, else why not.
    package func acknowledge(_ id: Int, reply: String) -> AckRefusal? {
        lock.withLock {
            guard id > 0, id <= lastId else { return .neverSent }
            if withdrawn.contains(id) { return .withdrawn }
            // In flight: the program read it before its poll's write returned here; it has it.
            guard delivered.remove(id) != nil || inFlight.remove(id) != nil else {
                return messages.contains { $0.id == id } ? .notDelivered : .alreadyAcknowledged
            }
            ackBytes += reply.utf8.count
            acks[id] = reply
            while acks.count > 1 && (acks.count > Self.ackLimit || ackBytes > Self.ackByteLimit),
                let oldest = acks.keys.min(), oldest != id
            {
                ackBytes -= acks.removeValue(forKey: oldest)?.utf8.count ?? 0
            }
            lock.broadcast()
            return nil
        }
    }

    /// Waits up to `timeoutMs` for the acknowledgement of message `id`; its reply, or nil.
    package func waitForAcknowledgement(_ id: Int, timeoutMs: Int) -> String? {
        lock.withLock {
            guard lock.wait(until: { acks[id] != nil }, timeoutMs: timeoutMs) else { return nil }
            return acks[id]
        }
    }

    /// Waits as ``waitForAcknowledgement(_:timeoutMs:)``; when none came, withdraws the message in the same hold of the
    /// lock (its sender is told 504): still queued, it is never delivered; delivered, its late acknowledgement is a 409.
    package func waitForAcknowledgementOrWithdraw(_ id: Int, timeoutMs: Int) -> AckWait {
        lock.withLock {
            if lock.wait(until: { acks[id] != nil || ended }, timeoutMs: timeoutMs), let reply = acks[id] { return .acknowledged(reply) }
            // Being written to a poller: whether it arrives is known in a moment (the write's end).
            if inFlight.contains(id) { _ = lock.wait(until: { !inFlight.contains(id) }, timeoutMs: 1_000) }
            if let reply = acks[id] { return .acknowledged(reply) }
            // Taken by the program (it may have acted on it) or still queued (never delivered now): the sender is
            // told which, so a retry does not send twice what the program already did.
            let taken = delivered.contains(id) || inFlight.contains(id)
            withdrawLocked(id)
            if ended { return .runEnded(delivered: taken) }
            return taken ? .deliveredNotAcknowledged : .withdrawnUndelivered
        }
    }

    /// The run ended (its program exited, the server is stopping): every wait for an acknowledgement ends now, with
    /// ``AckWait/runEnded(delivered:)``, as does each one begun later (its sender is answered, never left to a
    /// closed connection).
    package func endRun() {
        lock.withLock {
            ended = true
            lock.broadcast()
        }
    }

    /// How a wait for an acknowledgement ended.
    package enum AckWait: Equatable {
        /// The program acknowledged it with this reply.
        case acknowledged(String)
        /// The program took the message and did not acknowledge it in time: it may have acted on it; its late
        /// acknowledgement is a 409.
        case deliveredNotAcknowledged
        /// The program never took it: it is withdrawn, never delivered now.
        case withdrawnUndelivered
        /// The run ended before the program acknowledged it (``endRun()``); `delivered`: the program had taken it.
        case runEnded(delivered: Bool)
    }

    /// Withdraws message `id` unless it was acknowledged (a step that gave up on it): never delivered after, its late
    /// acknowledgement a 409.
    package func withdraw(_ id: Int) {
        lock.withLock { if acks[id] == nil { withdrawLocked(id) } }
    }

    private func withdrawLocked(_ id: Int) {
        if let index = messages.firstIndex(where: { $0.id == id }) {
            queueBytes -= messages.remove(at: index).text.utf8.count
        }
        delivered.remove(id)
        inFlight.remove(id)
        withdrawn.insert(id)
    }
}

/// Why a control message was not queued for the program under test.
package enum ControlQueueError: Error, Equatable, CustomStringConvertible {
    /// `limit` messages already wait unread (a program that never reads).
    case full(limit: Int)
    /// Messages of `limit` bytes in all wait unread.
    case fullBytes(limit: Int)
    /// The message is larger than the channel carries.
    case tooLarge(bytes: Int, limit: Int)

    package var description: String {
        switch self {
        case .full(let limit): "\(limit) control messages wait unread; is the program reading them?"
        case .fullBytes(let limit): "\(limit >> 20) MiB of control messages wait unread; is the program reading them?"
        case .tooLarge(let bytes, let limit): "the control message is \(bytes) bytes; the channel carries at most \(limit)"
        }
    }
}
