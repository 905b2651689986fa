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

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "switchyard", targets: ["switchyard"]),
        .library(name: "LinkRules", targets: ["LinkRules"]),
        .library(name: "LinkResolver", targets: ["LinkResolver"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        .target(name: "LinkRules"),
        .target(name: "LinkResolver", dependencies: ["LinkRules"], resources: [.copy("Resources/default-rules.json")]),
        .executableTarget(name: "switchyard", dependencies: ["LinkRules", "LinkResolver", argumentParser]),
        .target(name: "SwitchyardTestSupport", dependencies: ["LinkRules"], path: "Tests/SwitchyardTestSupport"),
        .testTarget(name: "LinkRulesTests", dependencies: ["LinkRules", "SwitchyardTestSupport"]),
        .testTarget(name: "LinkResolverTests", dependencies: ["LinkResolver", "SwitchyardTestSupport"]),
        .testTarget(name: "SwitchyardCLITests", dependencies: ["switchyard", "SwitchyardTestSupport"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
