import Foundation
import ImageFeedCore
import XCTest

final class LoginViewModelTests: XCTestCase {
    let request = LoginRequest(authorizeURL: URL(string: "https://unsplash.com/oauth/authorize?state=s1")!, state: "s1")

    private func waiting() -> LoginState {
        var state = LoginState()
        _ = LoginViewModel.update(&state, .logIn)
        _ = LoginViewModel.update(&state, .prepared(.success(request)))
        return state
    }

    func test_logIn_prepares_thenWaitsWithTheRequest() {
        var state = LoginState()
        XCTAssertEqual(LoginViewModel.update(&state, .logIn), [.prepare])
        XCTAssertEqual(state.phase, .preparing)
        XCTAssertEqual(LoginViewModel.update(&state, .logIn), [], "a second press starts nothing")
        _ = LoginViewModel.update(&state, .prepared(.success(request)))
        XCTAssertEqual(state.request, request)
    }

    func test_notConfigured_saysWhatToConfigure() {
        var state = LoginState()
        _ = LoginViewModel.update(&state, .logIn)
        _ = LoginViewModel.update(&state, .prepared(.failure(.notConfigured("Set UNSPLASH_ACCESS_KEY."))))
        XCTAssertEqual(state.phase, .start)
        XCTAssertEqual(state.failure?.message, "Set UNSPLASH_ACCESS_KEY.")
    }

    func test_redirectWithTheRightState_exchangesTheCode() {
        var state = waiting()
        let effects = LoginViewModel.update(&state, .redirectReceived("http://127.0.0.1:8765/callback?code=abc&state=s1"))
        XCTAssertEqual(effects, [.stopListening, .exchange(code: "abc")])
        XCTAssertEqual(state.phase, .exchanging)
    }

    /// A slow token answer can be left: Esc cancels, and the late answer logs nobody in (its token is forgotten).
    func test_cancelWhileExchanging_dropsTheLateAnswer_andForgetsItsToken() {
        var app = AppState(session: .loggedOut)
        app.login = waiting()
        _ = AppViewModel.update(&app, .login(.redirectReceived("http://127.0.0.1:8765/callback?code=abc&state=s1")))
        XCTAssertEqual(app.login.phase, .exchanging)
        _ = AppViewModel.update(&app, .login(.cancel))
        XCTAssertEqual(app.login.phase, .start)
        let effects = AppViewModel.update(&app, .login(.exchangeFinished(.success(nil))))
        XCTAssertTrue(effects.contains(.forgetSession), "\(effects)")
        XCTAssertEqual(app.session, .loggedOut)
    }

    func test_redirectWithAnotherState_failsWithAModal_andOKReturnsToTheStart() {
        var state = waiting()
        let effects = LoginViewModel.update(&state, .redirectReceived("http://127.0.0.1:8765/callback?code=abc&state=evil"))
        XCTAssertEqual(effects, [.stopListening])
        XCTAssertEqual(state.failure, .stateMismatch)
        XCTAssertEqual(state.phase, .start)
        _ = LoginViewModel.update(&state, .dismissFailure)
        XCTAssertEqual(state, LoginState())
    }

    func test_redirectWithoutState_isAMismatch() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .redirectReceived("http://127.0.0.1:8765/callback?code=abc"))
        XCTAssertEqual(state.failure, .stateMismatch)
    }

    func test_accessDenied_failsWithTheReason() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .redirectReceived("http://127.0.0.1:8765/callback?error=access_denied&state=s1"))
        XCTAssertEqual(state.failure, .denied(reason: "access was denied"))
    }

    func test_pastedBareCode_isExchanged_pastedAddressIsChecked() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .editPaste(true))
        _ = LoginViewModel.update(&state, .typed("xyz"))
        _ = LoginViewModel.update(&state, .typed("\u{1B}[31m"))
        XCTAssertEqual(state.pasted, "xyz[31m", "control characters never enter the field")
        _ = LoginViewModel.update(&state, .deleteBackward)
        _ = LoginViewModel.update(&state, .deleteBackward)
        _ = LoginViewModel.update(&state, .deleteBackward)
        _ = LoginViewModel.update(&state, .deleteBackward)
        XCTAssertEqual(state.pasted, "xyz")
        XCTAssertEqual(LoginViewModel.update(&state, .submitPaste), [.stopListening, .exchange(code: "xyz")])

        var other = waiting()
        _ = LoginViewModel.update(&other, .editPaste(true))
        _ = LoginViewModel.update(&other, .typed("http://127.0.0.1:8765/callback?code=abc&state=old"))
        _ = LoginViewModel.update(&other, .submitPaste)
        XCTAssertEqual(other.failure, .stateMismatch)
    }

    func test_pastedNonsense_saysSoAndKeepsWaiting() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .editPaste(true))
        _ = LoginViewModel.update(&state, .typed("not a code!"))
        XCTAssertEqual(LoginViewModel.update(&state, .submitPaste), [])
        XCTAssertNotNil(state.request)
        XCTAssertEqual(state.notice, LoginFailure.missingCode.message)
    }

    func test_typingIsIgnored_unlessTheFieldIsEdited_andPasteIsBounded() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .typed("abc"))
        XCTAssertEqual(state.pasted, "")
        _ = LoginViewModel.update(&state, .editPaste(true))
        _ = LoginViewModel.update(&state, .typed(String(repeating: "a", count: 5_000)))
        XCTAssertEqual(state.pasted.count, LoginViewModel.maximumPaste)
    }

    func test_copyAndOpen_giveTheURL() {
        var state = waiting()
        XCTAssertEqual(LoginViewModel.update(&state, .copyLink), [.copy(request.authorizeURL)])
        XCTAssertNil(state.notice, "nothing is said before the copy's outcome")
        _ = LoginViewModel.update(&state, .copied(CopyOutcome(said: "tmux keeps the link", reached: false, fix: "tmux set -s set-clipboard on")))
        XCTAssertEqual(state.notice, "tmux keeps the link Fix: tmux set -s set-clipboard on")
        XCTAssertEqual(LoginViewModel.update(&state, .openInBrowser), [.open(request.authorizeURL)])
        _ = LoginViewModel.update(&state, .opened(false))
        XCTAssertTrue(state.notice?.contains("No browser") == true)
    }

    func test_timeout_failsWithAModal() {
        var state = waiting()
        XCTAssertEqual(LoginViewModel.update(&state, .timedOut), [.stopListening])
        XCTAssertEqual(state.failure, .timedOut)
    }

    func test_cancel_stopsListening_escFirstLeavesThePasteField() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .editPaste(true))
        XCTAssertEqual(LoginViewModel.update(&state, .cancel), [])
        XCTAssertFalse(state.editingPaste)
        XCTAssertEqual(LoginViewModel.update(&state, .cancel), [.stopListening])
        XCTAssertEqual(state.phase, .start)
    }

    func test_exchangeFailure_showsTheError_success_resets() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .redirectReceived("http://x/callback?code=c&state=s1"))
        _ = LoginViewModel.update(&state, .exchangeFinished(.failure(.refused("invalid_grant"))))
        XCTAssertEqual(state.failure, .refused("invalid_grant"))

        var good = waiting()
        _ = LoginViewModel.update(&good, .redirectReceived("http://x/callback?code=c&state=s1"))
        _ = LoginViewModel.update(&good, .exchangeFinished(.success(nil)))
        XCTAssertEqual(good, LoginState())
    }

    func test_lateRedirect_afterCancel_isIgnored() {
        var state = waiting()
        _ = LoginViewModel.update(&state, .cancel)
        XCTAssertEqual(LoginViewModel.update(&state, .redirectReceived("http://x/callback?code=c&state=s1")), [])
        XCTAssertEqual(state.phase, .start)
    }

    func test_redirectParser() {
        XCTAssertEqual(OAuthRedirect.parse(" abc-123_x "), .code("abc-123_x", state: nil))
        XCTAssertEqual(OAuthRedirect.parse("code=abc&state=s"), .code("abc", state: "s"))
        XCTAssertEqual(OAuthRedirect.parse("http://h/cb?state=s&code=a%20b#frag"), .code("a b", state: "s"))
        XCTAssertEqual(OAuthRedirect.parse("http://h/cb?error=access_denied&error_description=User+said+no"),
                       .denied(reason: "User said no"))
        XCTAssertEqual(OAuthRedirect.parse("http://h/cb?state=s"), .nothing)
        XCTAssertEqual(OAuthRedirect.parse(""), .nothing)
        XCTAssertEqual(OAuthRedirect.parse("two words"), .nothing)
    }
}

