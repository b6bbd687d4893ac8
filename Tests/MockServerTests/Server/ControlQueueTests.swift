import Foundation
import Testing

@testable import MockServer

/// The control queue on its own: messages taken in order with their ids, a waiting receiver woken by a
/// sender on another thread, delivery and acknowledgement waits, and its bounds.
@Suite struct ControlQueueTests {
    @Test func messagesAreTakenInOrderWithTheirIds() throws {
        let queue = ControlQueue()
        #expect(queue.next(timeoutMs: 0) == nil)
        #expect(try queue.enqueue("one").get() == 1)
        #expect(try queue.enqueue("two").get() == 2)
        #expect(!queue.waitForDelivery(1, timeoutMs: 0))
        #expect(queue.next(timeoutMs: 0).map { "\($0.id) \($0.text)" } == "1 one")
        #expect(queue.waitForDelivery(1, timeoutMs: 0))
        #expect(queue.next(timeoutMs: 0).map { "\($0.id) \($0.text)" } == "2 two")
    }

    @Test func aWaitingReceiverIsWokenBySenderOnAnotherThread() {
        let queue = ControlQueue()
        let sender = Thread {
            usleep(50_000)
            _ = queue.enqueue("late")
        }
        sender.start()
        let started = Date()
        #expect(queue.next(timeoutMs: 5_000)?.text == "late")
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func acknowledgementsCarryRepliesAndOnlyForSentIds() {
        let queue = ControlQueue()
        #expect(queue.acknowledge(1, reply: "nothing was sent") == .neverSent)
        let id = (try? queue.enqueue("refresh").get()) ?? 0
        #expect(queue.waitForAcknowledgement(id, timeoutMs: 0) == nil)
        #expect(queue.acknowledge(id, reply: "not read yet") == .notDelivered)
        #expect(queue.next(timeoutMs: 0)?.id == id)
        let program = Thread {
            usleep(20_000)
            _ = queue.acknowledge(id, reply: "done")
        }
        program.start()
        #expect(queue.waitForAcknowledgement(id, timeoutMs: 5_000) == "done")
        #expect(queue.acknowledge(id, reply: "again") == .alreadyAcknowledged)
        #expect(queue.waitForAcknowledgement(id, timeoutMs: 0) == "done")
    }

    /// R4a-4: a message whose sender was told 504 is withdrawn: never delivered after, and its late ack is refused.
    @Test func aMessageWhoseSenderGaveUpIsWithdrawn() throws {
        let queue = ControlQueue()
        let unread = try queue.enqueue("unread").get()
        #expect(queue.waitForAcknowledgementOrWithdraw(unread, timeoutMs: 10) == .withdrawnUndelivered)
        let next = try queue.enqueue("next").get()
        #expect(queue.next(timeoutMs: 0)?.id == next) // the withdrawn one is never delivered
        #expect(queue.acknowledge(unread, reply: "late") == .withdrawn)
        // Delivered, not acknowledged in time.
        #expect(queue.waitForAcknowledgementOrWithdraw(next, timeoutMs: 10) == .deliveredNotAcknowledged)
        #expect(queue.acknowledge(next, reply: "late") == .withdrawn)
    }

    @Test func theQueueIsBounded() {
        let queue = ControlQueue()
        let large = String(repeating: "x", count: ControlQueue.messageLimit + 1)
        #expect(queue.enqueue(large) == .failure(.tooLarge(bytes: large.utf8.count, limit: ControlQueue.messageLimit)))
        for index in 0..<ControlQueue.queueLimit { _ = queue.enqueue("m\(index)") }
        #expect(queue.enqueue("one too many") == .failure(.full(limit: ControlQueue.queueLimit)))
        // Acknowledgements keep the latest ackLimit.
        for id in 1...(ControlQueue.ackLimit + 1) {
            #expect(queue.next(timeoutMs: 0)?.id == id)
            #expect(queue.acknowledge(id, reply: "r\(id)") == nil)
        }
        #expect(queue.waitForAcknowledgement(1, timeoutMs: 0) == nil)
        #expect(queue.waitForAcknowledgement(ControlQueue.ackLimit + 1, timeoutMs: 0) == "r\(ControlQueue.ackLimit + 1)")
    }
}
