import LinkScripts
import Testing

@testable import RuleTooling

@Suite("JavaScript minifier")
struct JavaScriptMinifierTests {
    private func minified(_ source: String) -> String? { JavaScriptMinifier.minify(source) }

    // MARK: Automatic semicolon insertion

    @Test func keepsNewlineAfterReturn() {
        #expect(minified("function f() {\n  return\n  x\n}") == "function f(){return\nx}")
    }

    @Test func dropsNewlineAfterReturnBeforeSemicolonOrBrace() {
        #expect(minified("function f() { return\n}") == "function f(){return}")
        #expect(minified("function f() { return\n; }") == "function f(){return;}")
    }

    @Test func keepsNewlineAfterOtherRestrictedKeywords() {
        #expect(minified("a: for (;;) { break\n a; continue\n a }") == "a:for(;;){break\na;continue\na}")
        #expect(minified("throw\nx") == "throw\nx")
        #expect(minified("function* g() { yield\n1 }") == "function*g(){yield\n1}")
    }

    @Test func keepsNewlineBeforePrefixIncrement() {
        #expect(minified("a\n++b") == "a\n++b")
        #expect(minified("a\n--b") == "a\n--b")
    }

    @Test func dropsNewlineBeforeParenthesisBecauseItIsACallEitherWay() {
        #expect(minified("a\n(b)") == "a(b)")
        #expect(minified("x = y\n[0]") == "x=y[0]")
    }

    @Test func keepsNewlineBetweenStatements() {
        #expect(minified("x = 1\ny = 2") == "x=1\ny=2")
        #expect(minified("x = 'a'\n'use strict'") == "x='a'\n'use strict'")
    }

    @Test func keepsNewlineAfterClosingBrace() {
        #expect(minified("if (a) {\n  b()\n}\nfoo()") == "if(a){b()}\nfoo()")
    }

    @Test func dropsNewlinesThatCannotEndAStatement() {
        let source = "var o = {\n  a: 1,\n  b: [\n    1,\n    2\n  ]\n}\n"
        #expect(minified(source) == "var o={a:1,b:[1,2]}")
        #expect(minified("x = a\n+ b\n.c") == "x=a+b.c")
        #expect(minified("if (a)\n{\nb()\n}") == "if(a){b()}")
        #expect(minified("do x(); while (a)\ny()") == "do x();while(a)\ny()")
    }

    @Test func multiLineBlockCommentCountsAsNewline() {
        #expect(minified("a = 1 /* one\ntwo */ b = 2") == "a=1\nb=2")
        #expect(minified("a = 1 /* one line */; b = 2") == "a=1;b=2")
    }

    @Test func unicodeLineSeparatorCountsAsNewline() {
        #expect(minified("x = 1\u{2028}y = 2") == "x=1\ny=2")
        #expect(minified("x\u{00A0}=\u{FEFF}1") == "x=1")
    }

    // MARK: Regular expressions and division

    @Test func divisionChain() {
        #expect(minified("a / b / c") == "a/b/c")
        #expect(minified("x = (a) / 2") == "x=(a)/2")
        #expect(minified("x = a[1] / 2") == "x=a[1]/2")
    }

    @Test func regexAfterReturnWithSlashInClassAndEscape() {
        #expect(minified("return /x\\/y[/]/g.test(s)") == "return/x\\/y[/]/g.test(s)")
    }

    @Test func regexKeepsItsSpacesAndCommentLikeText() {
        #expect(minified("var r = / a  b /; var s = /[/*]/") == "var r=/ a  b /;var s=/[/*]/")
    }

    @Test func regexAfterStatementHeadAndClosingBrace() {
        #expect(minified("if (x) / a /.test(y)") == "if(x)/ a /.test(y)")
        #expect(minified("while (x) / a /.test(y)") == "while(x)/ a /.test(y)")
        #expect(minified("{}\n/ a /.test(y)") == "{}\n/ a /.test(y)")
    }

    @Test func keywordAsPropertyNameIsDivision() {
        #expect(minified("o.return / 2 / x") == "o.return/2/x")
    }

    @Test func divisionFollowedByRegexIsNotAComment() {
        let output = minified("x = a / /re/.lastIndex")
        #expect(output == "x=a/ /re/.lastIndex")
    }

    @Test func regexFlagsDoNotGlueToNextWord() {
        #expect(minified("x = /a/g in y") == "x=/a/g in y")
    }

    // MARK: Strings and templates

    @Test func stringsKeepCommentMarkers() {
        #expect(minified("var s = '// no'; var t = \"/* no */\"; // yes") == "var s='// no';var t=\"/* no */\";")
    }

    @Test func stringsKeepEscapesAndLineContinuations() {
        let source = "var s = 'it\\'s  ok' + \"a\\\nb\""
        #expect(minified(source) == "var s='it\\'s  ok'+\"a\\\nb\"")
    }

    @Test func templateWithNestedTemplatesAndBracesIsKeptVerbatim() {
        let template = "`a ${ `${x}` } b ${ {k: 1}.k } c ${ \"}\" } d ${ '`' } \\` e`"
        #expect(minified("var t = \(template);  x()") == "var t=\(template);x()")
    }

    @Test func templateKeepsNewlinesAndSpaces() {
        #expect(minified("t = `line 1\n   line 2 ${ a +\n b }  `") == "t=`line 1\n   line 2 ${ a +\n b }  `")
    }

    // MARK: Tokens that would glue

    @Test func unaryAfterBinaryKeepsSpace() {
        #expect(minified("a + +b") == "a+ +b")
        #expect(minified("a - -b") == "a- -b")
        #expect(minified("a + ++b") == "a+ ++b")
        #expect(minified("a ++ + b") == "a+++b")
    }

    @Test func numberMemberAccessKeepsSpace() {
        #expect(minified("1 .toString()") == "1 .toString()")
        #expect(minified("x = a ? .5 : 1") == "x=a? .5:1")
        #expect(minified("x = 1.5 + .5") == "x=1.5+.5")
    }

    @Test func wordsKeepOneSpace() {
        #expect(minified("var   x  =  typeof  y") == "var x=typeof y")
        #expect(minified("return   'a'") == "return'a'")
    }

    @Test func htmlLikeCommentsAreNotCreated() {
        #expect(minified("x = a < !--b") == "x=a< !--b")
        #expect(minified("x = a\n-- > b") == "x=a\n-- >b")
    }

    @Test func commentsAreRemoved() {
        #expect(minified("// header\n/* block */ a(); // trailing\n/** doc */") == "a();")
        #expect(minified("  // only a comment\n") == "")
    }

    // MARK: Refusals

    @Test(arguments: [
        "var s = 'unterminated", "var s = \"broken\nstring\"", "a(); /* never closed", "var t = `open ${ x }",
        "var t = `${ a `", "x = /unterminated", "x = /broken\n/", "x = a <!-- b", "#!/usr/bin/env node\nx",
    ])
    func refusesWhatItCannotTokenize(source: String) {
        #expect(minified(source) == nil)
    }

    @Test func refusesDeeplyNestedTemplatesWithoutCrashing() {
        let depth = JavaScriptTokenizer.maximumTemplateDepth + 1
        let source = String(repeating: "`${", count: depth) + "x" + String(repeating: "}`", count: depth)
        #expect(minified(source) == nil)
    }

    // MARK: Tokenizer

    @Test func tokenizerKinds() throws {
        let tokens = try #require(JavaScriptTokenizer.tokenize("x = /a/g.test('s') / 2 + `t${1}`\ny"))
        #expect(
            tokens.map(\.kind) == [
                .word, .punctuator, .regex, .punctuator, .word, .punctuator, .string, .punctuator, .punctuator, .number,
                .punctuator, .template, .word,
            ]
        )
        #expect(tokens.map(\.text).last == "y")
        #expect(tokens.last?.newlineBefore == true)
        #expect(tokens.dropLast().allSatisfy { !$0.newlineBefore })
    }

    // MARK: Whole scripts

    static let openerScript = """
        // Resolves a share link through the site's API.
        function process(url, completionHandler) {
            var xhr = new XMLHttpRequest();
            xhr.onreadystatechange = function () {
                if (xhr.readyState == 4 && xhr.status == 200) {
                    /* The payload is JSON; the deep link sits in `data.link`. */
                    var json = JSON.parse(xhr.responseText);
                    var match = /id=(\\d+)/.exec(json.data.link);
                    var ratio = json.width / json.height / 2;
                    completionHandler(match ? `app://item/${match[1]}?r=${ratio}` : null)
                } else if (xhr.readyState == 4) {
                    completionHandler(null)
                }
            }
            xhr.open('GET', 'https://api.example.com/resolve?url=' + encodeURIComponent(url), true)
            xhr.send()
        }
        """

    @Test func realisticOpenerScriptShrinksAndKeepsItsTokens() throws {
        let output = try #require(minified(Self.openerScript))
        #expect(output.utf8.count < Self.openerScript.utf8.count)
        #expect(!output.contains("Resolves a share link") && !output.contains("The payload is JSON"))
        #expect(output.contains("var match=/id=(\\d+)/.exec(json.data.link);"))
        #expect(output.contains("var ratio=json.width/json.height/2;"))
        #expect(output.contains("completionHandler(null)}}\nxhr.open("))
        let before = try #require(JavaScriptTokenizer.tokenize(Self.openerScript))
        let after = try #require(JavaScriptTokenizer.tokenize(output))
        #expect(before.map(\.text) == after.map(\.text))
        #expect(before.map(\.kind) == after.map(\.kind))
    }

    @Test(arguments: [
        openerScript, "a\n++b\nx = y\n(z)\nreturn\n1", "var t = `${ `${x}` }`  ;  a + +b - -c", "1 .toString()\n/re/g",
    ])
    func minifyingTwiceChangesNothing(source: String) throws {
        let once = try #require(minified(source))
        #expect(minified(once) == once)
    }
}
