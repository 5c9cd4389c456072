import Foundation
import ImageFeedCore

/// Where a copy (`y`) goes from this session and how far it gets, decided when the user copies (tmux's
/// `set-clipboard` can change while the program runs) from the same environment the session and `doctor` read.
///
/// OSC 52 asks the terminal to set its clipboard and nothing answers, so a copy straight to the terminal is said as
/// asked, never as done. tmux answers for itself: with `set-clipboard on` it takes OSC 52 into a paste buffer and
/// passes it on to its client's terminal; with `external` (its default) it ignores OSC 52 from programs, so the
/// program sets the buffer itself (`tmux set-buffer -w`, which tmux passes on); with `off` the copy stays in tmux.
public enum ClipboardRoute: Equatable, Sendable {
    /// No multiplexer: OSC 52 to the terminal.
    case terminal
    /// GNU screen passes OSC 52 on only inside its passthrough string (DCS).
    case gnuScreen
    /// tmux, with its `set-clipboard` ("on", "external", "off"); `client`: the attached terminal's TERM (empty when
    /// none is attached); `passesOn`: tmux sends copies to that terminal (`clipboard` among its features).
    case tmux(setting: String, client: String, passesOn: Bool)
    /// tmux did not answer.
    case tmuxSilent

    /// The question put to tmux (`display-message -p`).
    public static let question = "#{set-clipboard}|#{client_termname}|#{client_termfeatures}"

    /// The route for this environment; `ask` puts `display-message -p` arguments to tmux and returns its answer.
    public static func decide(environment: [String: String], ask: ([String]) -> String?) -> ClipboardRoute {
        if Terminals.isGNUScreen(environment) { return .gnuScreen }
        guard Terminals.insideTmux(environment) else { return .terminal }
        guard let answer = ask(TmuxClient.display(question, environment: environment)), let route = parse(answer) else { return .tmuxSilent }
        return route
    }

    /// tmux's answer to `question`.
    static func parse(_ answer: String) -> ClipboardRoute? {
        let fields = answer.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 3, ["on", "external", "off"].contains(fields[0]) else { return nil }
        let features = fields[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return .tmux(setting: String(fields[0]), client: String(UntrustedText.sanitize(String(fields[1])).prefix(60)),
                     passesOn: features.contains("clipboard"))
    }

    /// What a copy does on this route: the sequence for the terminal (nil: none), the tmux command that sets its
    /// buffer (nil: none), and what to tell the user if that went as planned.
    public struct Plan: Equatable, Sendable {
        public var sequence: String?
        public var tmuxArguments: [String]?
        public var outcome: CopyOutcome
    }

    /// The plan for copying `text`, named `what` in what the user is told ("the link").
    public func plan(_ text: String, what: String = "the link") -> Plan {
        let osc52 = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        let fixOn = "tmux set -s set-clipboard on"
        switch self {
        case .terminal:
            return Plan(sequence: osc52, outcome: CopyOutcome(
                said: "Sent to your terminal's clipboard (OSC 52, if it allows)", reached: true))
        case .gnuScreen:
            // screen hands a DCS string's contents to the terminal as they are.
            return Plan(sequence: "\u{1B}P\(osc52)\u{1B}\\", outcome: CopyOutcome(
                said: "Sent through GNU screen to your terminal's clipboard (OSC 52, if it allows)", reached: true))
        case .tmuxSilent:
            return Plan(sequence: osc52, outcome: CopyOutcome(
                said: "tmux did not answer: \(what) may not have reached your clipboard.", reached: false, fix: fixOn))
        case let .tmux(setting, client, passesOn):
            // On: tmux takes OSC 52 itself. External or off: the program sets tmux's buffer (and, unless off, asks tmux
            // to pass it on, as its own copies are).
            let sequence = setting == "on" ? osc52 : nil
            let command: [String]? = setting == "on" ? nil : ["set-buffer"] + (setting == "off" ? [] : ["-w"]) + ["--", text]
            let kept = "tmux keeps \(what) (prefix ] pastes it)"
            if setting == "off" {
                return Plan(sequence: nil, tmuxArguments: command, outcome: CopyOutcome(
                    said: "\(kept), but passes no copy to your clipboard (set-clipboard off).", reached: false, fix: fixOn))
            }
            if client.isEmpty {
                // A detached session: tmux's buffer is as far as any copy goes (there is no terminal to reach).
                return Plan(sequence: sequence, tmuxArguments: command, outcome: CopyOutcome(
                    said: "Copied to tmux's buffer (prefix ] pastes it; no terminal is attached)", reached: true))
            }
            if !passesOn {
                return Plan(sequence: sequence, tmuxArguments: command, outcome: CopyOutcome(
                    said: "\(kept), but does not pass copies to \(client) (no clipboard among its features).", reached: false,
                    fix: "tmux set -as terminal-features ',\(client):clipboard'"))
            }
            return Plan(sequence: sequence, tmuxArguments: command, outcome: CopyOutcome(
                said: "Copied to tmux's buffer (prefix ]) and your clipboard", reached: true))
        }
    }

    /// A line for `doctor`: where a copy goes from here, and the fix where it stops short.
    public var summary: (detail: String, fix: String?) {
        switch self {
        case .terminal: ("OSC 52 to the terminal (nothing answers: a terminal may refuse it)", nil)
        case .gnuScreen: ("OSC 52 through GNU screen's passthrough to the terminal (it may refuse it)", nil)
        case .tmuxSilent: ("tmux did not answer: copies may not reach the clipboard", "tmux set -s set-clipboard on")
        case let .tmux(setting, client, passesOn):
            if setting == "off" {
                ("tmux's set-clipboard is off: copies stay in tmux's paste buffer", "tmux set -s set-clipboard on")
            } else if client.isEmpty {
                ("into tmux's paste buffer (set-clipboard \(setting)); no terminal attached", nil)
            } else if !passesOn {
                ("into tmux's paste buffer; tmux passes no copy to \(client)", "tmux set -as terminal-features ',\(client):clipboard'")
            } else {
                ("into tmux's paste buffer and on to the terminal's clipboard (set-clipboard \(setting)"
                    + (setting == "on" ? ")" : "; the program sets the buffer itself)"), nil)
            }
        }
    }
}

extension ClipboardRoute {
    /// Copies `text` from this session: decides the route, sets tmux's buffer where the route needs it, and returns
    /// the sequence for the terminal (for its one writer) with what to tell the user.
    public static func copy(_ text: String, what: String = "the link", environment: [String: String]) -> (sequence: String?, outcome: CopyOutcome) {
        let route = decide(environment: environment) { TmuxClient.run($0, environment: environment, deadline: 0.5) }
        var plan = route.plan(text, what: what)
        if let arguments = plan.tmuxArguments, TmuxClient.run(arguments, environment: environment, deadline: 0.5) == nil {
            plan.outcome = CopyOutcome(said: "tmux would not take \(what) into its buffer.", reached: false, fix: plan.outcome.fix)
        }
        return (plan.sequence, plan.outcome)
    }
}
