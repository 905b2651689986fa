import LinkMatching
import LinkResolver

/// Writes a test run as JUnit XML, the format CI systems (Jenkins, GitLab, GitHub reporters) read.
///
/// One `<testsuite>` per kind of case (format, script, browser, redirect), one `<testcase>` per case named by its
/// JSON pointer and input; failures carry the reason and expected/actual values, skipped cases their reason.
public enum JUnitReport {
    /// The XML document for `report`; `name` names the top-level `<testsuites>` (usually the manifest file).
    public static func xml(for report: RuleTestReport, name: String, durationSeconds: Double = 0) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(
            #"<testsuites name="\#(escape(name))" tests="\#(report.results.count)" failures="\#(report.failed)" skipped="\#(report.skipped)" time="\#(seconds(durationSeconds))">"#
        )
        for kind in RuleTestResult.Kind.allCases {
            let results = report.results.filter { $0.kind == kind }
            guard !results.isEmpty else { continue }
            let failures = results.count { $0.status == .failed }
            let skipped = results.count { $0.status == .skipped }
            lines.append(
                #"  <testsuite name="\#(kind.rawValue)" tests="\#(results.count)" failures="\#(failures)" errors="0" skipped="\#(skipped)">"#
            )
            for result in results {
                let caseName = "\(result.location) \(result.input)"
                let open = #"    <testcase classname="\#(escape(kind.rawValue))" name="\#(escape(caseName))""#
                switch result.status {
                case .passed:
                    lines.append(open + "/>")
                case .failed:
                    lines.append(open + ">")
                    let detail =
                        "input: \(result.input)\nexpected: \(result.expected ?? "null")\nactual: \(result.actual ?? "null")"
                    lines.append(
                        #"      <failure message="\#(escape(result.reason ?? "failed"))" type="mismatch">\#(escape(detail))</failure>"#
                    )
                    lines.append("    </testcase>")
                case .skipped:
                    lines.append(open + ">")
                    lines.append(#"      <skipped message="\#(escape(result.reason ?? "skipped"))"/>"#)
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func seconds(_ value: Double) -> String {
        String(Double(Int(value * 1000)) / 1000)
    }

    /// Escapes text for an XML attribute or element; characters XML 1.0 cannot carry at all (most C0 controls,
    /// lone surrogates cannot occur in Swift strings) are written as `\u{…}` so the document stays well-formed.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }
}

/// The live progress line of a long test run: `[#######.........] 812/1862  800 passed  2 failed  10 skipped`.
public struct ProgressLine: Sendable {
    /// The bar's width in characters.
    public var width: Int

    /// Creates a progress line.
    public init(width: Int = 30) {
        self.width = width
    }

    /// The line (without a carriage return) after `done` of `total` cases.
    public func render(done: Int, total: Int, passed: Int, failed: Int, skipped: Int) -> String {
        render(done: done, total: total, detail: "\(passed) passed  \(failed) failed  \(skipped) skipped")
    }

    /// The line after `done` of `total` steps of any long run, with what is going on: `[####......] 4/10  detail`.
    public func render(done: Int, total: Int, detail: String) -> String {
        let filled = total > 0 ? min(width, done * width / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "[\(bar)] \(done)/\(total)  \(detail)"
    }
}
