import Foundation
import ProcessEngine
import Testing

/// A crash signal sent with kill ends a run as SIGTERM does (SignalsEndToEndTests); a real fault must still
/// crash, through the handler that was there before (the Swift runtime's backtracer) or the default action.
@Suite struct SignalForwarderTests {
    @Test func aRealFaultStillCrashes() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            SignalForwarder.blockSignalsInThisProcess()
            UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
        }
    }

    @Test func abortStillCrashes() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            SignalForwarder.blockSignalsInThisProcess()
            abort()
        }
    }

    @Test func aTrapStillCrashes() async {
        await #expect(processExitsWith: .signal(SIGILL)) {
            SignalForwarder.blockSignalsInThisProcess()
            let values = [Int]()
            let index = Int(ProcessInfo.processInfo.processIdentifier) // never a valid index
            _ = values[index]
        }
    }
}
