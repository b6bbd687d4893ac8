#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's elementary functions, for the few places that draw from a distribution.
package enum Math {
    package static func exp(_ value: Double) -> Double { cExp(value) }
    package static func log(_ value: Double) -> Double { cLog(value) }
    package static func cos(_ value: Double) -> Double { cCos(value) }
}

// The C functions under names that do not clash with the wrappers above.
private func cExp(_ value: Double) -> Double { exp(value) }
private func cLog(_ value: Double) -> Double { log(value) }
private func cCos(_ value: Double) -> Double { cos(value) }
