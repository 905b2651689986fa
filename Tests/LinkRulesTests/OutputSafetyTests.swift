import LinkRules
import Testing

/// What a URL handed to an app may contain: nothing invisible (format characters are percent-encoded), no control
/// characters, no scheme that runs code.
@Suite struct OutputSafetyTests {
    @Test func formatCharactersArePercentEncodedAndEverythingElseKept() {
        #expect(OutputSafety.visible("https://a.example/\u{202E}gpj.exe") == "https://a.example/%E2%80%AEgpj.exe")
        #expect(OutputSafety.visible("app://x?\u{200B}=\u{AD}") == "app://x?%E2%80%8B=%C2%AD")
        #expect(OutputSafety.visible("app://café/ü?q=日本") == "app://café/ü?q=日本")
    }

    /// `visible` returns an ASCII text untouched without looking at its characters' properties: that holds because no
    /// ASCII character is a format character.
    @Test func noASCIICharacterIsAFormatCharacter() {
        let ascii = (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
        #expect(ascii.count == 128)
        #expect(!ascii.contains { $0.properties.generalCategory == .format })
        let text = String(String.UnicodeScalarView(ascii))
        #expect(OutputSafety.visible(text) == text)
    }

    @Test func controlCharactersAndScriptSchemesAreProblems() {
        #expect(OutputSafety.problem(with: "app://x\ny") != nil)
        #expect(OutputSafety.problem(with: "JavaScript:alert(1)") != nil)
        #expect(OutputSafety.problem(with: "app://x/y") == nil)
    }
}
