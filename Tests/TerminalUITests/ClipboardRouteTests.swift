import Foundation
import ImageFeedCore
@testable import TerminalUI
import XCTest

/// Where a copy goes, by what tmux (or screen, or nothing) says: never a copy claimed that did not happen.
final class ClipboardRouteTests: XCTestCase {
    let link = "https://unsplash.com/photos/v?utm_source=image_feed"

    func route(_ environment: [String: String], answer: String?) -> (ClipboardRoute, [[String]]) {
        var asked: [[String]] = []
        let route = ClipboardRoute.decide(environment: environment) { asked.append($0); return answer }
        return (route, asked)
    }

    func test_outsideAMultiplexer_OSC52IsAsked_andSaidAsAsked() {
        let (route, asked) = route(["TERM": "xterm-256color"], answer: nil)
        XCTAssertEqual(route, .terminal)
        XCTAssertEqual(asked, [])
        let plan = route.plan(link)
        XCTAssertEqual(plan.sequence, "\u{1B}]52;c;\(Data(link.utf8).base64EncodedString())\u{07}")
        XCTAssertNil(plan.tmuxArguments)
        XCTAssertTrue(plan.outcome.said.contains("if it allows"), plan.outcome.said)
    }

    func test_GNUScreen_wrapsOSC52InItsPassthrough() {
        let (route, _) = route(["TERM": "screen", "STY": "1.pts-0"], answer: nil)
        XCTAssertEqual(route, .gnuScreen)
        XCTAssertEqual(route.plan(link).sequence, "\u{1B}P\u{1B}]52;c;\(Data(link.utf8).base64EncodedString())\u{07}\u{1B}\\")
    }

    func test_tmux_external_setsItsBufferItself_andPassesItOn() {
        let (route, asked) = route(["TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%3"], answer: "external|xterm-kitty|256,RGB,clipboard,title\n")
        XCTAssertEqual(asked, [["display-message", "-p", "-t", "%3", ClipboardRoute.question]])
        XCTAssertEqual(route, .tmux(setting: "external", client: "xterm-kitty", passesOn: true))
        let plan = route.plan(link)
        XCTAssertNil(plan.sequence, "tmux ignores a program's OSC 52 with set-clipboard external")
        XCTAssertEqual(plan.tmuxArguments, ["set-buffer", "-w", "--", link])
        XCTAssertTrue(plan.outcome.reached)
    }

    func test_tmux_on_takesOSC52() {
        let (route, _) = route(["TMUX": "/tmp/t,1,0"], answer: "on|xterm-256color|clipboard")
        let plan = route.plan(link)
        XCTAssertNotNil(plan.sequence)
        XCTAssertNil(plan.tmuxArguments)
        XCTAssertTrue(plan.outcome.reached)
    }

    func test_tmux_whereTheCopyStopsShort_saysWhy_andTheFix() {
        let off = route(["TMUX": "/tmp/t,1,0"], answer: "off|xterm-256color|clipboard").0.plan(link)
        XCTAssertEqual(off.tmuxArguments, ["set-buffer", "--", link], "off: tmux's buffer only, not sent on")
        XCTAssertFalse(off.outcome.reached)
        XCTAssertEqual(off.outcome.fix, "tmux set -s set-clipboard on")
        let noFeature = route(["TMUX": "/tmp/t,1,0"], answer: "external|st-256color|256,title").0.plan(link)
        XCTAssertFalse(noFeature.outcome.reached)
        XCTAssertEqual(noFeature.outcome.fix, "tmux set -as terminal-features ',st-256color:clipboard'")
        let detached = route(["TMUX": "/tmp/t,1,0"], answer: "external||").0.plan(link)
        XCTAssertTrue(detached.outcome.reached, "a detached session: tmux's buffer is as far as a copy goes")
        XCTAssertEqual(detached.tmuxArguments, ["set-buffer", "-w", "--", link])
        let silent = route(["TMUX": "/tmp/t,1,0"], answer: nil)
        XCTAssertEqual(silent.0, .tmuxSilent)
        XCTAssertFalse(silent.0.plan(link).outcome.reached)
        XCTAssertEqual(route(["TMUX": "/tmp/t,1,0"], answer: "junk").0, .tmuxSilent)
    }
}
