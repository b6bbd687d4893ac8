/// A small, fast, seedable generator (SplitMix64): the same seed gives the same values on every platform.
/// Mocks draws from it; tests use it for reproducible random inputs.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<bound (bound > 0), by modulo: fine for test inputs, not for statistics.
    package mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
