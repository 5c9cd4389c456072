import Foundation

/// How the sandbox behaves: which application it accepts, how logins are approved, quotas, faults.
public struct SandboxSettings: Sendable {
    /// The demo application's keys; `image-feed --demo` uses these.
    public static let demoAccessKey = "demo-access-key"
    public static let demoSecretKey = "demo-secret-key"
    /// The Imgur client id the sandbox's Imgur routes accept; `image-feed --demo` uses it.
    public static let demoImgurClientID = "demo-imgur-client-id"

    public var accessKey: String
    public var secretKey: String
    /// Approves `GET /oauth/authorize` at once, without the page, as the demo account.
    public var autoApprove: Bool
    /// Requests an hour for each access key or token; Unsplash gives a demo application 50.
    public var rateLimit: Int
    public var feedSize: Int
    public var faults: [FaultRule]
    /// The client id the Imgur routes accept.
    public var imgurClientID = demoImgurClientID

    public init(accessKey: String = demoAccessKey, secretKey: String = demoSecretKey, autoApprove: Bool = false,
                rateLimit: Int = 5_000, feedSize: Int = 330, faults: [FaultRule] = []) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.autoApprove = autoApprove
        self.rateLimit = rateLimit
        self.feedSize = feedSize
        self.faults = faults
    }
}
