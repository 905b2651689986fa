import Foundation
import LinkFetching
import Testing
import WebLinks

/// The small parsers under the cache: `Cache-Control`, HTTP dates, and the LRU bound.
@Suite struct CacheHeaderParsingTests {
    @Test(arguments: [
        ("max-age=60", "max-age", CacheControl.Seconds.valid(60)),
        ("MAX-AGE = 60", "max-age", .valid(60)),
        ("max-age=\"60\"", "max-age", .valid(60)),
        ("no-cache, max-age=0", "max-age", .valid(0)),
        ("max-age", "max-age", .invalid),
        ("max-age=", "max-age", .invalid),
        ("max-age=-5", "max-age", .invalid),
        ("max-age=5s", "max-age", .invalid),
        ("max-age=1, max-age=2", "max-age", .invalid),
        ("max-age=1, max-age=1", "max-age", .valid(1)),
        ("max-age=4294967296", "max-age", .valid(2_147_483_648)),
        ("private=\"a, max-age=9\"", "max-age", .absent),
        ("", "max-age", .absent),
        ("s-maxage=7, \u{0}, ", "s-maxage", .valid(7)),
    ])
    func readsDeltaSeconds(_ header: String, _ directive: String, _ expected: CacheControl.Seconds) {
        #expect(CacheControl(header).seconds(directive) == expected)
    }

    @Test func readsFlagsInAnyCaseAndQuotedListsAsOneElement() {
        let control = CacheControl("Public, NO-CACHE=\"Set-Cookie, X-A\", must-revalidate")
        #expect(control.has("public") && control.has("no-cache") && control.has("must-revalidate"))
        #expect(!control.has("set-cookie") && !control.has("x-a\""))
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("Fri, 15 Jan 2027 08:00:00 GMT", 1_800_000_000),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
    ])
    func readsTheThreeDateForms(_ text: String, _ seconds: TimeInterval) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "0", "-1", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", String(repeating: "Sun, ", count: 100),
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func writesIMFFixdateThatReadsBack() {
        for seconds in [0.0, 784_111_777, 1_800_000_000, 4_102_444_800, -1] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date, "\(HTTPDate.format(date))")
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1e15)).hasSuffix("9999 23:59:59 GMT"))
    }

    @Test func theLeastRecentlyUsedEntriesLeaveFirst() {
        var store = LRUStore<String, Int>(capacity: 10)
        store.insert(1, for: "a", cost: 4)
        store.insert(2, for: "b", cost: 4)
        _ = store.value(for: "a")
        let evicted = store.insert(3, for: "c", cost: 4)
        #expect(evicted == ["b"])
        #expect(store.peek("a") == 1 && store.peek("c") == 3 && store.totalCost == 8)
        #expect(store.insert(4, for: "d", cost: 11).isEmpty && store.peek("d") == nil, "larger than the whole bound")
        store.insert(5, for: "a", cost: 1)
        #expect(store.totalCost == 5 && store.count == 2)
        store.removeAll()
        #expect(store.count == 0 && store.totalCost == 0)
    }

    /// Reading the newest entry again (the fast path: nothing moves) keeps the order, so the oldest still leaves first.
    @Test func readingTheNewestEntryKeepsTheOrder() {
        var store = LRUStore<String, Int>(capacity: 3)
        store.insert(1, for: "a", cost: 1)
        store.insert(2, for: "b", cost: 1)
        store.insert(3, for: "c", cost: 1)
        #expect(store.value(for: "c") == 3 && store.value(for: "c") == 3)
        #expect(store.insert(4, for: "d", cost: 1) == ["a"])
        #expect(store.value(for: "b") == 2)
        #expect(store.insert(5, for: "e", cost: 1) == ["c"])
        #expect(store.count == 3 && store.peek("b") == 2 && store.peek("d") == 4 && store.peek("e") == 5)
    }

    /// Pinned entries (in use) stay beyond the capacity; the idle ones leave, least recently used first.
    @Test func pinnedEntriesStayAndTheOldestIdleOnesLeave() {
        var store = LRUStore<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { store.insert(index, for: key, cost: 1) }
        // "a" (0) is pinned: "b" leaves in its place.
        let evicted = store.insert(3, for: "d", cost: 1) { $0 == 0 }
        #expect(evicted.map(\.key) == ["b"] && store.peek("a") == 0)
        // Everything pinned: the capacity is exceeded rather than an entry in use dropped.
        #expect(store.insert(4, for: "e", cost: 1) { _ in true }.isEmpty && store.count == 4)
        #expect(store.trim { _ in false }.map(\.key) == ["a"] && store.count == 3)
        store.update("c") { $0 = 20 }
        store.update("zz") { $0 = 99 }
        #expect(store.peek("c") == 20 && store.peek("zz") == nil, "an update changes an entry in place, makes none")
        #expect(store.insert(5, for: "f", cost: 1).first == "c", "an update is not a use")
    }

    /// The walk from the oldest removes what it is told to, skips what is kept, and stops where told.
    @Test func evictingFromTheOldestStopsAtTheFirstEntryInTime() {
        var store = LRUStore<String, Int>(capacity: 10)
        for (index, key) in ["a", "b", "c", "d", "e"].enumerated() { store.insert(index, for: key, cost: 1) }
        let removed = store.evictOldest { key, value in
            if key == "b" { return .keep }
            return value < 3 ? .remove : .stop
        }
        #expect(removed.map(\.key) == ["a", "c"])
        #expect(store.count == 3 && store.peek("b") == 1 && store.peek("d") == 3 && store.peek("e") == 4)
    }
}
