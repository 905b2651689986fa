// swift-tools-version:6.2
import PackageDescription

// Every module's dependencies in one table; test targets are derived from it, and the shared Swift settings
// are applied in one loop at the bottom. Leaf libraries (x-callback-url, deep-link templates, the JS
// runtime, fetching) stay free of the heavy server dependencies so they can be embedded in an app.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore: Target.Dependency = .product(name: "HummingbirdCore", package: "hummingbird")
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")
// SHA-256 for the HTTP API's entity tags and the cleaning catalog's published hash: CryptoKit's API (CryptoKit itself on
// Apple platforms, BoringSSL's on Linux), no NIO; the server's TLS stack builds it anyway.
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let asyncHTTPClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
// The metrics API only (no backend): the fetching layer counts per host through any factory a caller passes.
let coreMetrics: Target.Dependency = .product(name: "CoreMetrics", package: "swift-metrics")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nio: [Target.Dependency] = [nioCore] + ["NIOPosix", "NIOHTTP1"].map { .product(name: $0, package: "swift-nio") }
// TLS settings for the client (an extra trusted CA) and the tests' loopback TLS server; AsyncHTTPClient builds it anyway.
let nioSSL: Target.Dependency = .product(name: "NIOSSL", package: "swift-nio-ssl")

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "switchyard", targets: ["switchyard"]),
        .library(name: "WebLinks", targets: ["WebLinks"]),
        .library(name: "LinkRules", targets: ["LinkRules"]),
        .library(name: "LinkWrappers", targets: ["LinkWrappers"]),
        .library(name: "LinkMatching", targets: ["LinkMatching"]),
        .library(name: "BundledRules", targets: ["BundledRules"]),
        .library(name: "LinkResolution", targets: ["LinkResolution"]),
        .library(name: "LinkResolver", targets: ["LinkResolver"]),
        .library(name: "LinkFetching", targets: ["LinkFetching"]),
        .library(name: "LinkFetchingHTTP", targets: ["LinkFetchingHTTP"]),
        .library(name: "LinkCleaning", targets: ["LinkCleaning"]),
        .library(name: "RuleTooling", targets: ["RuleTooling"]),
        .library(name: "LinkScripts", targets: ["LinkScripts"]),
        .library(name: "XCallbackURL", targets: ["XCallbackURL"]),
        .library(name: "DeeplinkTemplates", targets: ["DeeplinkTemplates"]),
        .library(name: "AppChooser", targets: ["AppChooser"]),
        .library(name: "DomainClaims", targets: ["DomainClaims"]),
        .library(name: "AssociationContract", targets: ["AssociationContract"]),
        .library(name: "DomainClaimsStage", targets: ["DomainClaimsStage"]),
        .library(name: "DevicePrediction", targets: ["DevicePrediction"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Tests only: a test CA and a leaf certificate made at test time for the loopback TLS server.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // ICU's C regex API inside the toolchain's lib_FoundationICU (Linux); Apple platforms keep NSRegularExpression.
        .systemLibrary(name: "CICU"),
        .target(name: "WebLinks"),
        // The link wrappers of mail gateways and "you are leaving" pages, decoded offline from a catalog kept as data,
        // and the refresh steps (the Refresh header, <meta http-equiv="refresh">): WebLinks only, so an app embeds it.
        .target(
            name: "LinkWrappers",
            dependencies: ["WebLinks"],
            resources: [.copy("Resources/link-wrappers.json"), .copy("Resources/html-character-references.json")]
        ),
        // The manifest and the user layer as data; a user layer's own link wrappers are read by LinkWrappers' reader.
        .target(name: "LinkRules", dependencies: ["WebLinks", "LinkWrappers"]),
        .target(name: "XCallbackURL"),
        .target(name: "DeeplinkTemplates"),
        // Apple's app-site-association and Google's Digital Asset Links: reading, deciding, linting. No network:
        // WebLinks at most (scripts/check-modules holds it to that), so an app can embed it.
        .target(name: "DomainClaims", dependencies: ["WebLinks"]),
        // What a tap opens on Android 12+ and iOS, from a device's state and the domain's claims: as light as DomainClaims
        // (no network: what is read from the network comes in as evidence), so an app can embed it.
        .target(name: "DevicePrediction", dependencies: ["DomainClaims", "WebLinks"]),
        // The association contract: AASA components (and Android intent-filter paths) from an app's deep-link routes,
        // and a published file checked against them; apart, so that DomainClaims stays at WebLinks.
        .target(name: "AssociationContract", dependencies: ["DomainClaims", "DeeplinkTemplates", "WebLinks"]),
        // The synchronous, network-free matcher: what an app that lists openings needs, without NIO or JavaScriptCore.
        .target(
            name: "LinkMatching",
            dependencies: [
                "LinkRules", "LinkWrappers", "WebLinks", httpTypes,
                .target(name: "CICU", condition: .when(platforms: [.linux])),
            ]
        ),
        // Switchyard's own rule set as a resource: light (the matcher only), so an app that lists openings gets the rules
        // without JavaScriptCore.
        .target(
            name: "BundledRules",
            dependencies: ["LinkRules", "LinkMatching"],
            resources: [.copy("Resources/default-rules.json")]
        ),
        .target(
            name: "LinkScripts",
            dependencies: [
                // LinkMatching: a guard's expression runs as the matcher runs a rule's, under its budget.
                "LinkMatching", .target(name: "CJavaScriptCore", condition: .when(platforms: [.linux])),
            ]
        ),
        // The fetching protocol, policy, fixtures, HTTP cache, coalescing and politeness; the AsyncHTTPClient client
        // lives apart in LinkFetchingHTTP.
        .target(
            name: "LinkFetching",
            dependencies: [
                "WebLinks", "LinkWrappers", httpTypes, coreMetrics,
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "LinkFetchingHTTP",
            dependencies: [
                "LinkFetching", httpTypes, asyncHTTPClient, logging, nioSSL,
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ] + nio
        ),
        // ClearURLs' catalog, compiled and prefiltered: light (no NIO, no JavaScriptCore), like the matcher.
        .target(
            name: "LinkCleaning",
            dependencies: ["LinkRules", "LinkMatching", "LinkResolution", "WebLinks", "LinkFetching", crypto]
        ),
        // The resolver's extension API: the stages' protocols and contexts, the request, the cache key and how long an
        // answer may be kept. Light (no JavaScriptCore, no NIO), so that a stage links only what it uses.
        .target(
            name: "LinkResolution",
            dependencies: ["LinkRules", "LinkMatching", "LinkFetching", "WebLinks", httpTypes]
        ),
        .target(
            name: "LinkResolver",
            dependencies: [
                "LinkResolution", "LinkRules", "LinkMatching", "LinkScripts", "LinkFetching", "BundledRules",
                "WebLinks",
                httpTypes,
            ]
        ),
        // The domain's claims as a resolver stage: DomainClaims' decisions over files fetched through the resolution's
        // network; apart, so that DomainClaims stays at WebLinks and LinkResolver knows no claims.
        .target(
            name: "DomainClaimsStage",
            dependencies: [
                "DomainClaims", "DevicePrediction", "LinkResolution", "LinkMatching", "LinkRules", "LinkFetching",
                "WebLinks",
            ]
        ),
        .target(
            name: "AppChooser",
            dependencies: [
                "LinkRules", "LinkMatching", "LinkResolution", "LinkFetching", "WebLinks",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Resources/catalog.json")]
        ),
        .target(
            name: "RuleTooling",
            dependencies: ["LinkRules", "LinkMatching", "LinkResolver", "LinkScripts", "WebLinks"]
        ),
        .target(
            name: "LinkServer",
            dependencies: [
                "LinkRules", "LinkMatching", "LinkResolver", "LinkFetching", "LinkFetchingHTTP", "WebLinks",
                "XCallbackURL", "AppChooser", "DomainClaims", "DomainClaimsStage", "DevicePrediction", hummingbird,
                hummingbirdCore,
                logging, crypto,
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ] + nio,
            resources: [.copy("Resources/playground"), .copy("Resources/openapi.json")]
        ),
        // Naive baselines, corpora and timing: `package` access to the matcher, never part of a product.
        .target(
            name: "SwitchyardBenchmarks",
            dependencies: ["LinkRules", "LinkMatching", "WebLinks"],
            path: "Benchmarks/SwitchyardBenchmarks"
        ),
        // The cleaner's naive loop and corpus, apart: the matcher's fuzzer links SwitchyardBenchmarks, and cleaning
        // brings swift-crypto's C sources, which the fuzz build (swiftc outside SwiftPM) does not compile.
        .target(
            name: "CleaningBenchmarks",
            dependencies: ["SwitchyardBenchmarks", "LinkCleaning", "LinkMatching", "WebLinks"],
            path: "Benchmarks/CleaningBenchmarks"
        ),
        // The claims benchmark: a realistic and a hostile AASA file deciding links.
        .target(
            name: "ClaimsBenchmarks",
            dependencies: ["SwitchyardBenchmarks", "DomainClaims", "WebLinks"],
            path: "Benchmarks/ClaimsBenchmarks"
        ),
        .executableTarget(
            name: "switchyard",
            dependencies: [
                "LinkRules", "LinkMatching", "LinkResolver", "LinkScripts", "RuleTooling", "LinkFetching",
                "LinkFetchingHTTP", "LinkCleaning", "WebLinks", "LinkServer", "XCallbackURL", "AppChooser",
                "SwitchyardBenchmarks",
                "CleaningBenchmarks", "DomainClaims", "ClaimsBenchmarks", "AssociationContract", "DomainClaimsStage",
                "DevicePrediction", argumentParser, logging,
                nioCore,
            ]
        ),
        .target(
            name: "SwitchyardTestSupport",
            dependencies: [
                "LinkRules", "LinkMatching", "WebLinks", nioSSL, crypto,
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ] + nio,
            path: "Tests/SwitchyardTestSupport"
        ),
        .testTarget(
            name: "LinkFetchingTests",
            dependencies: [
                "LinkFetching", "LinkFetchingHTTP", "SwitchyardTestSupport", httpTypes, asyncHTTPClient,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(name: "LinkScriptsTests", dependencies: ["LinkScripts", "SwitchyardTestSupport"]),
        .testTarget(name: "XCallbackURLTests", dependencies: ["XCallbackURL", "SwitchyardTestSupport"]),
        .testTarget(name: "DomainClaimsTests", dependencies: ["DomainClaims", "SwitchyardTestSupport"]),
        .testTarget(
            name: "DomainClaimsStageTests",
            dependencies: [
                "DomainClaimsStage", "DomainClaims", "LinkResolver", "LinkMatching", "LinkRules", "LinkFetching",
                "LinkFetchingHTTP", "WebLinks", "SwitchyardTestSupport",
            ]
        ),
        .testTarget(
            name: "DevicePredictionTests",
            dependencies: ["DevicePrediction", "DomainClaims", "WebLinks", "SwitchyardTestSupport"]
        ),
        .testTarget(
            name: "AssociationContractTests",
            dependencies: ["AssociationContract", "DomainClaims", "DeeplinkTemplates", "SwitchyardTestSupport"]
        ),
        .testTarget(name: "DeeplinkTemplatesTests", dependencies: ["DeeplinkTemplates", "SwitchyardTestSupport"]),
        .testTarget(
            name: "AppChooserTests",
            dependencies: [
                "AppChooser", "LinkResolver", "LinkFetchingHTTP", "SwitchyardTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "LinkRulesTests", dependencies: ["LinkRules", "LinkWrappers", "SwitchyardTestSupport"]),
        .testTarget(name: "WebLinksTests", dependencies: ["WebLinks", "SwitchyardTestSupport"]),
        .testTarget(name: "LinkWrappersTests", dependencies: ["LinkWrappers", "WebLinks", "SwitchyardTestSupport"]),
        .testTarget(
            name: "LinkMatchingTests",
            dependencies: [
                "LinkMatching", "BundledRules", "LinkWrappers", "WebLinks", "SwitchyardBenchmarks",
                "SwitchyardTestSupport", httpTypes,
            ]
        ),
        .testTarget(
            name: "LinkResolverTests",
            dependencies: [
                "LinkResolver", "LinkMatching", "LinkCleaning", "AppChooser", "LinkFetchingHTTP", "LinkWrappers",
                "SwitchyardTestSupport",
                httpTypes,
            ]
        ),
        .testTarget(
            name: "LinkCleaningTests",
            dependencies: [
                "LinkCleaning", "LinkMatching", "LinkFetchingHTTP", "SwitchyardBenchmarks", "CleaningBenchmarks",
                "SwitchyardTestSupport",
            ]
        ),
        .testTarget(name: "RuleToolingTests", dependencies: ["RuleTooling", "SwitchyardTestSupport"]),
        .testTarget(
            name: "LinkServerTests",
            dependencies: ["LinkServer", "LinkCleaning", "SwitchyardTestSupport", hummingbirdTesting]
        ),
        .testTarget(
            name: "SwitchyardCLITests",
            dependencies: ["switchyard", "LinkResolver", "LinkCleaning", "SwitchyardTestSupport"]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
