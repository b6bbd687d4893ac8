import MockServer
import ProcessEngine

// Control messages sent by steps: delivered, then acknowledged, each within the step's wait limit.

/// Queues a control message and waits (the step's wait limit) until the program took it: a message the
/// program did not get (queue full, too large, the program gone or not reading) fails the step. Its id.
func deliver(_ run: ScenarioRun, _ message: String) throws(StepFailure) -> Int {
    let server = try run.requireServer()
    let process = try run.requireProcess()
    let id: Int
    switch server.enqueueControlMessage(message) {
    case .success(let queued): id = queued
    case .failure(let problem): throw StepFailure("control message \"\(message.prefix(80))\" not sent: \(problem)")
    }
    let budget = run.waitBudget()
    let deadline = ContinuousClock.now + budget.limit
    // Wake often enough to see the program end (then the message will never be taken).
    while !server.waitForControlDelivery(of: id, timeout: .milliseconds(50)) {
        if let status = process.status, !server.waitForControlDelivery(of: id, timeout: .milliseconds(100)) {
            throw StepFailure("the program \(status) before it took the control message \"\(message.prefix(80))\"")
        }
        if ContinuousClock.now >= deadline {
            server.withdrawControlMessage(id) // the step failed on it: never delivered to a later step's program state
            let within = budget.cut.map { "before \($0)" } ?? "within \(run.stepLimitName(budget.limit))"
            throw StepFailure(
                "the program did not take the control message \"\(message.prefix(80))\" \(within); does it read ControlChannel?")
        }
    }
    return id
}

/// Sends a control message and waits (the step's wait limit) for the program to acknowledge it; its reply.
func acknowledgedReply(_ run: ScenarioRun, to message: String) throws(StepFailure) -> String {
    let server = try run.requireServer()
    let id = try deliver(run, message)
    let process = try run.requireProcess()
    if let reply = MockServerRun.waitForAcknowledgement(of: id, by: process, on: server, timeout: run.waitLimit) { return reply }
    if let status = process.status { throw StepFailure("the program \(status) before it acknowledged the control message \"\(message)\"") }
    server.withdrawControlMessage(id)
    throw StepFailure(
        "the program did not acknowledge the control message \"\(message)\" within \(run.waitDescription); does it call ControlChannel.acknowledge?"
    )
}
