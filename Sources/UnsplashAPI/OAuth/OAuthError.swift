import ImageFeedCore

/// Why a login did not succeed, with a message to show in the error dialog.
public enum OAuthError: Error, Equatable, Sendable {
    /// No access key or secret key is configured, so there is nothing to log in to.
    case notConfigured(String)
    /// The user pressed "deny" on the authorize page, or Unsplash refused (`error=` in the redirect).
    case denied(reason: String)
    /// The redirect's `state` is not the one this login sent: it belongs to another attempt, or to an attacker.
    case stateMismatch
    /// Neither a code nor an error could be found in what was pasted or received.
    case missingCode
    /// The token endpoint refused the code (expired, used twice, or a wrong secret).
    case tokenRefused(String)
    case service(ServiceError)

    public var message: String {
        switch self {
        case let .notConfigured(detail):
            detail
        case let .denied(reason):
            "The login was not approved: \(UntrustedText.sentence(reason))"
        case .stateMismatch:
            "The login answer did not match this login attempt. Start the login again."
        case .missingCode:
            "No authorization code was found. Paste the code, or the whole address the browser was sent to."
        case let .tokenRefused(detail):
            "Unsplash refused the login: \(UntrustedText.sentence(detail))"
        case let .service(error):
            error.message
        }
    }
}
