import Foundation

/// Tries registered templates in order and runs the handler of the first that matches and accepts: a handler
/// returning `false` lets the next template try.
public final class DeeplinksCenter: @unchecked Sendable {
    private let lock = NSLock()
    private var registrations: [DeeplinkRegistration] = []

    /// An empty center.
    public init() {}

    /// A center declared with the result builder.
    public convenience init(@DeeplinksBuilder _ build: () -> [DeeplinkRegistration]) {
        self.init()
        registrations = build()
    }

    /// Registers a template, the value its arguments are written into, and the handler.
    @discardableResult
    public func register<Value>(
        deeplink: Deeplink<Value>,
        assigningTo initial: Value,
        ifMatching handler: @escaping (URL, Value) -> Bool
    ) -> DeeplinksCenter {
        add(DeeplinkRegistration(deeplink: deeplink, assigningTo: initial, handler: handler))
    }

    /// Registers a literal-only template.
    @discardableResult
    public func register(deeplink: Deeplink<Void>, ifMatching handler: @escaping (URL) -> Bool) -> DeeplinksCenter {
        add(DeeplinkRegistration(deeplink: deeplink, assigningTo: (), handler: { url, _ in handler(url) }))
    }

    private func add(_ registration: DeeplinkRegistration) -> DeeplinksCenter {
        lock.withLock { registrations.append(registration) }
        return self
    }

    /// Handles `url` with the first template that matches and whose handler accepts it. Throws when none does,
    /// listing why each template did not match.
    @discardableResult
    public func parse(url: URL) throws(DeeplinkError) -> Bool {
        let current = lock.withLock { registrations }
        var reasons: [String] = []
        for registration in current {
            switch registration.attempt(url) {
            case .handled: return true
            case .declined: reasons.append("\(registration.pattern): the handler declined")
            case .failed(let error): reasons.append("\(registration.pattern): \(error.message)")
            }
        }
        throw DeeplinkError(
            .noMatch,
            "no template matched \(url.absoluteString)"
                + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")")
        )
    }
}

/// One template with its value and handler, as the center keeps it.
public struct DeeplinkRegistration {
    enum Attempt {
        case handled
        case declined
        case failed(DeeplinkError)
    }

    let pattern: String
    let attempt: (URL) -> Attempt

    init<Value>(deeplink: Deeplink<Value>, assigningTo initial: Value, handler: @escaping (URL, Value) -> Bool) {
        pattern = deeplink.pattern
        attempt = { url in
            var value = initial
            do throws(DeeplinkError) {
                try deeplink.parse(url, into: &value)
            } catch {
                return .failed(error)
            }
            return handler(url, value) ? .handled : .declined
        }
    }
}

/// Declares a center's templates: `DeeplinksCenter { link1 { url in … }; link2 { url, value in … } }`.
@resultBuilder
public enum DeeplinksBuilder {
    /// One registration.
    public static func buildExpression(_ registration: DeeplinkRegistration) -> [DeeplinkRegistration] {
        [registration]
    }
    /// The registrations of a block, in order.
    public static func buildBlock(_ parts: [DeeplinkRegistration]...) -> [DeeplinkRegistration] { parts.flatMap { $0 } }
    /// An `if` without `else`: its registrations, or none.
    public static func buildOptional(_ part: [DeeplinkRegistration]?) -> [DeeplinkRegistration] { part ?? [] }
    /// The `if` branch of an `if`/`else`.
    public static func buildEither(first part: [DeeplinkRegistration]) -> [DeeplinkRegistration] { part }
    /// The `else` branch of an `if`/`else`.
    public static func buildEither(second part: [DeeplinkRegistration]) -> [DeeplinkRegistration] { part }
    /// The registrations of a `for` loop, in order.
    public static func buildArray(_ parts: [[DeeplinkRegistration]]) -> [DeeplinkRegistration] { parts.flatMap { $0 } }
}

extension Deeplink {
    /// A registration writing into `initial`.
    public func callAsFunction(
        assigningTo initial: Value,
        _ handler: @escaping (URL, Value) -> Bool
    ) -> DeeplinkRegistration {
        DeeplinkRegistration(deeplink: self, assigningTo: initial, handler: handler)
    }
}

extension Deeplink where Value: DefaultInitializable {
    /// A registration writing into `Value()`.
    public func callAsFunction(_ handler: @escaping (URL, Value) -> Bool) -> DeeplinkRegistration {
        DeeplinkRegistration(deeplink: self, assigningTo: Value(), handler: handler)
    }
}

extension Deeplink where Value == Void {
    /// A registration for a literal-only template.
    public func callAsFunction(_ handler: @escaping (URL) -> Bool) -> DeeplinkRegistration {
        DeeplinkRegistration(deeplink: self, assigningTo: (), handler: { url, _ in handler(url) })
    }
}
