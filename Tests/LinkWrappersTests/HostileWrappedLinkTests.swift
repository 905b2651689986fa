import Foundation
import LinkWrappers
import SwitchyardTestSupport
import Testing
import WebLinks

/// The hostile link inputs of `../shared/data/bad-inputs.json` (read at test time) as what wrappers carry: a decoded
/// link goes through the one link parser, so it is refused as that input is refused, or is the link that input is.
@Suite struct HostileWrappedLinkTests {
    /// The text inputs of the `input` cases.
    static let inputs: [String] = BadInputs.cases(area: "input").compactMap { $0["input"] as? String }

    /// Each way of carrying a link that takes any text: a query parameter, a path segment, base64.
    static func wrapped(_ text: String) -> [String] {
        let encoded = WrappedLinks.encode(text)
        return [
            "https://eur01.safelinks.protection.outlook.com/?url=\(encoded)&data=x",
            "https://secure-web.cisco.com/token/\(encoded)",
            "https://eu-west-1.protection.sophos.com/?u="
                + WrappedLinks.encode(Data(text.utf8).base64EncodedString()) + "&d=x",
        ]
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func aDecodedLinkIsRefusedAsTheInputItselfIs() throws {
        #expect(Self.inputs.count >= 10)
        for input in Self.inputs {
            let direct = Result { () throws(LinkError) -> Link in try Link(input) }
            for text in Self.wrapped(input) {
                // A payload too long for a wrapper link is no wrapped link to decode.
                guard let link = try? Link(text) else { continue }
                let outcome = LinkWrapperCatalog.builtIn.unwrap(link)
                switch direct {
                case .success(let expected):
                    // The input may be a wrapper link itself: it is decoded as it would be alone.
                    let alone = LinkWrapperCatalog.builtIn.unwrap(expected)
                    #expect(outcome.link == alone.link, "\(text)")
                    #expect(outcome.stop == alone.stop)
                    #expect(outcome.steps.count == alone.steps.count + 1)
                case .failure where input.isEmpty:
                    // An empty value is no wrapped link.
                    #expect(outcome == WrapperUnwrapping(link: link), "\(text)")
                case .failure(let error):
                    #expect(outcome.link == link, "\(text)")
                    guard case .malformed(let why) = outcome.stop?.reason else {
                        Issue.record("\(text): not refused (\(outcome))")
                        continue
                    }
                    // Empty text is no wrapped link at all; anything else is refused with the parser's reason.
                    #expect(why.contains(error.message) || why.contains("not valid UTF-8"), "\(why) / \(error)")
                }
            }
        }
    }
}
