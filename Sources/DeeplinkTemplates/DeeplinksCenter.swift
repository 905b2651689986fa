import Foundation
import Synchronization

/// Tries registered templates in order and runs the handler of the first that matches and accepts: a handler
/// returning `false` lets the next template try.
///
/// A center can be shared between tasks and threads: registering and parsing may happen concurrently, handlers are
/// `@Sendable`, and a registration's initial value is `Sendable` because each attempt starts from a copy of it.
public final class DeeplinksCenter: Sendable {
    private let registrations: Mutex<[DeeplinkRegistration]>

    /// An empty center.
    public init() {
        registrations = Mutex([])
    }

    /// A center declared with the result builder.
    public init(@DeeplinksBuilder _ build: () -> [DeeplinkRegistration]) {
        registrations = Mutex(build())
    }

    /// Registers a template, the value its arguments are written into, and the handler.
    @discardableResult
    public func register<Value: Sendable>(
        deeplink: Deeplink<Value>,
        assigningTo initial: Value,
        ifMatching handler: @escaping @Sendable (URL, Value) -> Bool
    ) -> DeeplinksCenter {
        add(DeeplinkRegistration(deeplink: deeplink, assigningTo: initial, handler: handler))
    }

    /// Registers a literal-only template.
    @discardableResult
    public func register(
        deeplink: Deeplink<Void>,
        ifMatching handler: @escaping @Sendable (URL) -> Bool
    ) -> DeeplinksCenter {
        add(DeeplinkRegistration(deeplink: deeplink, assigningTo: (), handler: { url, _ in handler(url) }))
    }

    private func add(_ registration: DeeplinkRegistration) -> DeeplinksCenter {
        registrations.withLock { $0.append(registration) }
        return self
    }

    /// Handles `url` with the first template that matches and whose handler accepts it. Throws when none does,
    /// listing why each template did not match.
    @discardableResult
    public func parse(url: URL) throws(DeeplinkError) -> Bool {
        // Handlers run outside the lock, so one that registers another template cannot deadlock the center.
        let current = registrations.withLock { $0 }
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
public struct DeeplinkRegistration: Sendable {
    enum Attempt {
        case handled
        case declined
        case failed(DeeplinkError)
    }

    let pattern: String
    let attempt: @Sendable (URL) -> Attempt

    init<Value: Sendable>(
        deeplink: Deeplink<Value>,
        assigningTo initial: Value,
        handler: @escaping @Sendable (URL, Value) -> Bool
    ) {
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

extension Deeplink where Value: Sendable {
    /// A registration writing into `initial`.
    public func callAsFunction(
        assigningTo initial: Value,
        _ handler: @escaping @Sendable (URL, Value) -> Bool
    ) -> DeeplinkRegistration {
        DeeplinkRegistration(deeplink: self, assigningTo: initial, handler: handler)
    }
}

extension Deeplink where Value: DefaultInitializable & Sendable {
    /// A registration writing into `Value()`.
    public func callAsFunction(_ handler: @escaping @Sendable (URL, Value) -> Bool) -> DeeplinkRegistration {
        DeeplinkRegistration(deeplink: self, assigningTo: Value(), handler: handler)
    }
}

extension Deeplink where Value == Void {
    /// A registration for a literal-only template.
    public func callAsFunction(_ handler: @escaping @Sendable (URL) -> Bool) -> DeeplinkRegistration {
        DeeplinkRegistration(deeplink: self, assigningTo: (), handler: { url, _ in handler(url) })
    }
}
