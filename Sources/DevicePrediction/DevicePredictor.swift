import WebLinks

/// Decides what a tap on a link opens on a device, and why: Android 12 and later, as the platform's resolver and domain
/// verification decide, or iOS, as universal links open (the catalog's overview lists every rule). Synchronous and
/// offline: what was read from the network comes in as ``PredictionEvidence``.
public enum DevicePredictor {
    /// The prediction for `link` on `device`, with what was read about its domains.
    public static func predict(
        _ link: TappedLink,
        on device: Device,
        evidence: PredictionEvidence = PredictionEvidence()
    ) -> Prediction {
        switch device {
        case .android(let android):
            var resolver = AndroidResolver(link: link, device: android, evidence: evidence)
            return resolver.predict()
        case .ios(let ios):
            var resolver = IOSResolver(link: link, device: ios, evidence: evidence)
            return resolver.predict()
        }
    }

    /// The prediction for `link` on `device`, reading what the device does not give (a derived Android verification's
    /// assetlinks.json, an iPhone's missing apple-app-site-association file) through `source` (nil: nothing is read).
    public static func predict(
        _ link: TappedLink,
        on device: Device,
        reading source: (any DomainFileReading)?
    ) async -> Prediction {
        let evidence = await PredictionEvidence.read(for: link, on: device, from: source)
        return predict(link, on: device, evidence: evidence)
    }
}
