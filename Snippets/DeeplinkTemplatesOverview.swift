// The program of DeeplinkTemplates' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.templates
import DeeplinkTemplates
import Foundation

// The values a link carries: each template argument writes one optional property.
struct Artist: Sendable, DefaultInitializable {
    var slug: String?
    var id: Int?
}
struct Search: Sendable, DefaultInitializable {
    var query: String?
    var page: Int?
}

// Templates are string literals with interpolated key paths; typed properties must read as their type.
let artist: Deeplink<Artist> = try "/artist/\(\.slug)/\(\.id)"
let search: Deeplink<Search> = try "/search?q=\(\.query)&page=\(\.page)"
let settings: Deeplink<Void> = "/settings"

// Match one template directly.
var found = Artist()
try artist.parse(URL(string: "https://tickets.example/artist/metallica/42")!, into: &found)
print(found.slug ?? "", found.id ?? 0)
// → metallica 42

// Two arguments with no text between them cannot work, since where one ends would be a guess: the template throws.
do {
    let _: Deeplink<Artist> = try "/artist/\(\.slug)\(\.id)"
} catch {
    print(error)
}
// → the arguments {slug} and {id} follow each other with no text between them, so where one ends cannot be known [E_ADJACENT_ARGUMENTS]
// snippet.end

// snippet.center
// Or let a center try them in order: the first that matches and whose handler returns true wins.
let center = DeeplinksCenter {
    artist { _, value in
        print("artist", value.slug ?? "", value.id ?? 0)
        return true
    }
    search { _, value in
        print("search", value.query ?? "", "page", value.page ?? 1)
        return true
    }
    settings { _ in
        print("settings")
        return true
    }
}
try center.parse(url: URL(string: "myapp://search?page=2&q=caf%C3%A9")!)
// → search café page 2
try center.parse(url: URL(string: "https://tickets.example/settings")!)
// → settings

// A URL that no template matches says why each one did not.
do {
    try center.parse(url: URL(string: "https://tickets.example/artist/metallica/forty-two")!)
} catch {
    print(error.code)
    print(error.message)
}
// → noMatch
// → no template matched https://tickets.example/artist/metallica/forty-two (/artist/{slug}/{id}: in the path, "forty-two" is not a valid value for {id}; /search?q={query}&page={page}: in the path, expected "/search" at offset 0, found "/artist/metalli"; /settings: in the path, expected "/settings" at offset 0, found "/artist/metallica")
// snippet.end

// snippet.build
// Templates also build URLs: arguments are percent-encoded, so they never change the URL's shape.
print(search.url(for: Search(query: "a&b c", page: 3), scheme: "https", host: "tickets.example"))
// → https://tickets.example/search?q=a%26b%20c&page=3

// A list's separator is written as the template declares it; the items are escaped.
struct Restaurants: Sendable, DefaultInitializable {
    var ids: [Int]?
}
let restaurants: Deeplink<Restaurants> = try "/restaurants/ids=\(list: \.ids, separator: ",")"
print(restaurants.url(for: Restaurants(ids: [123, 456, 789]), scheme: "https", host: "food.example"))
// → https://food.example/restaurants/ids=123,456,789
// snippet.end

// snippet.moving
// A query parameter's name may be an argument: that pair takes the link's pair at the same position.
struct Filter: Sendable, DefaultInitializable {
    var key: String?
    var value: String?
}
let filter: Deeplink<Filter> = try "/filter?\(\.key)=\(\.value)"
var chosen = Filter()
try filter.parse(URL(string: "myapp://filter?color=red&size=m")!, into: &chosen)
print(chosen.key ?? "", chosen.value ?? "")
// → color red

// A template's fragment is part of it, and a template binds each property once.
let part: Deeplink<Filter> = try "/doc#\(\.value)"
print(part.matches(URL(string: "https://docs.example/doc")!, startingWith: Filter()))
// → false
do {
    let _: Deeplink<Filter> = try "/doc/\(\.value)#\(\.value)"
} catch {
    print(error.code)
}
// → repeatedArgument

// Where Deeplink differs: the whole path is matched, not a prefix;
print(artist.matches(URL(string: "https://tickets.example/artist/metallica/42/edit")!, startingWith: Artist()))
// → false
// values are percent-decoded, and query pairs with a literal name are found by name, in any order;
var decoded = Search()
try search.parse(URL(string: "https://tickets.example/search?page=1&utm_source=x&q=caf%C3%A9")!, into: &decoded)
print(decoded.query ?? "", decoded.page ?? 0)
// → café 1
// an app's own scheme has no host (its "host" is the route's first segment); ftp, file, ws… have one, as http does.
print(settings.matches(URL(string: "myapp://settings")!, startingWith: ()))
// → true
print(settings.matches(URL(string: "ftp://tickets.example/settings")!, startingWith: ()))
// → true
// snippet.end
