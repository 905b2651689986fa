import LinkMatching
import LinkResolution

/// The decision stage of a choices store that could not be opened: every resolution stands without remembered
/// choices and carries the notice ``ChoicesStore/choicesUnreadable`` with ``message`` (and is not kept by a cache),
/// so a broken store is said, not fatal (the CLI's `resolve`, `explain` and batch, for the store they were given).
public struct UnreadableChoicesStore: OpeningDecisionStage {
    /// What the notice says: which store and why, as the front end that opened it words it.
    public let message: String

    /// Creates the stage for a store that could not be opened.
    public init(message: String) {
        self.message = message
    }

    /// `choices:unreadable`.
    public var identity: String { "choices:unreadable" }

    /// Adds the notice; the answer cannot be kept.
    public func decide(_ resolution: inout Resolution, _ context: DecisionContext) -> Cacheability {
        resolution.notices.append(ResolutionNotice(code: ChoicesStore.choicesUnreadable, message: message))
        return .uncacheable(reason: "the choices store cannot be read")
    }
}
