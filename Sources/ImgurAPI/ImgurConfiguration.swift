import Foundation

/// Where the Imgur API is and the application's client id (sent as `Authorization: Client-ID …`).
public struct ImgurConfiguration: Sendable, Equatable {
    public static let defaultAPIBase = URL(string: "https://api.imgur.com")!
    public static let defaultImageBase = URL(string: "https://i.imgur.com")!
    public static let defaultPageBase = URL(string: "https://imgur.com")!

    public var apiBase: URL
    /// Where image files are (`<imageBase>/<id>.jpg`); albums name their cover by image id only.
    public var imageBase: URL
    /// Where an image's page is (`<pageBase>/<id>`): the link that share copies.
    public var pageBase: URL
    public var clientID: String
    public var userAgent: String

    public init(apiBase: URL = defaultAPIBase, imageBase: URL = defaultImageBase, pageBase: URL = defaultPageBase,
                clientID: String, userAgent: String = "ImageFeed (terminal)") {
        self.apiBase = apiBase
        self.imageBase = imageBase
        self.pageBase = pageBase
        self.clientID = clientID
        self.userAgent = userAgent
    }
}
