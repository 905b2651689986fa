import LinkMatching

extension ResolutionNotice {
    /// The code of an answer built on a stale copy of a response (its server failed; stale-if-error).
    public static let staleAnswerCode = "E_STALE_RESPONSE"
    /// The code of what an offline resolution left out: a link no action opens was not asked where it leads (a short
    /// link stays unfollowed), a domain's claims were not read.
    public static let offlineCode = "E_OFFLINE"

    /// The notice that the last good answer of `url` was used because its server could not be asked, in the words
    /// every part of a resolution that reads through the fetching stack uses (the resolver's hops and scripts, the
    /// domain's claims).
    public static func staleAnswer(from url: String) -> ResolutionNotice {
        ResolutionNotice(
            code: staleAnswerCode,
            message: "the server of \(url) could not be asked, so its last good answer was used: it may be out of date"
        )
    }
}
