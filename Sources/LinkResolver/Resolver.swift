import WebLinks
import Foundation
import LinkFetching
import LinkMatching
import LinkRules
import LinkScripts

/// The whole pipeline for one link, as Opener runs it: static redirect rules; response headers when a `headers`
/// rule could apply; when no action matches, HTTP redirects followed with HEAD (short links) and the final URL
/// tried again; then every script opening rendered in JavaScriptCore within the request's time budget.
///
/// `RuleSet.resolve` is the synchronous, network-free core; `Resolver` adds the parts that need the network or a
/// JavaScript engine. Everything network-bound goes through one ``LinkFetching`` (policy-checked, recordable).
public final class Resolver: Sendable {
    /// The rules.
    public let rules: RuleSet
    /// Renders scripts (nil: script openings are listed with `needsScript` and no URL).
    public let scripts: ScriptEngine?
    /// The network (nil: offline; no unwrapping, no header lookups, scripts that need it report so).
    public let fetcher: (any LinkFetching)?
    private let redirectFollower: RedirectFollower?

    /// Creates a resolver; pass a shared `redirectFollower` to keep its cache of followed short links across
    /// resolvers (a server makes one resolver per rule-set generation).
    public init(rules: RuleSet, scripts: ScriptEngine?, fetcher: (any LinkFetching)?, redirectFollower: RedirectFollower? = nil) {
        self.rules = rules
        self.scripts = scripts
        self.fetcher = fetcher
        self.redirectFollower = redirectFollower ?? fetcher.map { RedirectFollower(fetcher: $0) }
    }

    /// Resolves a link that has passed ``LinkInput/normalize(_:maximumLength:)``. `scriptBudget` bounds each script
    /// run of this request (default: the engine's time limit).
    public func resolve(_ link: String, options: ResolveOptions = ResolveOptions(), scriptBudget: Duration? = nil) async -> Resolution {
        var options = options
        var (unwrapped, steps, redirectsTimedOut) = rules.unwrap(
            link, budget: options.budget, deadline: ContinuousClock().now + options.budget.perResolution)
        if options.headers == nil, let fetcher, rules.headerRulesCouldApply(to: unwrapped) {
            options.headers = await Self.headers(of: unwrapped, fetcher: fetcher)
        }
        var (openings, timedOut) = rules.compiledOpenings(for: unwrapped, options: options)
        if !openings.contains(where: { $0.kind == .action }), let redirectFollower, unwrapped.hasPrefix("http") {
            // A short link (bit.ly, t.co, …): follow its HTTP redirects and try the final URL.
            if let followed = try? await redirectFollower.resolve(unwrapped), followed.finalURL != unwrapped {
                var previous = unwrapped
                for hop in followed.chain.dropFirst() {
                    steps.append(UnwrapStep(kind: "http-redirect", rule: "HEAD", from: previous, to: hop))
                    previous = hop
                }
                let (final, finalSteps, finalRedirectsTimedOut) = rules.unwrap(
                    followed.finalURL, budget: options.budget, deadline: ContinuousClock().now + options.budget.perResolution)
                steps += finalSteps
                redirectsTimedOut += finalRedirectsTimedOut
                unwrapped = final
                var finalOptions = options
                if finalOptions.headers == nil, let fetcher, rules.headerRulesCouldApply(to: final) {
                    finalOptions.headers = await Self.headers(of: final, fetcher: fetcher)
                }
                (openings, timedOut) = rules.compiledOpenings(for: final, options: finalOptions)
                options = finalOptions
            }
        }
        if let scripts {
            openings = await render(openings, link: unwrapped, options: options, scripts: scripts, budget: scriptBudget)
        }
        return Resolution(
            input: link, unwrapped: unwrapped, steps: steps, openings: openings, timedOutRules: redirectsTimedOut + timedOut)
    }

    /// Runs every script opening concurrently; each gets the input its rule matched.
    private func render(_ openings: [Opening], link: String, options: ResolveOptions, scripts: ScriptEngine, budget: Duration?) async -> [Opening] {
        let headerInput = options.headers.map { link + "\n" + RuleSet.compactJSON($0) }
        return await withTaskGroup(of: (Int, Opening).self) { group in
            for (index, opening) in openings.enumerated() where opening.needsScript {
                guard let (source, legacy, usesHeaders) = rules.script(forRule: opening.rule) else { continue }
                let input = usesHeaders ? (headerInput ?? link) : link
                group.addTask {
                    var rendered = opening
                    switch await scripts.run(source, legacy: legacy, input: input, rule: opening.rule, timeLimit: budget) {
                    case .success(let url):
                        rendered.url = url
                        rendered.scriptError = url == nil ? "the script reported no result" : nil
                    case .failure(let error):
                        rendered.scriptError = error.description
                    }
                    rendered.needsScript = false
                    return (index, rendered)
                }
            }
            var result = openings
            for await (index, opening) in group { result[index] = opening }
            return result
        }
    }

    /// The response headers of a HEAD request, in server order (nil when the request fails).
    static func headers(of link: String, fetcher: any LinkFetching) async -> [(name: String, value: String)]? {
        guard let response = try? await fetcher.fetch(FetchRequest(url: link, method: .head)) else { return nil }
        return response.headers.map { ($0.name, $0.value) }
    }
}

extension RuleSet {
    /// The script of the format, browser or preview at `rule` (a JSON pointer), and whether it matched headers.
    func script(forRule rule: String) -> (source: String, legacy: Bool, usesHeaders: Bool)? {
        if let format = scriptIndex[rule] { return format }
        return nil
    }

    /// Whether some `headers` action could match this link once headers are appended: its regex's part before
    /// the `\n` matches the link (a rule whose pattern cannot be split so is assumed to apply).
    public func headerRulesCouldApply(to link: String) -> Bool {
        headerURLPatterns.contains { pattern in pattern.map { $0.matches(link) } ?? true }
    }
}
