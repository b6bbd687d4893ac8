import MockServer
public import ProcessEngine
import Scenarios

#if canImport(FoundationEssentials)
import AutomationSupport
public import FoundationEssentials
#else
public import Foundation
#endif

/// A part of a URL that ``assertURLEqual(_:_:ignoring:fileID:filePath:line:column:)`` can ignore.
public enum URLComponent: String, Sendable, CaseIterable {
    case scheme, host, port, path, query, fragment
}

/// The differences between two URLs, one line each; empty when they are equal. Query parameters compare
/// as a multiset: order does not matter, repeats do.
public func urlDifferences(_ actual: URL, _ expected: URL, ignoring: Set<URLComponent> = []) -> [String] {
    let a = URLComponents(url: actual, resolvingAgainstBaseURL: false)
    let e = URLComponents(url: expected, resolvingAgainstBaseURL: false)
    var differences: [String] = []
    func compare(_ component: URLComponent, _ left: String?, _ right: String?) {
        guard !ignoring.contains(component), left != right else { return }
        differences.append("\(component.rawValue): \(left.map { "\"\($0)\"" } ?? "none") is not \(right.map { "\"\($0)\"" } ?? "none")")
    }
    compare(.scheme, a?.scheme?.lowercased(), e?.scheme?.lowercased())
    compare(.host, a?.host?.lowercased(), e?.host?.lowercased())
    compare(.port, a?.port.map(String.init), e?.port.map(String.init))
    compare(.path, a?.path, e?.path)
    compare(.fragment, a?.fragment, e?.fragment)
    if !ignoring.contains(.query) {
        let left = (a?.queryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }.sorted()
        let right = (e?.queryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }.sorted()
        if left != right {
            let missing = right.filter { item in left.filter { $0 == item }.count < right.filter { $0 == item }.count }
            let extra = left.filter { item in right.filter { $0 == item }.count < left.filter { $0 == item }.count }
            differences.append(
                "query: " + (missing.isEmpty ? "" : "missing \(Set(missing).sorted().joined(separator: "&"))")
                    + (missing.isEmpty || extra.isEmpty ? "" : ", ")
                    + (extra.isEmpty ? "" : "unexpected \(Set(extra).sorted().joined(separator: "&"))"))
        }
    }
    return differences
}

/// What `server`'s journal dropped, when it dropped any: no assertion can then say a request did not come.
private func droppedRequests(_ server: MockServer) -> String? {
    let journal = server.journal
    guard journal.dropped > 0 else { return nil }
    return "the journal dropped \(journal.dropped) of \(journal.count + journal.dropped) requests (it keeps at most "
        + "\(journal.limit) entries)"
}

/// Asserts two URLs are equal but for the ignored components; query order does not matter.
public func assertURLEqual(
    _ actual: URL, _ expected: URL, ignoring: Set<URLComponent> = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let differences = urlDifferences(actual, expected, ignoring: ignoring)
    guard !differences.isEmpty else { return }
    recordAutomationIssue(
        "URLs differ: \(actual.absoluteString) vs \(expected.absoluteString)\n  " + differences.joined(separator: "\n  "),
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts the server received requests to `route` (`"GET /cities"`, templates allowed): `times` exactly,
/// or at least once when `times` is nil.
public func assertReceived(
    _ server: MockServer, _ route: String, times: Int? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let count = server.requests(to: route).count
    if times == nil, count > 0 { return }
    // A count of what the journal kept is not the count of what came (r12 R12-9's class): never a pass, never "got N".
    if let dropped = droppedRequests(server) {
        return recordAutomationIssue(
            "cannot count requests to \(route): \(dropped)", fileID: fileID, filePath: filePath, line: line, column: column)
    }
    if let times, count == times { return }
    recordAutomationIssue(
        "expected \(times.map { "\($0)" } ?? "at least 1") request\(times == 1 ? "" : "s") to \(route), got \(count)\n" + seen(server),
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts some request to `route` had a JSON body including `json` (extra members allowed).
public func assertReceived(
    _ server: MockServer, _ route: String, jsonBodyIncluding json: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    guard let expected = try? JSONParser.parse(json) else {
        return recordAutomationIssue(
            "the expected body is not JSON: \(json)", fileID: fileID, filePath: filePath, line: line, column: column)
    }
    if expected.includesNothing { // `{}`, `{"items": []}`: included in any body, so the assertion could never fail
        return recordAutomationIssue(
            "the expected body \(json) names no value: an empty object or array is included in any (the body is matched as a "
                + "subset), so this assertion could never fail; name a member with its value", fileID: fileID, filePath: filePath,
            line: line, column: column)
    }
    let requests = server.requests(to: route)
    if requests.contains(where: { (try? JSONParser.parse($0.body)).map { RequestMatching.jsonIncludes(expected, $0) } ?? false }) { return }
    if let dropped = droppedRequests(server) { // one that had it may be among them (r12 R12-9: "(none)")
        return recordAutomationIssue(
            "cannot tell whether a request to \(route) had a JSON body including \(json): \(dropped)", fileID: fileID,
            filePath: filePath, line: line, column: column)
    }
    let bodies = requests.map { "  " + $0.bodyText }.joined(separator: "\n")
    recordAutomationIssue(
        "no request to \(route) had a JSON body including \(json)\nbodies received:\n\(bodies.isEmpty ? "  (none)" : bodies)",
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts requests to these routes came in this order (others may come between).
public func assertReceivedInOrder(
    _ server: MockServer, _ routes: [String],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    var index = 0
    for request in server.requests where index < routes.count {
        if RouteKey(routes[index]).matches(request) { index += 1 }
    }
    guard index < routes.count else { return }
    recordAutomationIssue(
        "expected requests in this order: \(routes.joined(separator: ", ")); \(routes[index]) did not follow\n" + seen(server),
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts these texts appear in the output in this order (each after the one before).
public func assertOutputInOrder(
    _ app: SUTApplication, _ texts: [String], on stream: StandardStream = .stdout,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let output = app.output(stream)
    var searchFrom = output.startIndex
    for (position, text) in texts.enumerated() {
        guard let range = output[searchFrom...].firstRange(of: text) else {
            let order = texts.compactMap { text in output.firstRange(of: text).map { (text, $0.lowerBound) } }
                .sorted { $0.1 < $1.1 }.map { "\"\($0.0)\"" }
            recordAutomationIssue(
                "expected on \(stream.rawValue) in this order: \(texts.map { "\"\($0)\"" }.joined(separator: ", ")); "
                    + "\"\(text)\" (#\(position + 1)) did not follow; order seen: \(order.isEmpty ? "none of them" : order.joined(separator: ", "))",
                fileID: fileID, filePath: filePath, line: line, column: column)
            return
        }
        searchFrom = range.upperBound
    }
}

/// Asserts no request reached the server that no route matched **so far**: it judges at once (after the server has
/// answered what is in its sockets, up to 2 s), so a program still running may send an unexpected request after
/// it passed. For a program's whole run, use ``assertNoUnexpectedRequests(_:after:timeout:fileID:filePath:line:column:)``.
public func assertNoUnexpectedRequests(
    _ server: MockServer,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    server.settle() // a request a program sent just before it ended may still sit in a socket
    let unexpected = server.unexpectedRequestDescriptions
    guard !unexpected.isEmpty else { return }
    recordAutomationIssue(
        "unexpected requests:\n" + unexpected.joined(separator: "\n"),
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts no request that `app` sent in its whole run reached the server unmatched: waits for the program to
/// end (up to `timeout`, the application's default when nil), lets the server answer what is still in its
/// sockets, then judges. A program still running at the deadline (or never launched) is an issue of its own, as
/// requests it may still send could not be judged; the requests seen so far are judged too.
public func assertNoUnexpectedRequests(
    _ server: MockServer, after app: SUTApplication, timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async {
    do {
        _ = try await app.waitForExit(timeout: timeout)
    } catch {
        recordAutomationIssue(
            "the whole run could not be judged for unexpected requests: \(error)",
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
    assertNoUnexpectedRequests(server, fileID: fileID, filePath: filePath, line: line, column: column)
}

private func seen(_ server: MockServer) -> String {
    let requests = server.requests
    return "requests seen, in order:"
        + (requests.isEmpty ? " none" : "\n" + requests.map { "  \($0.method) \($0.target)" }.joined(separator: "\n"))
}

/// Asserts `text` matches the snapshot `name`, stored beside the test file in
/// `__snapshots__/TEST-FILE-NAME/NAME.txt` (trycmd's `[..]` and `...` allowed in it). A missing or different
/// snapshot fails with a diff; `SUT_UPDATE_SNAPSHOTS=1` writes what the test saw instead, except on a CI (`CI`,
/// `JENKINS_URL`, `TEST_SRCDIR`... set: the same rules as `sut-launch test --update-snapshots`).
public func assertSnapshot(
    of text: String, named name: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    if let problem = Snapshots.nameProblem(name) {
        recordAutomationIssue(problem, fileID: fileID, filePath: filePath, line: line, column: column)
        return
    }
    var written: String?
    if let failure = Snapshots.check(
        Array(text.utf8), named: name, featureFile: "\(filePath)", update: false, environment: ProcessEnvironment.current,
        updateCommand: "SUT_UPDATE_SNAPSHOTS=1 swift test", written: &written)
    {
        recordAutomationIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Asserts a file exists (relative paths: in the test's ``ScratchSpace``) and, when given, contains `text`.
public func assertFile(
    _ path: String, contains text: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let resolved = path.hasPrefix("/") ? path : (try? AutomationScope.current?.scratch.path(path)) ?? path
    guard let bytes = FileManager.default.contents(atPath: resolved) else {
        recordAutomationIssue(
            "\(path): no such file (looked at \(resolved))", fileID: fileID, filePath: filePath, line: line, column: column)
        return
    }
    if let text, !String(decoding: bytes, as: UTF8.self).contains(text) {
        recordAutomationIssue(
            "\(path) does not contain \"\(text)\"; it holds:\n\(String(decoding: bytes.prefix(2000), as: UTF8.self))",
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
