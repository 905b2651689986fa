import LinkRules

// The resolution document written directly, the shape its `Codable` conformance gives (keys sorted), for the
// server's hot path; `DocumentJSONTests` checks both write the same bytes.

extension Resolution: DocumentJSONWritable {
    /// Writes `input, notices (when not empty), openings, steps, timedOutRules, unwrapped`; a resolution with a trace
    /// goes through `Encodable`.
    public func writeMembers(to json: inout DocumentJSON) -> Bool {
        guard trace == nil else { return false }
        json.key("input")
        json.string(input)
        if !notices.isEmpty {
            json.key("notices")
            json.array(notices) { notice, json in
                json.openObject()
                json.key("code")
                json.string(notice.code)
                json.key("message")
                json.string(notice.message)
                json.closeObject()
            }
        }
        json.key("openings")
        json.array(openings) { $0.write(to: &$1) }
        json.key("steps")
        json.array(steps) { $0.write(to: &$1) }
        json.key("timedOutRules")
        json.array(timedOutRules) { $1.string($0.description) }
        json.key("unwrapped")
        json.string(unwrapped)
        return true
    }
}

extension Opening {
    /// The opening as its `encode(to:)` writes it, keys sorted.
    func write(to json: inout DocumentJSON) {
        json.openObject()
        if let app {
            json.key("app")
            json.string(app.identifier)
            json.key("appName")
            json.string(app.name)
        }
        if let canSave {
            json.key("canSave")
            json.bool(canSave)
        }
        if let error {
            json.key("error")
            json.openObject()
            json.key("code")
            json.string(error.code)
            json.key("message")
            json.string(error.message)
            json.closeObject()
        }
        if let iconURL = app?.iconURL {
            json.key("iconURL")
            json.string(iconURL)
        }
        json.key("kind")
        json.string(kind.rawValue)
        if let layer {
            json.key("layer")
            json.string(layer.rawValue)
        }
        json.key("needsScript")
        json.bool(needsScript)
        if let preferred {
            json.key("preferred")
            json.openObject()
            json.key("by")
            json.string(preferred.by.rawValue)
            json.key("reason")
            json.string(preferred.reason)
            json.closeObject()
        }
        json.key("rule")
        json.string(rule.description)
        if let app {
            json.key("scheme")
            json.string(app.scheme)
            if let storeId = app.storeId {
                json.key("storeId")
                json.int(storeId)
            }
        }
        json.key("title")
        json.string(title)
        json.key("url")
        if let url { json.string(url) } else { json.null() }
        json.closeObject()
    }
}

extension UnwrapStep {
    /// The step as its synthesized `encode(to:)` writes it, keys sorted.
    func write(to json: inout DocumentJSON) {
        json.openObject()
        if let details {
            json.key("details")
            json.array(details) { $1.string($0) }
        }
        json.key("from")
        json.string(from)
        json.key("kind")
        json.string(kind.rawValue)
        if let layer {
            json.key("layer")
            json.string(layer.rawValue)
        }
        if let location {
            json.key("location")
            json.string(location.description)
        }
        if let refused {
            json.key("refused")
            json.string(refused)
        }
        json.key("rule")
        json.string(rule)
        if let to {
            json.key("to")
            json.string(to)
        }
        json.closeObject()
    }
}
