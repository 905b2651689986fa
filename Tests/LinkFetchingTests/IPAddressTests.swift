import LinkFetching
import Testing

@Suite struct IPAddressTests {
    @Test(arguments: [
        "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "100.127.255.255",
        "169.254.169.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
        "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9",
        "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "2001:db8::1",
        "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1",
        "2002:7f00:1::", "::127.0.0.1",
    ])
    func blocksNonPublicAddresses(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(!address.isPublic, "\(text) should be blocked")
        #expect(address.nonPublicReason != nil)
    }

    @Test(arguments: [
        "93.184.216.34", "8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
        "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
    ])
    func allowsPublicAddresses(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.isPublic, "\(text) should be public: \(address.nonPublicReason ?? "")")
    }

    @Test(arguments: ["2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "example.com", "[::1]", "", "1.2.3.4.5"])
    func parsesOnlyCanonicalLiterals(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test func printsCanonicalText() throws {
        #expect(try #require(IPAddress("::ffff:7f00:1")).embeddedIPv4 == .v4(127, 0, 0, 1))
        #expect(try #require(IPAddress("127.0.0.1")).description == "127.0.0.1")
        #expect(try #require(IPAddress("0:0::1")).description == "::1")
    }

    @Test func systemResolverTurnsLenientSpellingsIntoLoopback() async throws {
        for spelling in ["2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1"] {
            let addresses = try await HostResolver.system.resolve(spelling)
            #expect(addresses == [.v4(127, 0, 0, 1)], "\(spelling)")
        }
    }
}
