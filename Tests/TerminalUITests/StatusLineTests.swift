import Foundation
import ImageFeedCore
@testable import TerminalUI
import XCTest

/// What the status line says: a dialog's own keys under a dialog, the connection as the last answer left it (a
/// quota's end when it passes), each service's own allowance beside its own pane, keys beside a short notice.
final class StatusLineTests: XCTestCase {
    private func statusLine(_ state: AppState, ui: UIState = UIState(), width: Int = 80, height: Int = 24) -> String {
        render(state, ui: ui, width: width, height: height).last ?? ""
    }

    /// Under a dialog the pane's keys do nothing: the status line shows the dialog's.
    func test_underADialog_theDialogsKeysShow() {
        var state = loadedState([photo("a"), photo("b")])
        state.feed.modal = .likeFailed(photoID: "a", liked: true, .server(status: 503))
        var line = statusLine(state)
        XCTAssertTrue(line.contains("Enter try again") && line.contains("Esc cancel"), line)
        XCTAssertFalse(line.contains("help"), "the pane's keys are not offered under the dialog: \(line)")
        var ui = UIState()
        ui.modalFocus = 1
        line = statusLine(state, ui: ui)
        XCTAssertTrue(line.contains("Enter/Esc cancel"), "Enter presses the focused button: \(line)")

        // A refusal that trying again cannot help has one button.
        state.feed.modal = .likeFailed(photoID: "a", liked: true, .rateLimited(limit: 50, resetsAt: nil))
        XCTAssertTrue(statusLine(state).contains("Enter/Esc ok"), statusLine(state))

        // Logging out: y and n answer, Enter presses the focused one ("No" first).
        state.feed.modal = nil
        _ = AppViewModel.update(&state, .selectTab(.profile))
        state.profile.confirmingLogout = true
        ui.modalFocus = 1
        line = statusLine(state, ui: ui)
        XCTAssertTrue(line.contains("y yes") && line.contains("n/Enter/Esc no"), line)

        // The viewer's own status line does the same.
        state.profile.confirmingLogout = false
        _ = AppViewModel.update(&state, .selectTab(.feed))
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        state.viewer?.modal = .downloadFailed("The disk is full.")
        line = statusLine(state)
        XCTAssertTrue(line.contains("Enter try again") && line.contains("Esc cancel"), line)
        XCTAssertFalse(line.contains("zoom"), line)
    }

    /// The quota's state shows until its time and goes then, with the count it used up; the time is the minute
    /// at or after the reset.
    func test_rateLimited_showsUntilItsTime_thenGoes() throws {
        var state = loadedState([photo("a")])
        var parts = DateComponents()
        parts.hour = 9
        parts.minute = 41
        parts.second = 30
        let reset = try XCTUnwrap(Calendar.current.date(from: parts))
        state.rateLimit = RateLimit(limit: 50, remaining: 0)
        _ = AppViewModel.update(&state, .feed(.load))
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .failure(.rateLimited(limit: 50, resetsAt: reset)))))
        var line = statusLine(state)
        XCTAssertTrue(line.hasPrefix(" Rate limited until 09:42: couldn't reload the feed."), "the time first: \(line)")
        XCTAssertTrue(line.contains("rate limited until 09:42"), line)
        let wide = statusLine(state, width: 110)
        XCTAssertTrue(wide.contains("? help"), "a one-line notice leaves the first keys where they fit: \(wide)")
        XCTAssertFalse(line.contains("quota"), "no count beside the state it explains: \(line)")
        state.notice = nil
        _ = AppViewModel.update(&state, .rateLimitPassed(reset))
        line = statusLine(state)
        XCTAssertFalse(line.contains("rate limited"), line)
        XCTAssertFalse(line.contains("quota 0/50"), line)
    }

    /// Beside an outage the quota (counted by an earlier answer) says nothing true: it goes.
    func test_quota_notBesideAFailingService() {
        var state = loadedState([photo("a")])
        state.rateLimit = RateLimit(limit: 50, remaining: 48)
        state.connection = .online
        XCTAssertTrue(statusLine(state).contains("quota 48/50"))
        state.connection = .failing("service failing")
        XCTAssertFalse(statusLine(state).contains("quota"), statusLine(state))
        XCTAssertTrue(statusLine(state).contains("service failing"))
    }

    /// On the Albums pane, Imgur's credits show, not Unsplash's state or quota.
    func test_albums_showImgursCredits_notUnsplashs() {
        var state = loadedState([photo("a")])
        state.albumsEnabled = true
        state.rateLimit = RateLimit(limit: 50, remaining: 48)
        state.connection = .failing("service failing")
        _ = AppViewModel.update(&state, .albumCredits(RateLimit(limit: 12500, remaining: 12400)))
        _ = AppViewModel.update(&state, .selectTab(.albums))
        let line = statusLine(state)
        XCTAssertTrue(line.contains("Imgur 12400/12500 credits"), line)
        XCTAssertFalse(line.contains("quota") || line.contains("service failing"), line)
    }
}
