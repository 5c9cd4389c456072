import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// The login screens and the profile pane, rendered into a cell buffer.
final class LoginAndProfileScreenTests: XCTestCase {
    let request = LoginRequest(authorizeURL: URL(string: "https://unsplash.com/oauth/authorize?client_id=k&state=0123456789abcdef")!,
                               state: "0123456789abcdef")

    func loggedOut() -> AppState {
        AppState(session: .loggedOut)
    }

    func waiting() -> AppState {
        var state = loggedOut()
        _ = AppViewModel.update(&state, .login(.logIn))
        _ = AppViewModel.update(&state, .login(.prepared(.success(request))))
        return state
    }

    func test_splash_showsTheNameAndASpinner() {
        let lines = render(AppState(session: .splash), width: 60, height: 16)
        XCTAssertTrue(lines.contains { $0.contains("ImageFeed") })
        XCTAssertTrue(lines.contains { $0.contains("Starting") })
    }

    func test_start_showsTheLogInButton() {
        let lines = render(loggedOut(), width: 60, height: 16)
        XCTAssertTrue(lines.contains { $0.contains("Log in") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("Enter log in") })
        XCTAssertFalse(lines.contains { $0.contains("1 Feed") }, "no tabs before logging in")
    }

    func test_waiting_showsTheWholeLink_theQRCode_andThePasteField() {
        let lines = render(waiting(), width: 120, height: 44, theme: unicodeTheme)
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("Log in to Unsplash"), text)
        XCTAssertTrue(text.contains(request.authorizeURL.absoluteString), "the link in full\n\(text)")
        XCTAssertTrue(text.contains("█"), "the QR code\n\(text)")
        XCTAssertTrue(text.contains("press p to paste"), text)
        XCTAssertTrue(text.contains("y copies it"), text)
    }

    func test_waiting_onASmallTerminal_saysHowBigTheQRCodeNeedsIt() {
        let text = render(waiting(), width: 80, height: 24, theme: unicodeTheme).joined(separator: "\n")
        let lines = render(waiting(), width: 80, height: 24, theme: unicodeTheme)
        XCTAssertTrue(text.contains("2. For a QR code to scan, make the terminal "), text)
        XCTAssertFalse(text.contains("below"), "no code is below\n\(text)")
        XCTAssertTrue(text.contains("authorize?client_id"), text)
        // The link's rows start at the first column, with no margin.
        XCTAssertTrue(lines.contains { $0.hasPrefix("https://") }, text)
    }

    func test_pasteField_showsWhatIsTyped() {
        var state = waiting()
        _ = AppViewModel.update(&state, .login(.editPaste(true)))
        _ = AppViewModel.update(&state, .login(.typed("abc123")))
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("abc123_"), text)
        XCTAssertTrue(text.contains("Enter submit"), text)
    }

    func test_failure_isAModalWithOK() {
        var state = waiting()
        _ = AppViewModel.update(&state, .login(.redirectReceived("http://127.0.0.1/callback?error=access_denied&state=x")))
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Login failed"), text)
        XCTAssertTrue(text.contains("access was denied"), text)
        XCTAssertTrue(text.contains("OK"), text)
    }

    func test_sessionExpired_isAModalOverTheLoginScreen() {
        var state = AppState(session: .loggedOut)
        state.sessionExpiredNotice = true
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Session expired"), text)
        XCTAssertTrue(text.contains("Your session has expired"), text)
    }

    func test_loginKeys() {
        let screen = AppFrame(theme: asciiTheme)
        var ui = UIState()
        XCTAssertEqual(screen.handle(.key(.enter), app: loggedOut(), ui: &ui, width: 80, height: 24), [.login(.logIn)])
        XCTAssertEqual(screen.handle(.key(.character("q")), app: loggedOut(), ui: &ui, width: 80, height: 24), [.quit])
        let state = waiting()
        XCTAssertEqual(screen.handle(.key(.character("y")), app: state, ui: &ui, width: 80, height: 24), [.login(.copyLink)])
        XCTAssertEqual(screen.handle(.key(.character("o")), app: state, ui: &ui, width: 80, height: 24), [.login(.openInBrowser)])
        XCTAssertEqual(screen.handle(.key(.character("a")), app: state, ui: &ui, width: 80, height: 24), [], "not in the demo")
        var editing = state
        _ = AppViewModel.update(&editing, .login(.editPaste(true)))
        XCTAssertEqual(screen.handle(.key(.character("q")), app: editing, ui: &ui, width: 80, height: 24), [.login(.typed("q"))])
        XCTAssertEqual(screen.handle(.key(.enter), app: editing, ui: &ui, width: 80, height: 24), [.login(.submitPaste)])
    }

    // MARK: The profile

    func profileState(bio: String? = "Likes cats.", likes: [Photo] = []) -> AppState {
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .profile(.loaded(.success(User(id: "u", username: "dana", name: "Dana", bio: bio, totalLikes: likes.count)))))
        _ = AppViewModel.update(&state, .favorites(.pageLoaded(page: 1, .success(Page(items: likes, number: 1, perPage: 30, totalItems: likes.count, nextPage: nil)))))
        return state
    }

    func test_profile_showsNameUsernameBio_andTheFavoritesCount() {
        let lines = render(profileState(likes: [photo("f", liked: true)]), width: 80, height: 30)
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("Dana"), text)
        XCTAssertTrue(text.contains("@dana"), text)
        XCTAssertTrue(text.contains("Likes cats."), text)
        XCTAssertTrue(text.contains("Favorites 1"), text)
        XCTAssertTrue(text.contains("<3 3  Photo by Ann Author on Unsplash"), "the liked photo as a card\n\(text)")
        XCTAssertTrue(text.contains("L log out"), text)
    }

    /// After a resize the selected favorite stays in view (the pane went blank at 40x12 with the last one
    /// selected, or cut the selected card at 200x60).
    func test_profile_resize_keepsTheSelectedFavoriteInView() {
        let likes = (0..<6).map { photo("f\($0)", liked: true, author: "Author \($0)") }
        let state = profileState(likes: likes)
        let screen = AppFrame(theme: asciiTheme)
        var ui = UIState()
        _ = screen.handle(.key(.end), app: state, ui: &ui, width: 200, height: 60)
        XCTAssertEqual(ui.favoritesList.selected, 5)
        for (width, height) in [(40, 12), (200, 60), (80, 24)] {
            _ = screen.handle(.resize, app: state, ui: &ui, width: width, height: height)
            let text = render(state, ui: ui, width: width, height: height).joined(separator: "\n")
            XCTAssertTrue(text.contains("Author 5"), "\(width)x\(height): the selected favorite shows\n\(text)")
        }
    }

    func test_profile_withoutBio_showsAPlaceholder_andNoFavoritesSaysSo() {
        let text = render(profileState(bio: nil), width: 80, height: 30).joined(separator: "\n")
        XCTAssertTrue(text.contains("No bio yet."), text)
        XCTAssertTrue(text.contains("No favorites yet."), text)
        XCTAssertTrue(text.contains("Favorites 0"), text)
    }

    func test_profileFailure_showsAPlaceholderAvatar_noName_andRetry() {
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .profile(.loaded(.failure(.server(status: 500)))))
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Couldn't load your profile."), text)
        XCTAssertTrue(text.contains("Press r to try again."), text)
        XCTAssertTrue(text.contains("?"), "the placeholder avatar")
        XCTAssertFalse(text.contains("@"), text)
        var ui = UIState()
        XCTAssertEqual(AppFrame(theme: asciiTheme).handle(.key(.character("r")), app: state, ui: &ui, width: 80, height: 24),
                       [.profile(.retry)])
    }

    func test_logout_asksYesOrNo_withNoFocused() {
        var state = profileState()
        var ui = UIState()
        let screen = AppFrame(theme: asciiTheme)
        XCTAssertEqual(screen.handle(.key(.character("L")), app: state, ui: &ui, width: 80, height: 24), [.profile(.logOutPressed)])
        _ = AppViewModel.update(&state, .profile(.logOutPressed))
        let text = render(state, ui: ui, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Log out?"), text)
        XCTAssertTrue(text.contains("Yes") && text.contains("No"), text)
        XCTAssertEqual(screen.handle(.key(.enter), app: state, ui: &ui, width: 80, height: 24), [.profile(.logOutAnswered(false))],
                       "Enter alone does not log out")
        XCTAssertEqual(screen.handle(.key(.character("y")), app: state, ui: &ui, width: 80, height: 24), [.profile(.logOutAnswered(true))])
    }
}
