import AppChooser
import ArgumentParser
import Foundation
import LinkMatching
import LinkRules

/// `choose --remember-site HOST --app ID [--include-subdomains]`, `--forget-site HOST`, `--forget-all-sites` and
/// `--sites`: the apps remembered per site, in the choices store.
struct SiteChoiceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Always open this site with --app: a host name such as example.com.", valueName: "host")
    )
    var rememberSite: String?

    @Option(
        help: ArgumentHelp(
            "The app to remember for --remember-site: an app of the rules resolve uses (the app of an opening, such as x).",
            valueName: "id"
        )
    )
    var app: String?

    @OptionGroup var rules: ManifestOptions

    @Flag(
        help:
            "With --remember-site: its subdomains too (name the owner's domain, such as example.co.uk, not a public suffix such as co.uk)."
    )
    var includeSubdomains = false

    @Option(help: ArgumentHelp("Forget the app remembered for this site.", valueName: "host"))
    var forgetSite: String?

    @Flag(help: "Forget every remembered site.")
    var forgetAllSites = false

    @Flag(help: "List the remembered sites.")
    var sites = false

    /// Whether no site option was given (the command chooses between the apps of a type).
    var isEmpty: Bool { rememberSite == nil && forgetSite == nil && !forgetAllSites && !sites && app == nil }

    func validate() throws {
        let given = [rememberSite != nil, forgetSite != nil, forgetAllSites, sites].filter { $0 }.count
        if given > 1 {
            throw ValidationError("give one of --remember-site, --forget-site, --forget-all-sites and --sites")
        }
        if rememberSite != nil, app == nil {
            throw ValidationError("--remember-site needs --app ID, the manifest app to open the site with")
        }
        if rememberSite == nil, app != nil || includeSubdomains || rules.manifest != nil {
            throw ValidationError("--app, --include-subdomains and --manifest go with --remember-site HOST")
        }
    }

    /// Runs the one site option given, on the store at `store`; only remembering creates a missing store. Each
    /// change is confirmed in one line (with `--json`, the choice stored or forgotten).
    func run(store location: ChooseCommand.StoreLocation, json: Bool, network: NetworkOptions) async throws {
        let output = CommandOutput.current
        do {
            let scope: SiteScope = includeSubdomains ? .domain : .host
            // A refused site leaves no store behind.
            let site = try (rememberSite ?? forgetSite).map { text throws(ChooserError) in
                try SiteChoice.canonicalSite(text, scope: scope)
            }
            let exists = FileManager.default.fileExists(atPath: location.path)
            guard rememberSite != nil || exists else {
                if sites {
                    return try json
                        ? output.printJSON(SiteChoiceList(sites: [])) : output.print(Self.table(.init(sites: [])))
                }
                if let site { throw CommandFailure(message: "error: no app is remembered for \(site)", exitCode: 1) }
                output.print("forgotten: \(0, "remembered site")")
                return
            }
            // An app the rules do not have is refused before the store is touched (one check with the server's).
            var known: App?
            if let app { known = try ChoicesStore.requireApp(app, in: try await rulesForApps(network: network)) }
            let store = try location.open()
            if sites {
                let list = SiteChoiceList(sites: try store.siteChoices())
                try json ? output.printJSON(list) : output.print(Self.table(list))
            } else if let site, let known {
                let choice = try store.rememberSite(site, app: known.identifier, scope: scope)
                let verb = choice.scope == .domain ? "open" : "opens"
                try json
                    ? output.printJSON(choice)
                    : output.print(
                        "remembered: \(choice.siteDescription) \(verb) with \(known.name) (\(known.identifier))"
                    )
            } else if let site {
                guard let forgotten = try store.forgetSite(site) else {
                    throw CommandFailure(message: try Self.nothingRemembered(for: site, in: store), exitCode: 1)
                }
                try json
                    ? output.printJSON(forgotten)
                    : output.print("forgotten: \(forgotten.siteDescription) opened with \(forgotten.app)")
            } else if forgetAllSites {
                let count = try store.forgetAllSites()
                output.print("forgotten: \(count, "remembered site")")
            }
        } catch let error as ChooserError {
            throw CommandFailure(error)
        }
    }

    /// The rules `resolve` would use by default: the bundled rules or `--manifest`'s, with the default user layer when
    /// there is one (its own apps may be remembered too).
    private func rulesForApps(network: NetworkOptions) async throws(CommandFailure) -> RuleSet {
        let loaded = try await rules.loadRules(network: network)
        let layer = UserLayerOptions.defaultPath
        guard FileManager.default.fileExists(atPath: layer) else { return loaded }
        return try UserLayerOptions.apply(layer, over: loaded)
    }

    /// `error: no app is remembered for HOST`, and the domain choice that still covers it, if one does.
    private static func nothingRemembered(for host: String, in store: ChoicesStore) throws(ChooserError) -> String {
        let message = "error: no app is remembered for \(host)"
        guard let covering = try store.siteChoice(forHost: host) else { return message }
        return
            "\(message); it opens with \(covering.app) as part of \(covering.siteDescription): forget \(covering.site)"
    }

    /// `SITE  SUBDOMAINS  APP  CHOSEN` rows, or a sentence when there are none.
    static func table(_ list: SiteChoiceList) -> String {
        guard !list.sites.isEmpty else { return "No site is remembered." }
        let rows =
            [["SITE", "SUBDOMAINS", "APP", "CHOSEN"]]
            + list.sites.map { [$0.site, $0.scope == .domain ? "yes" : "no", $0.app, $0.chosenAt.formatted(.iso8601)] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
