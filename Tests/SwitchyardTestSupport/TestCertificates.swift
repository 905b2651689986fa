import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made at test time and a server certificate it signed for some host names: what a loopback
/// TLS server (``LoopbackHTTPServer/start(tls:_:)``) presents, and what a client is told to trust
/// (``authorityPEM``), so that tests of `https://example.com/…` run against 127.0.0.1 with real certificate checks.
public struct TestCertificates: Sendable {
    /// The authority's certificate, PEM: what `--trust-ca` is given.
    public let authorityPEM: String
    /// The server's certificate, PEM.
    public let serverPEM: String
    /// The server's private key, PEM.
    public let serverKeyPEM: String
    /// The host names the server's certificate is for.
    public let hosts: [String]

    /// A new authority ("Switchyard Test CA") and a server certificate for `hosts`, valid from an hour ago for a week.
    public init(hosts: [String] = ["example.com"]) throws {
        let now = Date()
        let authorityKey = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName("Switchyard Test CA") }
        let authority = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(authorityKey.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 7 * 86400,
            issuer: authorityName,
            subject: authorityName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey)
        )
        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(serverKey.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 7 * 86400,
            issuer: authorityName,
            subject: try DistinguishedName { CommonName(hosts.first ?? "localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(hosts.map { GeneralName.dnsName($0) })
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey)
        )
        authorityPEM = try authority.serializeAsPEM().pemString
        serverPEM = try server.serializeAsPEM().pemString
        serverKeyPEM = serverKey.pemRepresentation
        self.hosts = hosts
    }

    /// The authority's certificate written to a new temporary file (`--trust-ca FILE`); the caller removes it.
    public func writeAuthority() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-test-ca-\(UUID()).pem")
        try Data(authorityPEM.utf8).write(to: file)
        return file
    }

    /// The server side's TLS context: this certificate and key.
    func serverContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(serverPEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(serverKeyPEM.utf8), format: .pem))
        )
        return try NIOSSLContext(configuration: configuration)
    }
}
