import AppChooser
import ArgumentParser
import DomainClaimsStage
import Foundation
import LinkMatching
import LinkResolver
import LinkRules

/// Everything that shapes a resolution on the command line, one group for `resolve` (and `--batch`) and `explain`:
/// the rules (`--manifest`, the user layer), the stages (the cleaning catalog, the choices store), the network, and
/// the request's fields, which make one `ResolveRequest.Patch` applied to the defaults exactly as the HTTP API's query
/// string and batch body are (each option maps to one ``ResolveRequest/Field``).
struct ResolutionOptions: ParsableArguments {
    @OptionGroup var manifestOptions: ManifestOptions

    @OptionGroup(title: "Your own rules") var userLayerOptions: UserLayerOptions

    @OptionGroup(title: "Cleaning (ClearURLs' catalog)") var cleaning: CleaningArguments

    @OptionGroup var choices: ChoicesOptions

    @OptionGroup(title: "What to list") var listing: ListingOptions

    @Flag(
        help:
            "Read the final link's domain claims (apple-app-site-association, assetlinks.json) over the network and list the claimed apps as universal-link and app-link openings."
    )
    var claims = false

    @OptionGroup(title: "Network (on by default: scripts, short-link unwrapping and header lookups may fetch)")
    var network: NetworkOptions

    func validate() throws {
        do {
            _ = try decodeRequest(trace: false)
        } catch {
            throw ValidationError(error.message(naming: Self.option(for: error.field)))
        }
    }

    /// The request these options ask for, decoded from the options' values (a value that does not fit stops the
    /// command, naming its option).
    func request(trace: Bool = false) throws(CommandFailure) -> ResolveRequest {
        do {
            return try decodeRequest(trace: trace)
        } catch {
            throw CommandFailure(message: "error: " + error.message(naming: Self.option(for: error.field)))
        }
    }

    /// The request: a `ResolveRequest.Patch` of the typed options, applied to the defaults and checked there, as the
    /// HTTP API's query string and batch body are.
    private func decodeRequest(trace: Bool) throws(ResolveRequestError) -> ResolveRequest {
        var patch = ResolveRequest.Patch()
        patch.timeout = network.timeout
        patch.scripts = !listing.noScripts
        patch.trace = trace
        patch.clean = !cleaning.noClean
        patch.referralMarketing = cleaning.allowReferralMarketing
        patch.installed = listing.installed.map { InstalledApps(list: $0) }
        patch.platform = listing.platform
        patch.source = userLayerOptions.sourceApp
        patch.openWrapped = listing.openWrapped
        if listing.followPageRedirects { patch.followPages = true }
        patch.refreshDelay = listing.maximumRefreshDelay.map(Double.init)
        return try patch.applied(to: ResolveRequest())
    }

    /// The option that sets a field, for messages.
    static func option(for field: ResolveRequest.Field) -> String {
        switch field {
        case .installed: "--installed"
        case .platform: "--platform"
        case .source: "--source-app"
        case .scripts: "--no-scripts"
        case .timeout: "--timeout"
        case .clean: "--no-clean"
        case .referralMarketing: "--allow-referral-marketing"
        case .claims: "--claims"
        case .openWrapped: "--open-wrapped"
        case .followPages: "--follow-page-redirects"
        case .refreshDelay: "--max-refresh-delay"
        case .trace, .headers, .browsers, .previews, .regexTimeLimit, .regexTimeShare, .maximumLinkLength:
            field.stringValue
        }
    }

    /// The rules with the user layer over them, and a resolver over them with this network and the stages asked for:
    /// the cleaning catalog (when cleaning is on and a catalog is at hand) and the choices store (when there is one).
    func resolver(runsScripts: Bool) async throws(CommandFailure) -> Resolver {
        let rules = try userLayerOptions.apply(over: await manifestOptions.loadRules(network: network))
        if let installed = listing.installed {
            for unknown in rules.unknownSchemes(in: InstalledApps(list: installed)) {
                CommandOutput.current.printError("warning: --installed: \(unknown)")
            }
        }
        var stages = ResolverStages()
        if let cleaner = try await cleaning.cleaner(network: network) { stages.cleaning.append(cleaner) }
        if claims { stages.openings.append(DomainClaimsStage()) }
        if let stage = try choices.stage() { stages.decisions.append(stage) }
        return try network.resolver(for: rules, runsScripts: runsScripts, stages: stages)
    }
}

/// `--installed`, `--platform` and `--no-scripts`: what a resolution lists.
struct ListingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only list apps and browsers with these URL schemes (comma-separated), as installed on a device: browsers are filtered too (Safari's scheme is https), and claimed apps (by their app's scheme, else bundle ID or package).",
            valueName: "schemes"
        )
    )
    var installed: String?

    @Option(help: "Drop apps and browsers limited to the other device family (claimed apps too).")
    var platform: Platform?

    @Flag(help: "List script openings without running their scripts.")
    var noScripts = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "For a link wrapped by a mail gateway or a redirect page, make browser openings open the original wrapped link (so the gateway's click-time check runs) instead of the link it carries; app openings always open the inner link (default: the user layer's openWrapped, else off)."
    )
    var openWrapped: Bool?

    @Flag(
        name: .customLong("follow-page-redirects"),
        help:
            "Read the page of every link on the way (a GET of its start) and follow its <meta http-equiv=\"refresh\"> as a redirect; without it, only bounce hosts' pages are read (the wrapper catalog's and the user layer's \"decode\": \"page\" entries). A Refresh header is followed either way."
    )
    var followPageRedirects = false

    @Option(
        name: .customLong("max-refresh-delay"),
        help: ArgumentHelp(
            "The longest delay of a refresh (Refresh header or meta refresh) that is followed as a redirect, in whole seconds, 0 to 3600 (default 5).",
            valueName: "seconds"
        )
    )
    var maximumRefreshDelay: Int?
}
