import Foundation

/// The user's session with the photo service, as the shell needs it: whether a token is held, taking one (a
/// login) or dropping it (a logout, an expired session), and the hour's quota the last answer reported.
public protocol ServiceSession: Sendable {
    var isLoggedIn: Bool { get }
    func setToken(_ token: String?)
    var rateLimit: RateLimit? { get }
}
