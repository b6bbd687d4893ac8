import ProcessEngine
import Scenarios
import Testing
import XCTest

/// Reports a failure at the caller's location to whichever framework runs the test: Swift Testing when a
/// test is current, XCTest otherwise. The message gets the step trail and the programs' last output lines.
public func recordAutomationIssue(
    _ message: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) {
    var text = message
    if let scope = AutomationScope.current {
        let context = scope.failureContext
        if !context.isEmpty { text += "\n" + context }
    }
    if Mocks.wereUsed { text += "\n(mock data seed \(Mocks.seed); set Mocks.seed = \(Mocks.seed) to repeat this run)" }
    if Test.current != nil {
        let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        Issue.record(Comment(rawValue: text), sourceLocation: location)
    } else {
        XCTFail(text, file: filePath, line: line)
    }
}
