import Foundation
import SwitchyardTestSupport
import Testing
import XCallbackURL

/// The `x-callback` cases of `../shared/data/bad-inputs.json`, read at test time and checked by their expected
/// outcome (not by id), so a changed expectation in the file changes what is checked.
@Suite struct HostileXCallbackTests {
    /// One case, kept as JSON text so the argument is `Sendable`.
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let input: String
        let expect: String
        var testDescription: String { id }

        func inputValue() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(input.utf8), options: [.fragmentsAllowed])
        }
        func expectation() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(expect.utf8)) as? [String: Any])
        }
    }

    static let cases: [Case] = BadInputs.cases(area: "x-callback").compactMap { entry in
        guard let id = entry["id"] as? String,
            let input = try? JSONSerialization.data(
                withJSONObject: entry["input"] ?? NSNull(),
                options: [.fragmentsAllowed]
            ),
            let expect = try? JSONSerialization.data(withJSONObject: entry["expect"] ?? [:])
        else { return nil }
        return Case(
            id: id,
            input: String(decoding: input, as: UTF8.self),
            expect: String(decoding: expect, as: UTF8.self)
        )
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyCaseOfTheAreaIsRead() {
        #expect(Self.cases.map(\.id) == ["X01", "X02", "X04", "X05", "X07", "X08", "X10", "X11", "X13", "X14"])
    }

    func parse(_ url: String, _ policy: CallbackPolicy = .standard) -> Result<XCallbackRequest, XCallbackURLError> {
        Result { () throws(XCallbackURLError) in try XCallbackRequest(parsing: url, policy: policy) }
    }

    /// The input URL; an object `{"x-success_length": N}` stands for a request whose x-success has N characters.
    func url(of testCase: Case) throws -> String {
        let input = try testCase.inputValue()
        if let url = input as? String { return url }
        let length = try #require((input as? [String: Any])?["x-success_length"] as? Int)
        let callback = "cb://" + String(repeating: "a", count: length - 5)
        return try XCallbackRequest(scheme: "app1", action: "act").url() + "?x-success="
            + callback.replacingOccurrences(of: "://", with: "%3A%2F%2F")
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason), arguments: cases)
    func caseGetsItsOutcome(_ testCase: Case) async throws {
        let expect = try testCase.expectation()
        let outcome = try #require(expect["outcome"] as? String)
        switch outcome {
        case "reject", "reject_or_require_allowlist":
            let code = try #require(expect["code"] as? String)
            let url = try url(of: testCase)
            guard case .failure(let error) = parse(url) else {
                Issue.record("\(testCase.id) was accepted")
                return
            }
            #expect(error.code.rawValue == code, "\(error)")
            #expect(error.part == "x-success" && error.message.count < 300, "\(error)")
            if outcome == "reject_or_require_allowlist" {
                // Accepted only once the host is explicitly allowed.
                let success = URLComponents(string: url)?.queryItems?.first { $0.name == "x-success" }?.value
                let host = try #require(success.flatMap { URL(string: $0)?.host })
                #expect(
                    try XCallbackRequest(parsing: url, policy: CallbackPolicy(allowedWebHosts: [host])).success != nil
                )
            }
        case "result":
            let url = try url(of: testCase)
            let request = try parse(url).get()
            #expect(try request.url() == url, "build(parse(u)) == u")
            // Exactly one decode per level: each level is a parseable request whose callback decodes once more.
            var level = try #require(request.success)
            for _ in 0..<2 where level.contains("x-callback-url") {
                let inner = try parse(level).get()
                #expect(!(inner.success ?? "").contains("%25"), "decoded twice at some level: \(level)")
                level = try #require(inner.success)
            }
            #expect(!level.contains("%"))
        case "value":
            let expected = try #require(expect["expected"] as? String)
            let request = try parse(try url(of: testCase)).get()
            let value = try #require(request.parameters.first?.value)
            #expect(value.contains(expected) && !value.contains("/"), "\(value)")
        case "distinguish":
            let expected = try #require(expect["expected"] as? [String: Any])
            let request = try parse(try url(of: testCase)).get()
            #expect(request.parameters.count == expected.count)
            for parameter in request.parameters {
                let wanted = try #require(expected[parameter.name])
                #expect(parameter.value == (wanted is NSNull ? nil : wanted as? String), "\(parameter.name)")
            }
        case "split_on_first_equals":
            let expected = try #require(expect["expected"] as? [String: String])
            let request = try parse(try url(of: testCase)).get()
            let fields = [
                "x-source": request.source, "x-success": request.success, "x-error": request.error,
                "x-cancel": request.cancel,
            ]
            for (name, value) in expected { #expect((fields[name] ?? request[parameter: name]) == value) }
        case "encoded_and_truncated":
            try await checkReflection(url(of: testCase))
            // The same with an action name far longer than any message should carry.
            try await checkReflection(
                "app1://x-callback-url/" + String(repeating: "%3Cscript%3E", count: 1000) + "?x-error=src%3A%2F%2Ferr"
            )
        case let text where text.hasPrefix("host_case_insensitive"):
            let code = try #require(text.firstRange(of: /E_[A-Z_]+/).map { String(text[$0]) })
            for url in try #require(try testCase.inputValue() as? [String]) {
                let path = url.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3).joined(
                    separator: "/"
                )
                switch parse(url) {
                case .success(let request):
                    #expect(path == request.action && url.lowercased().contains("//x-callback-url/"), "\(url)")
                case .failure(let error):
                    #expect(error.code.rawValue == code && (path.isEmpty || path.contains("..")), "\(url): \(error)")
                }
            }
        default:
            Issue.record("\(testCase.id): no check for the outcome \"\(outcome)\"")
        }
    }

    /// An unknown action's name comes back in `errorMessage` encoded, truncated, and without markup.
    func checkReflection(_ url: String) async throws {
        let dispatcher = XCallbackDispatcher(scheme: "app1")
        guard case .failed(let callback?, "unknownAction") = await dispatcher.handle(url) else {
            Issue.record("no x-error answer for \(url.prefix(80))")
            return
        }
        #expect(!callback.contains("<") && !callback.contains(">") && callback.contains("%3Cscript%3E"))
        let answer = try XCallbackRequest(parsing: "src://x-callback-url/err?" + callback.dropFirst("src://err?".count))
        let message = try #require(answer[parameter: "errorMessage"])
        #expect(message.count <= XCallbackRequest.maximumErrorMessageLength)
    }
}
