import Foundation
import HTTPTypes
import LinkMatching
import LinkResolver
import LinkRules

/// The parameters a route's query string may have: a name that is none of them is `400 E_UNKNOWN_PARAMETER`, naming it
/// with the closest known name (`platfrom=` → `platform=`), never silently ignored.
///
/// One case is told apart: a link given with an unencoded `&` in its query (`url=https://youtube.com/watch?v=x&t=42`)
/// is cut there, and what follows reads as parameters of the request. Unknown names right after such a link are
/// returned as ``cutFromLink`` instead of refused, so the answer can say which ones were not part of the link.
struct QueryParameters {
    /// The items that followed a link with a query and are no parameter of the route (`t=42`), as written.
    var cutFromLink: [String] = []

    /// Checks `query` (the raw query string) against `known`; `link` names the parameter holding a link, whose cut
    /// tail is noticed rather than refused when `noticesCutLinks` is true (else it is refused with a hint).
    init(_ query: String?, known: Set<String>, link: String? = "url", noticesCutLinks: Bool = true) throws(APIError) {
        var afterLinkWithQuery = false
        for item in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let name = Self.decoded(rawName)
            if known.contains(name) {
                afterLinkWithQuery = name == link && Self.decoded(item.dropFirst(rawName.count + 1)).contains("?")
                continue
            }
            if afterLinkWithQuery {
                guard noticesCutLinks else {
                    throw APIError(
                        .badRequest,
                        "E_UNKNOWN_PARAMETER",
                        "the query has no parameter \"\(name.prefix(100))\": it follows \(link ?? "url")= after an unencoded & of the link; encode the link (& as %26) to keep it whole"
                    )
                }
                cutFromLink.append(String(item))
                continue
            }
            let hint =
                KeySuggestion.closest(to: name, among: known).map { "; did you mean \"\($0)\"?" }
                ?? " (the parameters: \(known.sorted().joined(separator: ", ")))"
            throw APIError(
                .badRequest,
                "E_UNKNOWN_PARAMETER",
                "the query has no parameter \"\(name.prefix(100))\"\(hint)"
            )
        }
    }

    /// The notice of a link cut by an unencoded `&`, naming what was left out of it; nil when nothing was.
    var notice: ResolutionNotice? {
        guard !cutFromLink.isEmpty else { return nil }
        let items = cutFromLink.map { "\"\($0.prefix(100))\"" }.joined(separator: ", ")
        let read = cutFromLink.count == 1 ? "was read as a parameter" : "were read as parameters"
        return ResolutionNotice(
            code: Self.cutLink,
            message:
                "the link's query ends at an unencoded &: \(items) \(read) of this request, not as part of the link; encode the link (& as %26) to resolve it whole"
        )
    }

    /// The notice's code.
    static let cutLink = "E_LINK_CUT"

    /// What `GET /v1/resolve` and `/v1/explain` take: the link and every field of a resolve request.
    static let resolve = Set(["url"] + ResolveRequest.Field.allCases.map(\.stringValue))

    /// A query name or value as form decoding reads it (`+` a space, `%XX` a byte).
    static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
