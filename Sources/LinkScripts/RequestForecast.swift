import Foundation
import Synchronization
import WebLinks

/// Learns, for each script, how the first URL it asks for follows from its input, so that a runner can fetch that
/// answer before the script's first run instead of after it (``ScriptConfiguration/predictsRequests``).
///
/// A script that calls `jsonRequest` runs once to find out what it asks for, stops there, and runs again with the
/// answer (``ScriptRunner/run(_:input:network:deadline:)``): on links never seen before, two runs of every such
/// script, and the second only after the first. Most scripts ask for `'https://api…?url=' + encodeURIComponent(url)`
/// or the like, so the first run is predictable from the input. The forecast keeps, per script, every rule of the
/// form `PREFIX + T(input) + SUFFIX` (T: the input itself, `encodeURIComponent` or `encodeURI`) that explains each run
/// seen since the last surprise, and predicts only once `confirmations` runs in a row agreed and every rule left gives
/// the same URL. A script that asked for something else, or for nothing, is a surprise: its rules start again, and it
/// is not predicted until it has been consistent again for twice as long as the last time.
///
/// A prediction decides nothing about a result: the script still runs and asks for what it asks for, and only the
/// answers it asked for count (for its output and for how long the answer may be kept). A wrong one costs one request
/// whose answer is not used.
final class RequestForecast: Sendable {
    /// How a URL is made from an input.
    struct Rule: Hashable {
        enum Transform: Hashable, CaseIterable {
            case itself
            case component
            case uri
        }

        let prefix: String
        let transform: Transform
        let suffix: String

        func url(for input: String) -> String {
            let middle =
                switch transform {
                case .itself: input
                case .component: JavaScriptEncoding.encodeURIComponent(input)
                case .uri: JavaScriptEncoding.encodeURI(input)
                }
            return prefix + middle + suffix
        }

        /// Every rule that makes `url` from `input` (the transformed input found in the URL, at its first place).
        static func explaining(_ url: String, from input: String) -> [Rule] {
            var rules: [Rule] = []
            for transform in Transform.allCases {
                let middle = Rule(prefix: "", transform: transform, suffix: "").url(for: input)
                guard !middle.isEmpty, let range = url.range(of: middle) else { continue }
                rules.append(
                    Rule(
                        prefix: String(url[..<range.lowerBound]),
                        transform: transform,
                        suffix: String(url[range.upperBound...])
                    )
                )
            }
            return rules
        }
    }

    private struct Record {
        var rules: [Rule] = []
        var streak = 0
        /// Runs its rules did not explain: each doubles the streak the next forecast needs (up to 1,024 times), so a
        /// script that is inconsistent now and then wastes a request at most once per doubling.
        var surprises = 0

        func isCertain(_ confirmations: Int) -> Bool {
            streak >= confirmations << min(surprises, 10)
        }
    }

    /// Runs in a row a script's rules must have explained before it is predicted.
    let confirmations: Int
    /// The records of the scripts followed, at most `capacity` (the least recently used are dropped beyond).
    private let records: Mutex<LRUStore<Int, Record>>

    init(confirmations: Int = 3, capacity: Int = 4096) {
        self.confirmations = confirmations
        records = Mutex(LRUStore(capacity: max(1, capacity)))
    }

    /// The URL `script` will ask for first on `input`, when its runs so far make it certain enough.
    func predict(script: Int, input: String) -> String? {
        guard
            let rules = records.withLock({ records -> [Rule]? in
                guard let record = records.value(for: script), record.isCertain(confirmations) else { return nil }
                return record.rules
            })
        else { return nil }
        let urls = Set(rules.map { $0.url(for: input) })
        return urls.count == 1 ? urls.first : nil
    }

    /// What a finished run of `script` on `input` asked for first (nil: nothing).
    func observe(script: Int, input: String, firstRequest: String?) {
        records.withLock { records in
            var record = records.peek(script) ?? Record()
            let explained = firstRequest.map { url in record.rules.filter { $0.url(for: input) == url } } ?? []
            if !explained.isEmpty {
                record.rules = explained
                record.streak += 1
            } else {
                if record.streak > 0 { record.surprises += 1 }
                record.rules = firstRequest.map { Rule.explaining($0, from: input) } ?? []
                record.streak = record.rules.isEmpty ? 0 : 1
            }
            records.insert(record, for: script, cost: 1)
        }
    }
}
