import ArgumentParser
import LinkResolver

/// The one way a number option says the range it takes, with the value given: `--port takes a whole number from 0 to
/// 65535 (0: any free port), not "70000"`, a usage error (status 2). `ResolveRequestError` words the request's own
/// fields (`--timeout`) the same way.
enum OptionRange {
    /// Throws unless `value` is in `range`; `unit` is what the option counts (`a whole number`, `whole seconds`) and
    /// `note` what a bound means (` (0: any free port)`).
    static func check(
        _ value: Int,
        in range: ClosedRange<Int>,
        option: String,
        unit: String = "a whole number",
        note: String = ""
    ) throws {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) takes \(unit) from \(range.lowerBound) to \(range.upperBound)\(note), not \"\(value)\""
            )
        }
    }

    /// Throws unless `value` is a finite number of seconds in `range`.
    static func check(seconds value: Double, in range: ClosedRange<Double>, option: String) throws {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError(
                "\(option) takes seconds, at least \(text(range.lowerBound)) and at most \(text(range.upperBound)), not \"\(text(value))\""
            )
        }
    }

    /// Throws unless `value` is a finite number in `range`.
    static func check(_ value: Double, in range: ClosedRange<Double>, option: String) throws {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError(
                "\(option) takes a number from \(text(range.lowerBound)) to \(text(range.upperBound)), not \"\(text(value))\""
            )
        }
    }

    /// A number as a person writes it (`0`, `0.05`, `nan`).
    private static func text(_ value: Double) -> String { ResolveRequest.text(value) }
}
