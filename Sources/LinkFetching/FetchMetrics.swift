import CoreMetrics
import Synchronization
import WebLinks

/// The fetching layer's metrics per upstream host, through any swift-metrics factory (the server passes its
/// Prometheus one).
///
/// | metric | dimensions | counts |
/// |---|---|---|
/// | `switchyard_fetch_requests_total` | `host` | requests sent upstream (after the cache, coalescing and politeness) |
/// | `switchyard_fetch_responses_total` | `host`, `class` (`2xx`…) | responses received upstream, by status class |
/// | `switchyard_fetch_failures_total` | `host`, `code` | upstream requests that failed (``FetchError/Code``) |
/// | `switchyard_fetch_cache_total` | `host`, `status` | cache answers by ``CacheStatus`` |
/// | `switchyard_fetch_coalesced_total` | `host` | callers that joined an identical request in flight |
/// | `switchyard_fetch_backoffs_total` | `host` | times a host asked to be left alone (`Retry-After`) |
/// | `switchyard_fetch_backed_off_total` | `host` | requests refused without sending because of a back-off |
/// | `switchyard_fetch_in_flight` | `host` | requests to the host in progress now (a gauge) |
/// | `switchyard_fetch_host_down` | `host` | 1 while the host is taken for down, 0 once it is up again (a gauge) |
/// | `switchyard_fetch_host_downs_total` | `host` | times the host was taken for down (first failures, failed probes) |
/// | `switchyard_fetch_down_refused_total` | `host` | requests refused without sending while the host is down |
/// | `switchyard_fetch_probes_total` | `host` | requests sent to a down host to test whether it is back |
///
/// Hosts come from links anyone can send, so their number is bounded: after ``maxHosts`` distinct hosts, the rest
/// are counted together as `other`, and a metrics backend never grows without limit.
public final class FetchMetrics: Sendable {
    /// The `host` of the hosts beyond ``maxHosts``.
    public static let otherHosts = "other"

    private let factory: any MetricsFactory
    /// The most distinct hosts given their own series.
    public let maxHosts: Int
    private let state = Mutex<State>(State())

    private struct State {
        var hosts: Set<String> = []
        var counters: [String: Counter] = [:]
        var gauges: [String: Gauge] = [:]
    }

    /// Metrics through `factory` (the process's `MetricsSystem.factory` when the value is made, by default).
    public init(factory: any MetricsFactory = MetricsSystem.factory, maxHosts: Int = 256) {
        self.factory = factory
        self.maxHosts = max(1, maxHosts)
    }

    /// The `host` dimension of `link`: its host, with the port when it is not the scheme's default.
    package static func host(of link: Link) -> String {
        link.port.map { "\(link.hostName):\($0)" } ?? link.hostName
    }

    package func requestSent(to link: Link) { count("switchyard_fetch_requests_total", link) }

    package func received(_ status: Int, from link: Link) {
        let statusClass = (100...599).contains(status) ? "\(status / 100)xx" : "other"
        count("switchyard_fetch_responses_total", link, ("class", statusClass))
    }

    package func failed(_ error: FetchError, for link: Link) {
        count("switchyard_fetch_failures_total", link, ("code", error.code.rawValue))
    }

    package func cache(_ status: CacheStatus, for link: Link) {
        count("switchyard_fetch_cache_total", link, ("status", status.rawValue))
    }

    package func coalesced(_ link: Link) { count("switchyard_fetch_coalesced_total", link) }

    package func backedOff(_ link: Link) { count("switchyard_fetch_backoffs_total", link) }

    package func refusedWhileBackedOff(_ link: Link) { count("switchyard_fetch_backed_off_total", link) }

    package func refusedWhileDown(_ link: Link) { count("switchyard_fetch_down_refused_total", link) }

    package func probed(_ link: Link) { count("switchyard_fetch_probes_total", link) }

    package func hostDown(_ link: Link, host: String) {
        count("switchyard_fetch_host_downs_total", link)
        gauge("switchyard_fetch_host_down", host: host).record(1)
    }

    package func hostUp(host: String) { gauge("switchyard_fetch_host_down", host: host).record(0) }

    package func inFlight(_ number: Int, host: String) {
        gauge("switchyard_fetch_in_flight", host: host).record(number)
    }

    private func gauge(_ label: String, host: String) -> Gauge {
        state.withLock { state in
            let host = Self.bounded(host, in: &state.hosts, max: maxHosts)
            let key = "\(label)|\(host)"
            if let gauge = state.gauges[key] { return gauge }
            let gauge = Gauge(label: label, dimensions: [("host", host)], factory: factory)
            state.gauges[key] = gauge
            return gauge
        }
    }

    private func count(_ label: String, _ link: Link, _ extra: (String, String)? = nil) {
        let counter = state.withLock { state in
            let host = Self.bounded(Self.host(of: link), in: &state.hosts, max: maxHosts)
            let key = "\(label)|\(host)|\(extra?.1 ?? "")"
            if let counter = state.counters[key] { return counter }
            let counter = Counter(
                label: label,
                dimensions: [("host", host)] + (extra.map { [$0] } ?? []),
                factory: factory
            )
            state.counters[key] = counter
            return counter
        }
        counter.increment()
    }

    private static func bounded(_ host: String, in hosts: inout Set<String>, max: Int) -> String {
        if hosts.contains(host) { return host }
        guard hosts.count < max else { return otherHosts }
        hosts.insert(host)
        return host
    }
}
