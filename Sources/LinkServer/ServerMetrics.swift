import Foundation
import Synchronization

/// Request counts, latency histograms and cache figures, rendered as Prometheus text at `/metrics`.
public final class ServerMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct RouteKey: Hashable {
        var route: String
        var status: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var total = 0
    }

    private struct State {
        var requests: [RouteKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var reloads: [String: Int] = [:]
        var counters: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Creates empty metrics.
    public init() {}

    /// Records one answered request.
    public func record(route: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[RouteKey(route: route, status: status), default: 0] += 1
            var histogram = state.latency[route] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.total += 1
            state.latency[route] = histogram
        }
    }

    /// Records a reload outcome (`accepted`, `rejected`, `unchanged`).
    public func recordReload(_ outcome: String) {
        state.withLock { $0.reloads[outcome, default: 0] += 1 }
    }

    /// Adds to a named counter (for example cache hits).
    public func increment(_ name: String, by amount: Int = 1) {
        state.withLock { $0.counters[name, default: 0] += amount }
    }

    /// The Prometheus text exposition.
    public func render(generation: Int) -> String {
        state.withLock { state in
            var lines: [String] = []
            lines.append("# HELP switchyard_requests_total HTTP requests answered, by route and status.")
            lines.append("# TYPE switchyard_requests_total counter")
            for (key, count) in state.requests.sorted(by: {
                ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status)
            }) {
                lines.append("switchyard_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(count)")
            }
            lines.append("# HELP switchyard_request_duration_seconds Time to answer a request, by route.")
            lines.append("# TYPE switchyard_request_duration_seconds histogram")
            for (route, histogram) in state.latency.sorted(by: { $0.key < $1.key }) {
                for (index, bound) in Self.buckets.enumerated() {
                    lines.append(
                        "switchyard_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(histogram.counts[index])"
                    )
                }
                lines.append(
                    "switchyard_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.total)"
                )
                lines.append("switchyard_request_duration_seconds_sum{route=\"\(route)\"} \(histogram.sum)")
                lines.append("switchyard_request_duration_seconds_count{route=\"\(route)\"} \(histogram.total)")
            }
            lines.append("# HELP switchyard_rule_reloads_total Rule set reload attempts, by outcome.")
            lines.append("# TYPE switchyard_rule_reloads_total counter")
            for (outcome, count) in state.reloads.sorted(by: { $0.key < $1.key }) {
                lines.append("switchyard_rule_reloads_total{outcome=\"\(outcome)\"} \(count)")
            }
            lines.append("# HELP switchyard_rule_set_generation Rule sets accepted since start.")
            lines.append("# TYPE switchyard_rule_set_generation gauge")
            lines.append("switchyard_rule_set_generation \(generation)")
            for (name, value) in state.counters.sorted(by: { $0.key < $1.key }) {
                lines.append("# TYPE switchyard_\(name) counter")
                lines.append("switchyard_\(name) \(value)")
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
