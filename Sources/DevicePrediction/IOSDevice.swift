import DomainClaims
import WebLinks

/// An iPhone or iPad: its apps, the domain's apple-app-site-association file as the device holds it, where the tap
/// happens, and the domains the user sent to Safari.
public struct IOSDevice: Sendable {
    /// The file the device holds for the link's domain.
    public enum Association: Sendable {
        /// Not said (`aasa` missing): read from the domain when the caller can (`predict` fetches it), else none.
        case unknown
        /// The device has not fetched one (`"aasa": null`), or the file claims nothing (it is not JSON).
        case none
        /// The file, and the domain it was served for (`domain`; nil: the link's host).
        case file(AppSiteAssociation, domain: String?)

        /// Whether the device file says nothing of the file.
        public var isUnknown: Bool {
            if case .unknown = self { return true }
            return false
        }
    }

    /// The installed apps, in the file's order.
    public var apps: [IOSApp]
    /// The domain's apple-app-site-association file as the device holds it.
    public var association: Association
    /// Where the tap happens (`tappedIn`; default: in another app).
    public var tappedIn: TapPlace
    /// The domains whose links the user chose to open in Safari (`openInSafari`).
    public var openInSafari: [String]

    /// A device.
    public init(
        apps: [IOSApp],
        association: Association = .unknown,
        tappedIn: TapPlace = .app,
        openInSafari: [String] = []
    ) {
        self.apps = apps
        self.association = association
        self.tappedIn = tappedIn
        self.openInSafari = openInSafari
    }
}

/// One installed iOS app.
public struct IOSApp: Sendable, Equatable {
    /// The app ID, `TEAMID.bundle.id` (`appId`).
    public var appID: String
    /// The custom URL schemes it registers (`schemes`).
    public var schemes: [String]
    /// Where the app is in the device file.
    public var pointer: JSONPointer

    /// An app.
    public init(appID: String, schemes: [String] = [], pointer: JSONPointer = .root) {
        self.appID = appID
        self.schemes = schemes
        self.pointer = pointer
    }
}

/// Where a link is opened from on iOS (`tappedIn`: an object with its `kind`, or the kind alone as a string for the
/// places that need no domain).
public enum TapPlace: Sendable, Equatable {
    /// A tap in another app (`{"kind": "app"}`, the default).
    case app
    /// A tap on a page of `domain` in Safari (`{"kind": "safari", "domain": …}`).
    case safari(domain: String)
    /// A tap on a page of `domain` in a web view inside an app (`{"kind": "webView", "domain": …}`).
    case webView(domain: String)
    /// Typed or pasted into Safari's address bar (`{"kind": "addressBar"}`).
    case addressBar
    /// Reached by a redirect or a script rather than a tap (`{"kind": "redirect"}`).
    case redirect

    /// The kinds a device file may name.
    public static let kinds = ["app", "safari", "webView", "addressBar", "redirect"]
}
