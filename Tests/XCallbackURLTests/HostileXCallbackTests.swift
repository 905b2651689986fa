import Foundation
import SwitchyardTestSupport
import Testing
import XCallbackURL

/// The `x-callback` cases of `../shared/data/bad-inputs.json`, read at test time.
@Suite struct HostileXCallbackTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let input: String
        var testDescription: String { id }
    }

    static let cases: [Case] = BadInputs.cases(area: "x-callback").compactMap { entry in
            guard let id = entry["id"] as? String,
                let input = try? JSONSerialization.data(withJSONObject: entry["input"] ?? NSNull(), options: [.fragmentsAllowed])
            else { return nil }
            return Case(id: id, input: String(decoding: input, as: UTF8.self))
        }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyCaseIsListed() {
        #expect(Self.cases.count == 10)
    }

    func code(_ url: String) -> XCallbackURLError.Code? {
        do {
            _ = try XCallbackRequest(parsing: url)
            return nil
        } catch {
            return error.code
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason), arguments: cases)
    func caseGetsItsOutcome(_ testCase: Case) async throws {
        let input = try JSONSerialization.jsonObject(with: Data(testCase.input.utf8), options: [.fragmentsAllowed])
        switch testCase.id {
        case "X01": #expect(code(try #require(input as? String)) == .forbiddenCallbackScheme)
        case "X02": #expect(code(try #require(input as? String)) == .callbackNotAllowed)
        case "X04":
            let url = try #require(input as? String)
            let parsed = try XCallbackRequest(parsing: url)
            #expect(try parsed.url() == url)
            let next = try XCallbackRequest(parsing: try #require(parsed.success))
            #expect(next.success == "third://done")
        case "X05": #expect(try XCallbackRequest(parsing: try #require(input as? String))[parameter: "path"] == "a%2Fb")
        case "X07": #expect(code(try #require(input as? String)) == .duplicateParameter)
        case "X08":
            let dispatcher = XCallbackDispatcher(scheme: "app1")
            guard case .failed(let callback?, _) = await dispatcher.handle(try #require(input as? String)) else {
                Issue.record("no x-error answer")
                return
            }
            #expect(!callback.contains("<") && callback.contains("%3Cscript%3E"))
        case "X10":
            #expect(try XCallbackRequest(parsing: try #require(input as? String)).parameters == [.init("flag", nil), .init("a", "")])
        case "X11":
            #expect(try XCallbackRequest(parsing: try #require(input as? String)).success == "src://cb?a=1")
        case "X13":
            let urls = try #require(input as? [String])
            #expect(code(urls[0]) == nil)
            #expect(code(urls[1]) == .badAction)
            #expect(code(urls[2]) == .badAction)
        case "X14":
            let url = "app1://x-callback-url/act?x-success=cb%3A%2F%2F" + String(repeating: "a", count: 102_400)
            #expect(code(url) == .tooLong)
        default:
            Issue.record("unhandled case \(testCase.id)")
        }
    }
}
