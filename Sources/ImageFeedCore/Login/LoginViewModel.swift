import Foundation

/// One login attempt: the authorize page's address and the `state` it carries.
public struct LoginRequest: Equatable, Sendable {
    public var authorizeURL: URL
    public var state: String
    /// Why no loopback listener waits for the browser (the port is taken, ...): then only pasting works.
    public var listenerProblem: String?

    public init(authorizeURL: URL, state: String, listenerProblem: String? = nil) {
        self.authorizeURL = authorizeURL
        self.state = state
        self.listenerProblem = listenerProblem
    }
}

/// Why a login did not succeed, in words for the error dialog.
public enum LoginFailure: Error, Equatable, Sendable {
    /// No access key (or secret) is configured: what to configure.
    case notConfigured(String)
    case denied(reason: String)
    case stateMismatch
    case missingCode
    case refused(String)
    case timedOut
    case service(ServiceError)

    public var message: String {
        switch self {
        case let .notConfigured(detail): detail
        case let .denied(reason): "The login was not approved: \(UntrustedText.sentence(reason))"
        case .stateMismatch: "The answer did not come from this login attempt (its state did not match). Start the login again."
        case .missingCode: "No authorization code was found. Paste the code, or the whole address the browser was sent to."
        case let .refused(detail): "Unsplash refused the login: \(UntrustedText.sentence(detail))"
        case .timedOut: "The login timed out: no answer came from the browser. Start it again when you are ready."
        case let .service(error): error.message
        }
    }
}

/// The login screen: the logo and "Log in"; then the ways to reach the authorize page (link, QR code,
/// browser) while a loopback listener waits, and a field to paste the code; then the token request.
public struct LoginState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// The logo and the "Log in" button.
        case start
        /// Getting the authorize address ready and starting the listener.
        case preparing
        /// Waiting for the browser (or a pasted code).
        case waiting(LoginRequest)
        /// Asking for the token: the loading screen.
        case exchanging
    }

    public var phase: Phase = .start
    /// The paste field's text, and whether it has the keyboard.
    public var pasted = ""
    public var editingPaste = false
    /// A line under the link: "Link copied", "Opened in your browser".
    public var notice: String?
    /// The error dialog; OK returns to the start.
    public var failure: LoginFailure?

    public init() {}

    public var request: LoginRequest? {
        if case let .waiting(request) = phase { return request }
        return nil
    }
}

public enum LoginViewModel {
    public enum Event: Equatable, Sendable {
        case logIn
        case prepared(Result<LoginRequest, LoginFailure>)
        /// The loopback listener caught the browser's redirect (its whole address).
        case redirectReceived(String)
        case editPaste(Bool)
        case typed(String)
        case deleteBackward
        case submitPaste
        case copyLink
        /// What became of the copy (`ClipboardRoute` decides it as it copies).
        case copied(CopyOutcome)
        case openInBrowser
        case opened(Bool)
        case exchangeFinished(Result<Profile?, LoginFailure>)
        case timedOut
        /// Demo only: let the app play the browser's part on the sandbox's authorize page.
        case approveInDemo
        /// Something on the way failed (the demo's stand-in browser, ...).
        case failed(LoginFailure)
        case cancel
        case dismissFailure
    }

    public enum Effect: Equatable, Sendable {
        /// Make a fresh state and the authorize address, and start the loopback listener.
        case prepare
        case stopListening
        /// Ask for the token with the code; store it.
        case exchange(code: String)
        /// Copy the address to the clipboard (the terminal half answers with `copied`).
        case copy(URL)
        case open(URL)
        /// Open the authorize page and press Login, as the user's browser would (the demo sandbox only).
        case approveInDemo(URL)
    }

    /// The longest paste accepted (a redirect address with a code and a state is far shorter).
    public static let maximumPaste = 2_048

    public static func update(_ state: inout LoginState, _ event: Event) -> [Effect] {
        switch event {
        case .logIn:
            guard state.phase == .start, state.failure == nil else { return [] }
            state.phase = .preparing
            state.notice = nil
            return [.prepare]

        case let .prepared(.success(request)):
            guard state.phase == .preparing else { return [.stopListening] }
            state.phase = .waiting(request)
            state.pasted = ""
            state.editingPaste = false
            return []

        case let .prepared(.failure(failure)):
            guard state.phase == .preparing else { return [] }
            return fail(&state, failure)

        case let .redirectReceived(text):
            guard let request = state.request else { return [] }
            return answer(OAuthRedirect.parse(text), request: request, &state)

        case let .editPaste(editing):
            guard state.request != nil else { return [] }
            state.editingPaste = editing
            return []

        case let .typed(text):
            guard state.request != nil, state.editingPaste else { return [] }
            // Pasted text arrives as keys: only printable characters, and not without end.
            for scalar in text.unicodeScalars where state.pasted.unicodeScalars.count < maximumPaste {
                guard scalar.value >= 0x20, scalar.value != 0x7F, !(0x80...0x9F).contains(scalar.value) else { continue }
                state.pasted.unicodeScalars.append(scalar)
            }
            return []

        case .deleteBackward:
            guard state.editingPaste, !state.pasted.isEmpty else { return [] }
            state.pasted.removeLast()
            return []

        case .submitPaste:
            guard let request = state.request else { return [] }
            let parsed = OAuthRedirect.parse(state.pasted)
            if parsed == .nothing {
                state.notice = LoginFailure.missingCode.message
                return []
            }
            return answer(parsed, request: request, &state)

        case .copyLink:
            guard let request = state.request else { return [] }
            return [.copy(request.authorizeURL)]

        case let .copied(outcome):
            guard state.request != nil else { return [] }
            // The link is on the screen whole (and as a QR code): where the copy stopped short, the fix.
            state.notice = outcome.reached ? outcome.said + "." : outcome.said + (outcome.fix.map { " Fix: \($0)" } ?? "")
            return []

        case .openInBrowser:
            guard let request = state.request else { return [] }
            return [.open(request.authorizeURL)]

        case let .opened(opened):
            guard state.request != nil else { return [] }
            state.notice = opened ? "Opened in your browser." : "No browser here (no display): open the link on another device, or scan the QR code."
            return []

        case let .exchangeFinished(.success(_)):
            guard state.phase == .exchanging else { return [] }
            state = LoginState()
            return []

        case let .exchangeFinished(.failure(failure)):
            guard state.phase == .exchanging else { return [] }
            return fail(&state, failure)

        case .timedOut:
            guard state.request != nil else { return [] }
            return fail(&state, .timedOut)

        case .approveInDemo:
            guard let request = state.request else { return [] }
            state.notice = "Approving in the demo sandbox\u{2026}"
            return [.approveInDemo(request.authorizeURL)]

        case let .failed(failure):
            guard state.request != nil || state.phase == .exchanging else { return [] }
            return fail(&state, failure)

        case .cancel:
            switch state.phase {
            case .waiting:
                if state.editingPaste {
                    state.editingPaste = false
                    return []
                }
                state = LoginState()
                return [.stopListening]
            case .preparing:
                state = LoginState()
                return [.stopListening]
            case .exchanging:
                // A slow token answer need not be waited for: its late answer is dropped (and a token it brought
                // forgotten, by the app).
                state = LoginState()
                return []
            case .start:
                return []
            }

        case .dismissFailure:
            guard state.failure != nil else { return [] }
            state = LoginState()
            return []
        }
    }

    private static func answer(_ redirect: OAuthRedirect, request: LoginRequest, _ state: inout LoginState) -> [Effect] {
        switch redirect {
        case let .code(code, returnedState):
            // A bare pasted code carries no state; anything with a state must carry this attempt's.
            if let returnedState, returnedState != request.state {
                return fail(&state, .stateMismatch)
            }
            state.phase = .exchanging
            state.editingPaste = false
            state.notice = nil
            return [.stopListening, .exchange(code: code)]
        case let .denied(reason):
            return fail(&state, .denied(reason: reason))
        case .nothing:
            return fail(&state, .missingCode)
        }
    }

    private static func fail(_ state: inout LoginState, _ failure: LoginFailure) -> [Effect] {
        let wasListening = state.request != nil || state.phase == .preparing
        state.phase = .start
        state.editingPaste = false
        state.pasted = ""
        state.notice = nil
        state.failure = failure
        return wasListening ? [.stopListening] : []
    }
}
