import Foundation
import LinkRules
import WebLinks

/// "Always open this site with that app": the app remembered for a host, or for a domain and all its subdomains.
///
/// `{"site", "scope", "app", "chosenAt"}`, `chosenAt` in ISO 8601 (UTC).
public struct SiteChoice: Sendable, Equatable, Codable {
    /// The host or domain, in the canonical form links give it (lower case, punycode, no trailing dot).
    public var site: String
    /// Whether the choice covers only ``site`` itself or its subdomains too.
    public var scope: SiteScope
    /// The manifest app's identifier (an opening's `app`).
    public var app: String
    /// When the choice was made.
    public var chosenAt: Date

    /// Creates a choice; ``site`` must already be canonical (``canonicalSite(_:scope:)``).
    public init(site: String, scope: SiteScope, app: String, chosenAt: Date) {
        self.site = site
        self.scope = scope
        self.app = app
        self.chosenAt = chosenAt
    }

    /// Whether a link to `host` (canonical) is covered: the host itself, or a subdomain for a domain choice.
    public func covers(host: String) -> Bool {
        host == site || (scope == .domain && HostPattern.host(host, isSubdomainOf: site))
    }

    /// `example.com`, or `example.com and its subdomains`: the site as a message names it.
    public var siteDescription: String {
        scope == .domain ? "\(site) and its subdomains" : site
    }

    private enum CodingKeys: String, CodingKey { case site, scope, app, chosenAt }

    /// Decodes a choice, `chosenAt` in ISO 8601.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        site = try container.decode(String.self, forKey: .site)
        scope = try container.decode(SiteScope.self, forKey: .scope)
        app = try container.decode(String.self, forKey: .app)
        chosenAt = try Date(try container.decode(String.self, forKey: .chosenAt), strategy: .iso8601)
    }

    /// Encodes the choice, `chosenAt` in ISO 8601 (UTC, whole seconds).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(site, forKey: .site)
        try container.encode(scope, forKey: .scope)
        try container.encode(app, forKey: .app)
        try container.encode(chosenAt.formatted(.iso8601), forKey: .chosenAt)
    }
}

/// What a ``SiteChoice`` covers.
public enum SiteScope: String, Sendable, Codable, CaseIterable {
    /// Exactly this host.
    case host
    /// This domain and every subdomain of it (`example.com`, `www.example.com`, `a.b.example.com`).
    case domain
}

extension SiteChoice {
    /// The canonical key of a site the user names: a host name alone (`Example.COM`, `bücher.de`, `example.com.`),
    /// written as links write hosts (`Link.host` (WebLinks)). Refused: anything but a host (a link, a path, a port, a
    /// user name) and, for ``SiteScope/domain``, a domain whose subdomains belong to many owners.
    ///
    /// Without shipping the Public Suffix List, the domain check refuses what can be told from the name: a single
    /// label (`com`, `uk`, `localhost`), an IP address, and a registry label under a two-letter country code (`co.uk`,
    /// `com.au`, `ne.jp`, `gov.br`: the labels in ``registryLabels``). A private suffix (`github.io`) or a
    /// geographic one (`kyoto.jp`) is accepted: the user asked for it by name.
    public static func canonicalSite(_ text: String, scope: SiteScope) throws(ChooserError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let shown = String(trimmed.prefix(200))
        guard !trimmed.isEmpty else {
            throw ChooserError(.invalidSite, "the site is empty: give a host such as example.com")
        }
        // Only the host: a bracketed IPv6 address has colons, anything else with one has a port or a scheme.
        let ipv6 = trimmed.hasPrefix("[") && trimmed.hasSuffix("]")
        if let extra = trimmed.first(where: { "/?#@\\".contains($0) || ($0 == ":" && !ipv6) }) {
            throw ChooserError(
                .invalidSite,
                "\"\(shown)\" is not a host name (it has \"\(extra)\"): give the host alone, such as example.com"
            )
        }
        let host: String
        do {
            host = try Link("https://\(trimmed)/").host
        } catch {
            throw ChooserError(.invalidSite, "\"\(shown)\" is not a host name: \(error.message)")
        }
        guard scope == .domain else { return host }
        if let reason = sharedSuffixReason(host) { throw ChooserError(.publicSuffix, reason) }
        return host
    }

    /// Labels that registries put under a country code for everyone to register in (`co.uk`, `com.au`, `or.jp`).
    public static let registryLabels: Set<String> = [
        "ac", "co", "com", "edu", "go", "gob", "gov", "gv", "ltd", "me", "mil", "ne", "net", "nhs", "nic", "or", "org",
        "plc", "sch",
    ]

    /// Why `host` cannot be a domain choice (one sentence with the fix), or nil when it can.
    static func sharedSuffixReason(_ host: String) -> String? {
        let labels = host.split(separator: ".")
        if host.hasPrefix("[") || labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            return "\(host) is an IP address, which has no subdomains: remember it without subdomains"
        }
        let kind: String
        if labels.count == 1 {
            kind = "a top-level domain"
        } else if labels.count == 2, labels[1].count == 2, labels[1].allSatisfy(\.isLetter),
            registryLabels.contains(String(labels[0]))
        {
            kind = "a public suffix"
        } else {
            return nil
        }
        return
            "\(host) is \(kind): its subdomains belong to whoever registers them, so they cannot be remembered together; name the owner's domain (example.\(host)) or remember a host without subdomains"
    }
}

/// The remembered sites, by site: `{"sites": [...]}`, what `choose --sites --json` and `GET /v1/choices/sites`
/// answer.
public struct SiteChoiceList: Sendable, Equatable, Codable {
    /// The choices, by site.
    public var sites: [SiteChoice]

    /// Creates a list.
    public init(sites: [SiteChoice]) {
        self.sites = sites
    }
}
