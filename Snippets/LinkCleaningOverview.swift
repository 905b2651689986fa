// The program of LinkCleaning's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.catalog
import LinkCleaning

// A catalog in ClearURLs' format, written here (the real one is downloaded: CleaningCatalogLoader).
let json = #"""
    {"providers": {
      "shop": {
        "urlPattern": "^https?:\\/\\/(?:[a-z0-9-]+\\.)*?shop\\.example",
        "completeProvider": false,
        "rules": ["utm_[a-z]+", "ref_?"],
        "referralMarketing": ["tag"],
        "rawRules": ["\\/ref=[^/?]*"],
        "redirections": ["^https?:\\/\\/shop\\.example\\/out\\?to=([^&]+)"]
      },
      "broken": {"urlPattern": "^https:\\/\\/x\\.example", "completeProvider": false, "rules": ["(?i)id"]}
    }}
    """#
let catalog = try CleaningCatalog(json: json, file: "catalog.json")
print(catalog.providers.map(\.name))
// → ["shop", "broken"]
for problem in catalog.refusedPatterns { print(problem) }
// → catalog.json:10:93: error: rules/0 of provider "broken", "(?i)id", is refused: '(?i' is not JavaScript group syntax (JavaScript has no inline flags); the rest of the provider is used [E_CLEANING_REGEX at /providers/broken/rules/0]
// snippet.end

// snippet.clean
let cleaner = LinkCleaner(catalog: catalog)
let result = try cleaner.clean("https://www.shop.example/dp/42/ref=sr_1?utm_source=mail&tag=me-20&color=red")
print(result.link)
// → https://www.shop.example/dp/42?color=red
for step in result.steps { print(step) }
// → removed "/ref=sr_1" by providers/shop/rawRules/0 "\/ref=[^/?]*"
// → removed utm_source=mail (query) by providers/shop/rules/0 "utm_[a-z]+"
// → removed tag=me-20 (query) by providers/shop/referralMarketing/0 "tag"

// A redirect link is unwrapped, decoded, and the target cleaned again; referral marketing can be kept.
let options = CleaningOptions(allowReferralMarketing: true)
let unwrapped = try cleaner.clean(
    "https://shop.example/out?to=https%3A%2F%2Fshop.example%2Fp%3Ftag%3Dme-20%26ref%3Dx",
    options: options
)
print(unwrapped.link, unwrapped.steps.count)
// → https://shop.example/p?tag=me-20 2
// snippet.end
