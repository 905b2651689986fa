/// Decoding of `redirects` (v4+) and `redirectRules` (v1–v3): an object whose keys are regexes, in file order.
extension ManifestDecoder {
    static let redirectKeys: Set<String> = ["param", "format", "tests", "test"]

    func decodeRedirects(_ node: JSONNode, at pointer: JSONPointer) -> [RedirectRule] {
        guard let members = node.members else {
            report(
                .error,
                "E_TYPE",
                "\"\(pointer.tokens.last ?? "redirects")\" must be an object whose keys are regexes, not \(node.typeDescription)",
                at: pointer,
                node: node
            )
            return []
        }
        return members.compactMap { member in
            let rulePointer = pointer.appending(member.key)
            return decodeRedirect(member, at: rulePointer)
        }
    }

    func decodeRedirect(_ member: JSONMember, at pointer: JSONPointer) -> RedirectRule? {
        let object = member.value
        guard object.members != nil else {
            report(
                .error,
                "E_TYPE",
                "the redirect rule must be an object with \"param\" or \"format\", not \(object.typeDescription)",
                at: pointer,
                node: object
            )
            return nil
        }
        let param = string(object, ["param"], at: pointer)
        let format = string(object, ["format"], at: pointer)
        var tests: [RedirectTest] = []
        if let (key, testsNode) = self.member(object, ["tests", "test"]) {
            let testsPointer = pointer.appending(key)
            if let testMembers = testsNode.members {
                for test in testMembers {
                    if let expected = test.value.stringValue {
                        tests.append(RedirectTest(input: test.key, expected: expected))
                    } else {
                        report(
                            .error,
                            "E_TYPE",
                            "the expected result of a redirect test must be a string, not \(test.value.typeDescription)",
                            at: testsPointer.appending(test.key),
                            node: test.value
                        )
                    }
                }
            } else {
                report(
                    .error,
                    "E_TYPE",
                    "\"\(key)\" must be an object mapping inputs to expected URLs",
                    at: testsPointer,
                    node: testsNode
                )
            }
        }
        var extras: [JSONMember] = []
        for extra in object.members ?? [] where !Self.redirectKeys.contains(extra.key) {
            keepExtra(extra, at: pointer.appending(extra.key), into: &extras, known: Self.redirectKeys)
        }
        if member.key.isEmpty {
            report(
                .error,
                "E_EMPTY_REGEX",
                "the redirect rule's regex is empty; this rule is ignored",
                at: pointer,
                node: object
            )
            return nil
        }
        if member.key.utf16.count > limits.maximumRegexLength {
            report(
                .error,
                "E_TOO_LARGE",
                "the redirect regex has \(member.key.utf16.count) characters, more than the limit of \(limits.maximumRegexLength)",
                at: pointer,
                node: object
            )
            return nil
        }
        let target: RedirectRule.Target
        switch (param, format) {
        case (let param?, nil): target = .param(param)
        case (nil, let format?): target = .format(format)
        case (.some, .some):
            report(
                .error,
                "E_CONFLICT",
                "\"param\" and \"format\" are mutually exclusive; this rule is ignored",
                at: pointer,
                node: object
            )
            return nil
        case (nil, nil):
            report(
                .error,
                "E_MISSING",
                "the redirect rule has neither \"param\" nor \"format\"; this rule is ignored",
                at: pointer,
                node: object
            )
            return nil
        }
        return RedirectRule(pattern: member.key, target: target, tests: tests, extras: extras, pointer: pointer)
    }
}
