import Foundation
import SwitchyardTestSupport
import Testing

/// Where `choose` keeps its choices: `--choices FILE` (the name every command uses; `--store` still read, with a
/// warning), a folder that must exist when the path is the user's, and the default location made with its folders.
@Suite struct ChoicesStoreLocationTests {
    @Test func chooseTakesChoicesAsResolveDoes() async throws {
        let folder = try TemporaryFolder()
        let store = folder.path("c.sqlite")
        let set = await InProcessCommand.run(["choose", "--type", "maps", "--set-default", "waze", "--choices", store])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.isEmpty)
        #expect(folder.names == ["c.sqlite"])
    }

    @Test func theOldNameStillWorksWithAWarning() async throws {
        let folder = try TemporaryFolder()
        let store = folder.path("c.sqlite")
        let set = await InProcessCommand.run(["choose", "--type", "maps", "--set-default", "waze", "--store", store])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(
            set.stderrLines == [
                "warning: choose --store is deprecated: use --choices FILE, the name resolve, explain and serve use"
            ]
        )
        #expect(set.stdout == "the default Maps app is now Waze (waze)\n")
        let both = await InProcessCommand.run(["choose", "--type", "maps", "--store", store, "--choices", store])
        #expect(both.status == 2)
        #expect(both.stderrLines.first == "error: --store is the old name of --choices: give --choices alone")
    }

    @Test(arguments: [["--type", "maps", "--set-default", "waze"], ["--remember-site", "x.com", "--app", "x"]])
    func aFolderThatIsNotThereIsAnErrorNotATreeMade(_ arguments: [String]) async throws {
        let folder = try TemporaryFolder()
        let store = folder.path("no/such/folder/c.sqlite")
        let output = await InProcessCommand.run(["choose", "--choices", store] + arguments)
        #expect(output.status == 2)
        #expect(
            output.stderrLines == [
                "\(store): error: the choices store's folder \(folder.path("no/such/folder")) does not exist: create it first [E_STORE]"
            ]
        )
        #expect(folder.names.isEmpty)
    }

    @Test func theDefaultStoreIsMadeWithItsFolders() async throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_DATA_HOME": folder.path("data"), "HOME": folder.url.path]
        let output = await InProcessCommand.run(
            ["choose", "--type", "maps", "--set-default", "waze"],
            environment: environment
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("data/switchyard/choices.sqlite")))
    }
}
