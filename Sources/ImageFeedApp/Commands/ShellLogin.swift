import Foundation
import ImageFeedCore
import TerminalImage
import UnsplashAPI

/// `image-feed login` and `image-feed logout`: the same OAuth flow as the login screen, from the shell.
public enum ShellLogin {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Prints the authorize link and its QR code, then waits for the browser's redirect on the loopback
    /// listener or a code pasted on standard input, whichever comes first; stores the token.
    /// The rows a terminal needs to show the QR code with the link and the prompt below it, when this one has fewer
    /// (or too few columns); nil when the code fits, or standard output is not a terminal.
    static func qrRowsMissing(picture: (columns: Int, rows: Int), linkRows: Int,
                              terminal: (columns: Int, rows: Int)? = TerminalEnvironment.size()) -> Int? {
        guard let terminal else { return nil }
        // The code and its heading, the link's heading, the link, the waiting line, the prompt and the line typed.
        let needed = picture.rows + 3 + 2 + linkRows + 1 + 3
        return terminal.rows >= needed && terminal.columns >= picture.columns ? nil : needed
    }

    public static func logIn(context: CompositionRoot, colors: Bool, timeout: TimeInterval = 600) async throws -> String {
        guard let store = context.tokenStore else {
            throw Failure(description: "IMAGE_FEED_TOKEN is set, so no login is stored; unset it to log in.")
        }
        if context.isDemo {
            // The demo's login as its full screen does it (its own browser approves), kept in the demo's own file.
            let token: String
            do {
                token = try await context.logInToDemo()
            } catch {
                throw Failure(description: error.message)
            }
            try store.saveToken(token)
            let me = try? await context.client.me()
            return "Logged in to the demo as @\(UntrustedText.sanitize(me?.username ?? "demo")) (kept for image-feed --demo)."
        }
        let state = OAuthClient.makeState()
        let url: URL
        do {
            url = try context.oauth.authorizeURL(state: state)
        } catch {
            throw Failure(description: error.message)
        }
        // One unbroken line (the terminal wraps it softly, so a mouse selection copies it whole), and on a
        // terminal an OSC 8 hyperlink as well, which terminals that know it open or copy with a click.
        let link = colors ? "\u{1B}]8;;\(url.absoluteString)\u{1B}\\\(url.absoluteString)\u{1B}]8;;\u{1B}\\" : url.absoluteString
        var out = ""
        // The QR code first, and only where the terminal has room for it and the link below it: the link is what
        // must stay in sight, right above the prompt.
        if let code = try? QRCode(url.absoluteString) {
            let picture = code.picture(margin: 2, colored: colors)
            let linkRows = TerminalEnvironment.size().map { (url.absoluteString.count + $0.columns - 1) / $0.columns } ?? 3
            if let rows = qrRowsMissing(picture: (columns: picture.columns, rows: picture.rows), linkRows: linkRows) {
                out += "(A QR code of the link needs a terminal of \(rows) rows and \(picture.columns) columns; it is left out.)\n\n"
            } else {
                out += "Scan this with a phone to log in:\n\n" + ANSIPictureWriter.text(picture) + "\n"
            }
        }
        out += "Open this link in a browser, on this machine or any other, to log in:\n\n\(link)\n\n"
        let answer = Answer()
        do {
            let listener = try LoopbackRedirectListener(redirectURI: context.configuration.redirectURI, expectedState: state)
            answer.listener = listener
            listener.start(timeout: timeout) { outcome in
                switch outcome {
                case let .redirect(address): answer.give(.success(address))
                case .timedOut: answer.give(.failure(Failure(description: LoginFailure.timedOut.message)))
                case .stopped: break
                }
            }
            out += "Waiting for the browser to come back to \(context.configuration.redirectURI)\u{2026}\n"
        } catch {
            out += "\(error.description)\n"
        }
        out += "Or paste the code (or the address the browser ended on) here and press Enter:\n"
        // A standard output that is gone fails this write quietly (`write(_:)` would trap); the login goes on.
        try? FileHandle.standardOutput.write(contentsOf: Data(out.utf8))
        let reader = Thread {
            while let line = readLine() {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    answer.give(.success(line))
                    return
                }
            }
            answer.give(.failure(Failure(description: "No code was given.")))
        }
        reader.start()
        let text = try await answer.value()
        answer.listener?.stop()
        let code: String
        switch OAuthRedirect.parse(text) {
        case let .code(value, returnedState):
            if let returnedState, returnedState != state { throw Failure(description: LoginFailure.stateMismatch.message) }
            code = value
        case let .denied(reason):
            throw Failure(description: LoginFailure.denied(reason: reason).message)
        case .nothing:
            throw Failure(description: LoginFailure.missingCode.message)
        }
        let token: OAuthToken
        do {
            token = try await context.oauth.exchange(code: code)
        } catch {
            throw Failure(description: error.message)
        }
        try store.saveToken(token.accessToken)
        context.client.setToken(token.accessToken)
        if let me = try? await context.client.me() {
            return "Logged in as @\(UntrustedText.sanitize(me.username))."
        }
        return "Logged in."
    }

    /// Removes the stored token.
    public static func logOut(context: CompositionRoot) throws -> String {
        guard let store = context.tokenStore else {
            throw Failure(description: "IMAGE_FEED_TOKEN is set; unset it to log out.")
        }
        let had = (try? store.loadToken()) != nil
        try store.removeToken()
        return had ? "Logged out: the token was removed." : "Not logged in."
    }

    /// The first answer from the listener or the keyboard.
    final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<String, Error>?
        private var continuation: CheckedContinuation<String, Error>?
        var listener: LoopbackRedirectListener?

        func give(_ value: Result<String, Error>) {
            let waiting: CheckedContinuation<String, Error>? = lock.withLock {
                guard result == nil else { return nil }
                result = value
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(with: value)
        }

        func value() async throws -> String {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<String, Error>? = lock.withLock {
                    if result == nil { self.continuation = continuation }
                    return result
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
