// The program of DevicePrediction's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.android
import DevicePrediction

// An Android 14 phone: the shop's app verified for its domains, a deals app the user selected for one, a browser.
let phone = try Device(
    bytes: Array(
        #"""
        {"platform": "android", "sdk": 34, "apps": [
          {"package": "com.example.shop", "isBrowser": false,
           "filters": [{"actions": ["VIEW"], "categories": ["BROWSABLE", "DEFAULT"], "schemes": ["https"],
                        "hosts": ["shop.example", "*.shop.example"], "autoVerify": true}],
           "verified": ["*.shop.example"]},
          {"package": "com.example.deals", "isBrowser": false,
           "filters": [{"actions": ["VIEW"], "categories": ["BROWSABLE", "DEFAULT"], "schemes": ["https"],
                        "hosts": ["shop.example", "news.example"]}],
           "userSelected": ["shop.example"]},
          {"package": "org.mozilla.firefox", "isBrowser": true}]}
        """#.utf8
    )
)
for url in ["https://shop.example/cart", "https://news.example/", "https://localhost/"] {
    let prediction = DevicePredictor.predict(try TappedLink(url), on: phone)
    print(prediction.outcome.text, prediction.candidates)
}
// → com.example.shop ["com.example.shop"]
// → browser ["org.mozilla.firefox"]
// → browser ["org.mozilla.firefox"]
// snippet.end

// snippet.reasons
// Why: each rule applied, with the place in the device file its fact comes from.
let why = DevicePredictor.predict(try TappedLink("https://shop.example/cart"), on: phone)
for reason in why.reasons where reason.rule == "verified" || reason.rule == "outranks" {
    print(reason.rule, reason.pointer?.description ?? "-")
}
// → verified /apps/0/verified
// → outranks -
// snippet.end

// snippet.ios
// An iPhone: the domain's apple-app-site-association file claims /buy/* for the shop's app.
let iPhone = try Device(
    bytes: Array(
        #"""
        {"platform": "ios", "apps": [{"appId": "ABCDE12345.com.example.shop"}],
         "aasa": {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/buy/*"}]}]}},
         "tappedIn": {"kind": "safari", "domain": "news.example"}}
        """#.utf8
    )
)
for url in ["https://shop.example/buy/42", "https://shop.example/help", "http://shop.example/buy/42"] {
    print(DevicePredictor.predict(try TappedLink(url), on: iPhone).outcome.text)
}
// → ABCDE12345.com.example.shop
// → safari
// → safari
// snippet.end
