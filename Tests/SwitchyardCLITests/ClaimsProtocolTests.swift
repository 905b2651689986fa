import DomainClaims
import SwitchyardTestSupport
import Testing

@testable import switchyard

/// The project's conformance cases (SwitchyardTestSupport) through the command line's one-line function, in process;
/// ClaimsCommandTests runs the same table through `switchyard claims --protocol`.
@Suite struct ClaimsProtocolTests {
    @Test(arguments: ClaimsConformanceCases.all)
    func answersEachCase(_ testCase: ClaimsConformanceCase) {
        #expect(ClaimsProtocol.answer(testCase.request) == testCase.answer, "\(testCase.request)")
    }

    @Test func casesHaveDistinctIDs() {
        let requests = ClaimsConformanceCases.all.map(\.request)
        #expect(Set(requests).count == requests.count)
        #expect(ClaimsConformanceCases.all.count > 100)
    }

    @Test func aStringIDIsEchoed() {
        let line =
            #"{"id":"a-1","aasa":{"applinks":{"details":[]}},"domain":"example.com","appId":"A.b","url":"https://example.com/"}"#
        #expect(ClaimsProtocol.answer(line) == #"{"id":"a-1","decision":"no_match"}"#)
    }

    @Test func readsAppIDSpelledAsInAASAFiles() {
        let line =
            #"{"id":2,"aasa":{"applinks":{"details":[{"appID":"A.b","paths":["*"]}]}},"domain":"example.com","appID":"A.b","url":"https://example.com/x"}"#
        #expect(ClaimsProtocol.answer(line) == #"{"id":2,"decision":"match"}"#)
    }

    @Test func theFileMayBeGivenAsText() {
        let file = #"{\"applinks\":{\"details\":[{\"appIDs\":[\"A.b\"],\"components\":[{\"/\":\"/x\"}]}]}}"#
        let line = #"{"id":1,"aasa":"\#(file)","domain":"example.com","appId":"A.b","url":"https://example.com/x"}"#
        #expect(ClaimsProtocol.answer(line) == #"{"id":1,"decision":"match"}"#)
    }
}
