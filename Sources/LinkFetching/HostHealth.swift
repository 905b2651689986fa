import Foundation

/// When a host is taken for down, and how it is tried again: the circuit a ``PoliteFetcher`` keeps per host.
///
/// A failure that says something about the host itself counts against it: one that says the host cannot be reached
/// at all (``unreachableFailures`` in a row: no DNS answer, a refused connection, a failed TLS handshake, no connection
/// within the connect time limit), or one that only suggests trouble (``troubleFailures`` in a row: a time-out after
/// waiting at least ``minimumWait`` for an answer, a `500`, `502`, `503` or `504`, a connection closed before the
/// answer). Any other answer resets the count. Once the count is reached the host is *down*: requests to it fail at
/// once with ``FetchError/Code/hostDown`` for ``firstDownTime``; then one request at a time is sent as a probe (the
/// others still fail at once) and its answer decides: up again, or down for twice as long as before, up to
/// ``maxDownTime``.
///
/// How long a request waits for a host is learned from the host too: once it has answered, a request gets
/// ``patienceFactor`` times its slowest recent answer (at least ``minimumPatience``), so a host that usually answers
/// in 50 ms and stops answering holds its callers for half a second, not for the request's whole time; the time-outs
/// then take it down. (Every request in flight when a host stops answering waits that long, one per connection a busy
/// service has open: the least patience is what the slowest answers of such a moment cost.) A host that has not answered yet gets the whole time the request has; the probes of a host that is
/// down get its patience, doubled at each failed probe.
///
/// The defaults follow what service meshes use for outlier detection (Envoy ejects a host after 5 consecutive
/// gateway errors, for a base time doubled on each ejection), with unreachable hosts taken for down at their first
/// failure: a name without an address or a port nobody listens on does not change between one request and the next.
public struct HostHealthLimits: Sendable, Hashable {
    /// Unreachable failures in a row that take a host for down. Default 1.
    public var unreachableFailures: Int
    /// Troubled answers in a row that take a host for down. Default 5.
    public var troubleFailures: Int
    /// How long a request must have waited for a host before its time-out counts against the host (a caller with
    /// little time left says nothing about the host). Default 500 ms. A request that waited the host's whole patience
    /// counts whatever this says.
    public var minimumWait: Duration
    /// How long a host is down before its first probe. Default 1 second.
    public var firstDownTime: Duration
    /// The longest a host stays down between probes. Default 1 minute.
    public var maxDownTime: Duration
    /// How many times its slowest recent answer a host is given to answer (its *patience*), once it has answered:
    /// a host that answers in 50 ms and then says nothing for a second is not answering. Default 4.
    public var patienceFactor: Double
    /// The least patience a host that has answered gets. Default 500 ms: a host whose answers lately all came within
    /// 125 ms (a quarter of it, ``patienceFactor``) and that then says nothing for half a second is taken as not
    /// answering; one whose slowest recent answer took longer gets four times that. A host that has not answered yet gets the
    /// request's whole time (up to the network policy's read time limit); a probe gets twice the patience of the
    /// probe before it, so a host that came back slower than it was is found back too.
    public var minimumPatience: Duration

    /// Creates limits; every argument defaults to the documented value.
    public init(
        unreachableFailures: Int = 1,
        troubleFailures: Int = 5,
        minimumWait: Duration = .milliseconds(500),
        firstDownTime: Duration = .seconds(1),
        maxDownTime: Duration = .seconds(60),
        patienceFactor: Double = 4,
        minimumPatience: Duration = .milliseconds(500)
    ) {
        self.unreachableFailures = max(1, unreachableFailures)
        self.troubleFailures = max(1, troubleFailures)
        self.minimumWait = max(.zero, minimumWait)
        self.firstDownTime = max(.milliseconds(1), firstDownTime)
        self.maxDownTime = max(self.firstDownTime, maxDownTime)
        self.patienceFactor = patienceFactor.isFinite && patienceFactor >= 1 ? patienceFactor : 4
        self.minimumPatience = max(.milliseconds(1), minimumPatience)
    }

    /// How long a host is down after its `openings`-th opening in a row (1 for the first).
    func downTime(opening openings: Int) -> Duration {
        let doublings = min(max(0, openings - 1), 30)
        let seconds = firstDownTime.timeInterval * Double(1 << doublings)
        return min(.clamped(seconds: seconds), maxDownTime)
    }
}

/// What one request to a host said about the host, as a ``HostHealth`` counts it.
enum HostVerdict: Equatable {
    /// An answer that says the host works (any status but a server failure).
    case fine
    /// The host could not be reached at all.
    case unreachable(String)
    /// The host answered badly or too slowly.
    case trouble(String)
    /// Nothing about the host (a refusal by the policy, a cancelled caller, a body too large).
    case neutral

    /// What `response` says about its host.
    static func of(_ response: FetchResponse) -> HostVerdict {
        [500, 502, 503, 504].contains(response.status) ? .trouble("it answered \(response.status)") : .fine
    }

    /// What `error` says about the host of a request that waited `waited` for it, under `limits`, when the host was
    /// given `patience` (nil: the request's whole time).
    static func of(
        _ error: FetchError,
        waited: Duration,
        patience: Duration? = nil,
        limits: HostHealthLimits
    ) -> HostVerdict {
        // A time-out after the host's whole patience says the host did not answer, however short that is.
        let fairWait = min(limits.minimumWait, patience ?? limits.minimumWait)
        return switch error.code {
        case .unresolvableHost: .unreachable("its name does not resolve")
        case .connectionRefused: .unreachable("it refuses connections")
        case .connectTimeout: .unreachable("no connection to it could be made in time")
        case .tlsFailure: .unreachable("its TLS handshake fails")
        case .timeout: waited >= fairWait ? .trouble("it did not answer in time") : .neutral
        case .transport: .trouble("its connection failed")
        case .invalidURL, .forbiddenScheme, .forbiddenPort, .blockedAddress, .hostDown, .tooManyRedirects,
            .redirectLoop, .badLocation, .responseTooLarge, .offline, .notRecorded, .storage, .httpStatus,
            .invalidContent, .backedOff:
            .neutral
        }
    }
}

/// One host's circuit: failures in a row, whether it is down and since when it may be probed, and whether a probe
/// is out. A value inside ``HostTable``'s lock.
struct HostHealth {
    /// Failures in a row that count against the host.
    var failures = 0
    /// Times in a row the host was taken for down (its down time doubles with each).
    var openings = 0
    /// Why the host is down; nil while it is up.
    var downReason: String?
    /// Whether a probe request is out.
    var probing = false
    /// The time its recent answers took, newest last (at most ``recentAnswers``).
    var answerTimes: [Duration] = []

    /// How many answers' times are kept.
    static let recentAnswers = 16

    /// Whether the host is taken for down.
    var isDown: Bool { downReason != nil }

    /// Whether nothing is kept for the host but its answer times (it may be forgotten).
    var isBlank: Bool { failures == 0 && !isDown && !probing }

    /// How long a request waits for the host: ``HostHealthLimits/patienceFactor`` times its slowest recent answer, at
    /// least the minimum; nil before it has answered (the request's whole time).
    func patience(_ limits: HostHealthLimits, probe: Bool = false) -> Duration? {
        guard let slowest = answerTimes.max() else { return nil }
        let patience = max(limits.minimumPatience, slowest * limits.patienceFactor)
        guard probe else { return patience }
        return patience * Double(1 << min(max(0, openings - 1), 16))
    }

    /// Notes how long an answer took.
    mutating func noteAnswer(after time: Duration) {
        answerTimes.append(time)
        if answerTimes.count > Self.recentAnswers { answerTimes.removeFirst() }
    }

    /// Counts `verdict`; returns how long the host is now down for when it was just taken for down (or a probe
    /// failed), nil otherwise.
    mutating func record(_ verdict: HostVerdict, probe: Bool, limits: HostHealthLimits) -> Duration? {
        if probe { probing = false }
        switch verdict {
        case .neutral:
            return nil
        case .fine:
            self = HostHealth(answerTimes: answerTimes)
            return nil
        case .unreachable(let reason), .trouble(let reason):
            failures += 1
            let threshold =
                if case .unreachable = verdict { limits.unreachableFailures } else { limits.troubleFailures }
            // A failure of a request sent before the host went down changes nothing; a failed probe, or the count
            // reached, takes it down (again, for longer).
            guard probe || (!isDown && failures >= threshold) else { return nil }
            openings += 1
            downReason = reason
            return limits.downTime(opening: openings)
        }
    }
}
