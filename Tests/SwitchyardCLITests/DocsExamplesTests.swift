import Foundation
import SwitchyardTestSupport
import Testing

/// Every `sh` example of Docs/*.md runs as written, as ReadmeTests runs the README's: each block's commands run in
/// order with bash, in a scratch copy of the layout the pages assume (the clone with `../shared/data` beside it,
/// `.build/release/switchyard` and `switchyard` on the PATH being the binary these tests built, a fresh home), and each
/// must exit 0. A page says otherwise in HTML comments before the block, which this suite honours and checks:
///
/// - `<!-- docs-test skip "TEXT": REASON -->`: the commands containing TEXT are not run (the suite names each, with
///   its reason);
/// - `<!-- docs-test status "TEXT" N: REASON -->`: they exit N;
/// - `<!-- docs-test prints "TEXT": "LINE" -->`: their output (standard output, then error) has a line containing
///   LINE; `lacks` instead: no line contains it.
///
/// The files a command names as the user's own (`links.txt`, an AASA file, `routes.txt`) are written first, small and
/// valid (``DocsExample/inputs``).
@Suite struct DocsExamplesTests {
    @Test(arguments: DocsExample.blocks)
    func runsAsThePageSays(_ block: DocsExample.Block) async throws {
        let scratch = try DocsExample.Scratch()
        for command in block.commands {
            if let skip = command.skip {
                #expect(!skip.isEmpty, "\(command.text): a skip needs its reason")
                continue
            }
            let script = (block.assignments + [command.text]).joined(separator: "\n")
            let outcome = try await SwitchyardProcess.run(
                executable: URL(fileURLWithPath: "/bin/bash"),
                arguments: ["-c", script],
                environment: scratch.environment,
                workingDirectory: scratch.root,
                timeout: .seconds(300)
            )
            #expect(
                outcome.status == command.status,
                "\(block.page):\(command.line): \(command.text) exited \(outcome.status):\n\(outcome.stdout.suffix(800))\n\(outcome.stderr.suffix(800))"
            )
            let printed = (outcome.stdout + "\n" + outcome.stderr).split(separator: "\n").map(String.init)
            for line in command.prints {
                #expect(
                    printed.contains { $0.contains(line) },
                    "\(block.page):\(command.line): \(command.text) did not print \"\(line)\":\n\(outcome.stdout.suffix(800))\n\(outcome.stderr.suffix(800))"
                )
            }
            for line in command.lacks {
                #expect(
                    !printed.contains { $0.contains(line) },
                    "\(block.page):\(command.line): \(command.text) printed \"\(line)\":\n\(outcome.stdout.suffix(800))"
                )
            }
        }
    }

    /// Most examples run; each one that does not is named with its reason, and every marker names a command.
    @Test func mostExamplesRunAndEverySkipIsNamed() throws {
        let blocks = DocsExample.blocks
        let commands = blocks.flatMap(\.commands)
        let skipped = commands.filter { $0.skip != nil }
        #expect(blocks.count >= 3)
        #expect(commands.count - skipped.count >= 25, "\(commands.count - skipped.count) examples run")
        #expect(skipped.count * 3 <= commands.count, "\(skipped.count) of \(commands.count) examples skipped")
        for command in skipped {
            print("docs example not run: \(command.page):\(command.line): \(command.text) — \(command.skip ?? "")")
        }
        for block in blocks {
            for marker in block.markers {
                #expect(
                    block.commands.contains { $0.text.contains(marker.pattern) },
                    "\(block.page): the marker for \"\(marker.pattern)\" names no command"
                )
            }
        }
        #expect(DocsExample.unreadMarkers.isEmpty, "\(DocsExample.unreadMarkers)")
    }
}

/// The `sh` examples of Docs/*.md and the markers the pages give them.
enum DocsExample {
    /// One `sh` block: its page, its variable assignments (`sy=…`), its commands.
    struct Block: Sendable, CustomTestStringConvertible {
        var page: String
        var line: Int
        var assignments: [String]
        var commands: [Command]
        var markers: [Marker]
        var testDescription: String { "\(page):\(line)" }
    }

    /// One command (continuation lines joined), with what its page says of it.
    struct Command: Sendable {
        var page: String
        var line: Int
        var text: String
        var skip: String?
        var status: Int32 = 0
        var prints: [String] = []
        var lacks: [String] = []
    }

    /// `<!-- docs-test KIND "PATTERN" …: VALUE -->`.
    struct Marker: Sendable {
        var kind: String
        var pattern: String
        var status: Int32?
        var value: String
    }

    static let docs = SharedData.packageRoot.appendingPathComponent("Docs")

    static var pages: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }
            .sorted()
    }

    /// Every `sh` block of every page.
    static var blocks: [Block] {
        pages.flatMap { page in
            (try? String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)).map { parse($0, page: page) }
                ?? []
        }
    }

    /// Marker comments that are not before an `sh` block (a typo would otherwise silence nothing).
    static var unreadMarkers: [String] {
        pages.flatMap { page -> [String] in
            guard let text = try? String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8) else {
                return []
            }
            let all = text.split(separator: "\n").filter { $0.hasPrefix("<!-- docs-test") }.count
            let read = parse(text, page: page).reduce(0) { $0 + $1.markers.count }
            return all == read ? [] : ["\(page): \(all - read) marker(s) not before an sh block or not understood"]
        }
    }

    static func parse(_ markdown: String, page: String) -> [Block] {
        var blocks: [Block] = []
        var markers: [Marker] = []
        var current: (line: Int, lines: [(Int, String)])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .enumerated()
        {
            if var block = current {
                if line == "```" {
                    blocks.append(makeBlock(page: page, line: block.line, lines: block.lines, markers: markers))
                    current = nil
                    markers = []
                } else {
                    block.lines.append((index + 1, line))
                    current = block
                }
            } else if line == "```sh" {
                current = (index + 1, [])
            } else if line.hasPrefix("```") {
                markers = []
            } else if let marker = marker(line) {
                markers.append(marker)
            }
        }
        return blocks
    }

    static func marker(_ line: String) -> Marker? {
        guard
            let match = line.wholeMatch(
                of: /<!-- docs-test (skip|status|prints|lacks) "([^"]+)"(?: (\d+))?: (.+) -->/
            )
        else { return nil }
        var value = String(match.4)
        if match.1 == "prints" || match.1 == "lacks", value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            value = String(value.dropFirst().dropLast())
        }
        return Marker(
            kind: String(match.1),
            pattern: String(match.2),
            status: match.3.flatMap { Int32($0) },
            value: value
        )
    }

    static func makeBlock(page: String, line: Int, lines: [(Int, String)], markers: [Marker]) -> Block {
        var assignments: [String] = []
        var commands: [Command] = []
        var pending: (line: Int, text: String)?
        for (number, raw) in lines {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if var open = pending {
                open.text += "\n" + raw
                pending = open
            } else {
                if text.isEmpty || text.hasPrefix("#") { continue }
                if text.firstMatch(of: /^[A-Za-z_][A-Za-z0-9_]*=/) != nil {
                    assignments.append(text)
                    continue
                }
                pending = (number, raw)
            }
            // A trailing backslash or an open here-document continues the command.
            if let open = pending, !text.hasSuffix("\\"), !hereDocumentIsOpen(open.text) {
                commands.append(Command(page: page, line: open.line, text: open.text))
                pending = nil
            }
        }
        for index in commands.indices {
            for marker in markers where commands[index].text.contains(marker.pattern) {
                switch marker.kind {
                case "skip": commands[index].skip = marker.value
                case "status": commands[index].status = marker.status ?? 0
                case "lacks": commands[index].lacks.append(marker.value)
                default: commands[index].prints.append(marker.value)
                }
            }
        }
        return Block(page: page, line: line, assignments: assignments, commands: commands, markers: markers)
    }

    /// Whether `text` opens a here-document (`<<'END'`) whose closing line it does not have yet.
    static func hereDocumentIsOpen(_ text: String) -> Bool {
        guard let match = text.firstMatch(of: /<<-?'?([A-Za-z_]+)'?/) else { return false }
        return !text.split(separator: "\n").dropFirst().contains { $0.trimmingCharacters(in: .whitespaces) == match.1 }
    }

    /// The files the examples name as the user's own, small and valid.
    static let inputs: [String: String] = [
        "links.txt": "https://twitter.com/jack/status/20\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n",
        "apple-app-site-association": association(["/buy/*", "/help/*"]),
        "aasa.json": association(["/buy/*"]),
        "old-aasa.json": association(["/buy/*"]),
        "new-aasa.json": association(["/buy/*", "/sell/*"]),
        "assetlinks.json": #"""
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "com.example.app",
                     "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]
        """#,
        "routes.txt": "/buy/{path...}\n",
        "requests.jsonl": "",
    ]

    static func association(_ paths: [String]) -> String {
        let components = paths.map { #"{"/": "\#($0)"}"# }.joined(separator: ", ")
        return
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [\#(components)]}]}}"#
    }

    /// The layout the pages assume, in a temporary folder: `root` (the clone's stand-in, where the commands run) with
    /// the user's files, `.build/release/switchyard`, and `../shared` beside it; a home and a PATH of its own.
    struct Scratch {
        let directory: TemporaryDirectory
        let root: URL
        let environment: [String: String]

        init() throws {
            directory = try TemporaryDirectory()
            let fileManager = FileManager.default
            root = directory.url.appendingPathComponent("switchyard")
            let release = root.appendingPathComponent(".build/release")
            let bin = directory.url.appendingPathComponent("bin")
            let home = directory.url.appendingPathComponent("home")
            for folder in [release, bin, home] {
                try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let binary = SwitchyardProcess.binaryURL
            try fileManager.createSymbolicLink(
                at: release.appendingPathComponent("switchyard"),
                withDestinationURL: binary
            )
            try fileManager.createSymbolicLink(at: bin.appendingPathComponent("switchyard"), withDestinationURL: binary)
            if let shared = SharedData.directory?.deletingLastPathComponent() {
                try fileManager.createSymbolicLink(
                    at: directory.url.appendingPathComponent("shared"),
                    withDestinationURL: shared
                )
            }
            try fileManager.createSymbolicLink(
                at: root.appendingPathComponent("scripts"),
                withDestinationURL: SharedData.packageRoot.appendingPathComponent("scripts")
            )
            for (name, text) in DocsExample.inputs {
                try Data(text.utf8).write(to: root.appendingPathComponent(name))
            }
            environment = [
                "HOME": home.path,
                "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
                "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
                "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ]
        }
    }
}
