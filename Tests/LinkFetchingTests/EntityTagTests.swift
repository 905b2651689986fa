import LinkFetching
import Testing

/// Entity tags as `ETag` sends them and `If-None-Match` lists them (RFC 9110 §8.8.3, §13.1.2), and the stable hashes
/// that name files, revisions and tags.
@Suite struct EntityTagTests {
    @Test func aFieldHoldsOneTagStrongOrWeak() {
        #expect(EntityTag(field: #""v1""#) == EntityTag(opaque: "v1"))
        #expect(EntityTag(field: #"  W/"v1" "#) == EntityTag(opaque: "v1", weak: true))
        #expect(EntityTag(field: #""""#) == EntityTag(opaque: ""))
        // A tag its server forgot to quote is read as browsers read it; anything else is no tag.
        #expect(EntityTag(field: "abc") == EntityTag(opaque: "abc"))
        for malformed in ["", "  ", #""a"b"#, #""a", "b""#, #""open"#, "a b", #"W/"x" y"#] {
            #expect(EntityTag(field: malformed) == nil, "\(malformed)")
        }
        #expect(EntityTag(opaque: "x", weak: true).header == #"W/"x""#)
        #expect(EntityTag(opaque: "x").header == #""x""#)
    }

    @Test func weakComparisonIgnoresWeakness() {
        let strong = EntityTag(opaque: "x")
        #expect(strong.matchesWeakly(EntityTag(opaque: "x", weak: true)))
        #expect(!strong.matchesWeakly(EntityTag(opaque: "y")))
    }

    @Test func aListIsAnyOrItsTagsUpToTheFirstMalformedMember() {
        #expect(EntityTag.list([]) == nil)
        #expect(EntityTag.list(["*"]) == .any)
        #expect(EntityTag.list([#""a""#, #" "b" , *"#]) == .any)
        let list = EntityTag.list([#""a", W/"b""#, #""c", d, "e""#])
        #expect(list == .tags([.init(opaque: "a"), .init(opaque: "b", weak: true), .init(opaque: "c")]))
        #expect(list?.lists(EntityTag(opaque: "b")) == true)
        #expect(list?.lists(EntityTag(opaque: "e")) == false)
        #expect(EntityTag.List.any.lists(EntityTag(opaque: "a")) == false)
    }

    @Test func stableHashesAreFNV1aAndHexadecimal() {
        // FNV-1a 64's published values for "" and "a".
        #expect(StableHash.hex("") == "cbf29ce484222325")
        #expect(StableHash.hex("a") == "af63dc4c8601ec8c")
        var pieces = StableHash.FNV1a()
        pieces.combine("fo".utf8)
        pieces.combine("o".utf8)
        #expect(pieces.hex == StableHash.hex("foo"))
        #expect(StableHash.hexadecimal([0x00, 0x0F, 0xAB, 0xFF]) == "000fabff")
    }
}
