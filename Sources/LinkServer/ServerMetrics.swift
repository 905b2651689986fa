import HTTPTypes
import Prometheus

/// The server's metrics in a Prometheus registry of its own (never the process-wide default, so two servers in one
/// process keep separate figures), rendered as Prometheus text at `/metrics`.
///
/// The names are what `scripts/loadtest`, `scripts/hostile-loadtest` and `scripts/hostile-sender.py` read:
/// `switchyard_requests_total{route,status}`, `switchyard_request_duration_seconds{route}` (a histogram),
/// `switchyard_rule_reloads_total{outcome}`, `switchyard_rule_set_generation`, and one
/// `switchyard_connections_refused_<reason>_total` counter per ``ConnectionRefusal``.
package final class ServerMetrics: Sendable {
    /// The registry every metric of this server lives in.
    package let registry = PrometheusCollectorRegistry()
    private let generation: Gauge

    /// Upper bounds of the latency buckets.
    static let latencyBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Creates the metrics, with the reload counters at zero.
    package init() {
        generation = registry.makeGauge(descriptor: Self.generationName)
        for outcome in ReloadOutcome.allCases { _ = reloadCounter(outcome) }
    }

    /// The Prometheus text exposition.
    package func exposition() -> [UInt8] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }

    /// Records one answered request.
    func recordRequest(route: String, status: HTTPResponse.Status, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requestsName,
            labels: [("route", route), ("status", String(status.code))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.durationName,
            labels: [("route", route)],
            buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// Records a reload attempt.
    func recordReload(_ outcome: ReloadOutcome) {
        reloadCounter(outcome).increment()
    }

    /// Sets the number of the rule-set generation now serving.
    func recordGeneration(_ number: Int) {
        generation.set(Double(number))
    }

    /// Counts a connection refused before routing.
    func recordRefusal(_ reason: ConnectionRefusal) {
        registry.makeCounter(descriptor: Self.refusalsName(reason)).increment()
    }

    private func reloadCounter(_ outcome: ReloadOutcome) -> Counter {
        registry.makeCounter(descriptor: Self.reloadsName, labels: [("outcome", outcome.rawValue)])
    }

    // The metric names and help texts (a registry refuses two help texts for one name).

    private static var requestsName: MetricNameDescriptor {
        .init(
            namespace: "switchyard",
            metricName: "requests",
            unitName: "total",
            helpText: "HTTP requests answered, by route and status."
        )
    }

    private static var durationName: MetricNameDescriptor {
        .init(
            namespace: "switchyard",
            metricName: "request_duration",
            unitName: "seconds",
            helpText: "Time to answer a request, by route."
        )
    }

    private static var reloadsName: MetricNameDescriptor {
        .init(
            namespace: "switchyard",
            metricName: "rule_reloads",
            unitName: "total",
            helpText: "Rule set reload attempts, by outcome."
        )
    }

    private static var generationName: MetricNameDescriptor {
        .init(
            namespace: "switchyard",
            metricName: "rule_set_generation",
            unitName: "",
            helpText: "The number of the rule set serving (1 for the initial one, one more per accepted reload)."
        )
    }

    private static func refusalsName(_ reason: ConnectionRefusal) -> MetricNameDescriptor {
        .init(
            namespace: "switchyard",
            metricName: "connections_refused_\(reason.rawValue)",
            unitName: "total",
            helpText: "Connections refused before routing (\(reason.rawValue))."
        )
    }
}

/// How a reload attempt ended.
enum ReloadOutcome: String, CaseIterable {
    /// The new rules serve.
    case accepted
    /// The new rules were refused; the previous ones keep serving.
    case rejected
}
