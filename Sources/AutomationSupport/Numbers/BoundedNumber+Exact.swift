import DecimalLiterals

extension BoundedNumber {
    /// Why the decimal `text`, read as `number`, would not arrive as written (more digits than a Double keeps:
    /// `80.000000000000000000001` reads as 80), or nil. The project's one number rule (``DecimalLiteral``), for an
    /// option whose value is compared with a measured number, as `--coverage-threshold` is.
    package static func roundingProblem(_ text: some StringProtocol, reads number: Double) -> String? {
        DecimalLiteral.roundingProblem(String(text), reads: number)
    }
}
