import Foundation
import ImageFeedCore
import TerminalImage

/// The splash and the login screens: the logo; "Log in"; then every way to reach the authorize page
/// (the link in full, a QR code, the browser) while the loopback listener waits, and a paste field.
public struct LoginScreen {
    public let theme: Theme
    /// The logo, drawn from `Assets/logo.png` when it is found.
    public let logo: RGBImage?
    /// The logo and the QR code as drawn last, kept by whoever owns the screen (no global state).
    let pictures: LoginPictures
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    public init(theme: Theme, logo: RGBImage?, pictures: LoginPictures = LoginPictures()) {
        self.theme = theme
        self.logo = logo
        self.pictures = pictures
    }

    /// The login's keys (the demo adds approving as the demo user).
    static func keys(demo: Bool) -> [KeyRecord] {
        var records = [
            KeyRecord([(.logIn, [.enter, .character(" ")])], demo ? "log in (the demo: no account needed)" : "log in"),
            KeyRecord([(.copyLink, [.character("y")]), (.openLink, [.character("o")])], "copy the login link to the clipboard; open it here"),
            KeyRecord([(.pasteCode, [.character("p")])], "paste the code the browser shows"),
            KeyRecord([(.back, [.escape])], "back to the first screen"),
        ]
        if demo { records.append(KeyRecord([(.approve, [.character("a")])], "approve as the demo user")) }
        return records + [
            KeyRecord([(.help, [.character("?")])], "this help", hint: "help", rank: 1),
            KeyRecord([(.quit, [.character("q")])], "quit"),
            KeyRecord(fixed: "Ctrl-C", "quit from anywhere", hint: "quit", rank: 2),
        ]
    }

    /// The first key of an intent, as the screen names it.
    private func key(_ intent: Intent) -> String { keys.hintKeys(intent, in: .login) }

    // MARK: Rendering

    public func renderSplash(tick: Int, in area: Rect, into buffer: inout CellBuffer) {
        let below = drawLogo(in: area, maxRows: max(3, area.height - 5), into: &buffer)
        buffer.writeCentered("ImageFeed", in: area, y: below + 1, style: theme.title)
        buffer.writeCentered("\(theme.spinner(tick)) Starting\(theme.dots)", in: area, y: below + 3, style: theme.muted)
    }

    public func render(_ app: AppState, tick: Int, modalFocus: Int, in area: Rect, into buffer: inout CellBuffer) {
        let login = app.login
        switch login.phase {
        case .start:
            // What to do comes before the logo: the logo gives up rows (or goes) so that every line of it shows.
            let problemLines = app.setupProblem.map { Widgets.wrap($0, width: max(20, min(76, area.width - 4))) } ?? []
            let textRows = problemLines.isEmpty ? 7 : 6 + problemLines.count
            let below = drawLogo(in: area, maxRows: max(3, area.height - textRows - 1), textRows: textRows, into: &buffer)
            buffer.writeCentered("ImageFeed", in: area, y: below + 1, style: theme.title)
            buffer.writeCentered("Unsplash photos, in your terminal", in: area, y: below + 2, style: theme.muted)
            if !problemLines.isEmpty {
                // Nothing to log in with: say so at once, and what to do, instead of a failure after Enter. On a short
                // terminal the name's lines give way to it (from the top); what still does not fit ends in an ellipsis.
                var y = below + 4
                var problemLines = problemLines
                var last = area.maxY - 1
                if y + problemLines.count > last {
                    buffer.fill(area)
                    buffer.writeCentered("ImageFeed", in: area, y: area.y, style: theme.title)
                    y = area.y + 1
                    problemLines = Widgets.wrap(app.setupProblem ?? "", width: max(20, area.width - 2))
                    // The status line says how to quit: its row here goes to the text if the text needs it.
                    if y + problemLines.count > last { last = area.maxY }
                }
                for (index, line) in problemLines.enumerated() where y < last {
                    let cut = y == last - 1 && index < problemLines.count - 1
                    buffer.writeCentered(cut ? line + theme.ellipsis : line, in: area, y: y, style: theme.error)
                    y += 1
                }
                if last == area.maxY { break }
                buffer.writeCentered("\(key(.quit)) quit", in: area, y: min(area.maxY - 1, y + 1), style: theme.muted)
                break
            }
            buffer.writeCentered("  Log in  ", in: area, y: below + 4, style: theme.focusedButton)
            buffer.writeCentered("\(key(.logIn)) log in\(app.isDemo ? " to the demo (no account needed)" : "")   \(key(.quit)) quit",
                                 in: area, y: below + 6, style: theme.muted)
        case .preparing:
            centred("\(theme.spinner(tick)) Preparing the login\(theme.dots)", in: area, into: &buffer)
        case let .waiting(request):
            renderWaiting(request, login: login, isDemo: app.isDemo, in: area, into: &buffer)
        case .exchanging:
            centred("\(theme.spinner(tick)) Logging in\(theme.dots)", in: area, into: &buffer)
            buffer.writeCentered("\(key(.back)) cancels   \(key(.quit)) quits", in: area, y: area.y + area.height / 2 + 2, style: theme.muted)
        }
        if let failure = login.failure {
            Widgets.modal(title: "Login failed", message: failure.message, buttons: ["OK"], focused: 0, in: area,
                          theme: theme, into: &buffer)
        } else if app.sessionExpiredNotice {
            Widgets.modal(title: "Session expired", message: "Your session has expired. Log in again to go on.",
                          buttons: ["OK"], focused: 0, in: area, theme: theme, into: &buffer)
        }
    }

    private func centred(_ text: String, in area: Rect, into buffer: inout CellBuffer) {
        buffer.writeCentered(text, in: area, y: area.y + area.height / 2, style: theme.accent)
    }

    /// The logo, centred near the top; returns the line under it.
    @discardableResult
    private func drawLogo(in area: Rect, maxRows: Int, textRows: Int = 7, into buffer: inout CellBuffer) -> Int {
        let rows = min(maxRows, 16)
        guard let logo, rows >= 4 else { return area.y + max(0, (area.height - textRows) / 2) - 1 }
        let picture = Self.logoPicture(logo, columns: min(area.width - 4, 48), rows: rows, theme: theme, pictures: pictures)
        let top = area.y + max(0, (area.height - picture.rows - textRows) / 2)
        buffer.draw(picture, x: area.x + (area.width - picture.columns) / 2, y: top, clip: area)
        return top + picture.rows
    }

    /// The logo drawn to fit; kept while the size stays.
    static func logoPicture(_ logo: RGBImage, columns: Int, rows: Int, theme: Theme, pictures: LoginPictures) -> CellPicture {
        let fitted = CellPicture.fittedSize(pixelWidth: logo.width, pixelHeight: logo.height, columns: columns, rows: rows)
        let key = [fitted.columns, fitted.rows, theme.colorMode.hashValue, theme.unicode ? 1 : 0]
        return pictures.logo(key: key) {
            HalfBlockBlitter(mode: theme.colorMode, unicode: theme.unicode).render(logo, columns: fitted.columns, rows: fitted.rows)
        }
    }

    /// The authorize address as a QR code, or nil when it is too long for one.
    static func qrPicture(_ text: String, colored: Bool, pictures: LoginPictures) -> CellPicture? {
        pictures.qr(text: text, colored: colored) { (try? QRCode(text))?.picture(margin: 2, colored: colored) }
    }

    private func renderWaiting(_ request: LoginRequest, login: LoginState, isDemo: Bool, in area: Rect,
                               into buffer: inout CellBuffer) {
        // Half blocks need Unicode; without it the code is left out (the link is enough).
        let qr = theme.unicode ? Self.qrPicture(request.authorizeURL.absoluteString, colored: theme.hasColor, pictures: pictures) : nil
        // The QR code goes on the right when there is room beside 44 columns of text, else under the text.
        let besideRoom = qr.map { area.width - $0.columns - 4 >= 44 && area.height >= $0.rows + 1 } ?? false
        let textWidth = besideRoom ? area.width - (qr?.columns ?? 0) - 6 : area.width - 4
        var lines: [(String, CellStyle)] = [("Log in to Unsplash", theme.title), ("", .plain)]
        if isDemo {
            // The demo's way in, first and plainly: the rest of the screen is the real login's.
            var demoStyle = theme.accent
            demoStyle.bold = true
            for part in Widgets.wrap("Demo: press \(key(.logIn)) (or \(key(.approve))) to log in as the demo user. No account needed.", width: textWidth) {
                lines.append((part, demoStyle))
            }
            lines.append(("", .plain))
        }
        for part in Widgets.wrap("1. Open this link in a browser, on this machine or any other:", width: textWidth) {
            lines.append((part, .plain))
        }
        var linkStyle = theme.accent
        linkStyle.underline = true
        // The link's rows take the whole width from the first column, with no margin or indent, so a mouse selection
        // of them holds the link and nothing else (y copies it whole).
        let linkWidth = besideRoom ? textWidth + 2 : area.width
        let linkLines = lines.count..<(lines.count + Self.hardWrap(request.authorizeURL.absoluteString, width: linkWidth).count)
        for part in Self.hardWrap(request.authorizeURL.absoluteString, width: linkWidth) {
            lines.append((part, linkStyle))
        }
        lines.append(("   \(key(.copyLink)) copies it   \(key(.openLink)) opens it here", theme.muted))
        let qrLine = lines.count
        if qr != nil {
            lines.append(((besideRoom ? "2. Or scan the QR code with a phone." : "2. Or scan the QR code below with a phone."), .plain))
        } else if !theme.unicode {
            lines.append(("2. (A QR code needs a UTF-8 terminal.)", theme.muted))
        } else {
            lines.append(("2. (The link is too long for a QR code.)", theme.muted))
        }
        if let problem = request.listenerProblem {
            for part in Widgets.wrap("3. \(problem)", width: textWidth) { lines.append((part, theme.error)) }
        } else {
            for part in Widgets.wrap("3. After you approve, the browser comes back to this machine and the login goes on by itself.", width: textWidth) {
                lines.append((part, .plain))
            }
        }
        for part in Widgets.wrap("4. Or paste the code, or the address the browser ended on:", width: textWidth) {
            lines.append((part, .plain))
        }
        let fieldLine = lines.count
        lines.append(("", .plain))
        if let notice = login.notice {
            for part in Widgets.wrap(notice, width: textWidth) { lines.append((part, theme.muted)) }
        }
        // Separated by a bullet: wrapping folds runs of spaces into one.
        var keys = login.editingPaste ? ["Enter submit", "Esc stop pasting"]
            : ["\(key(.copyLink)) copy link", "\(key(.openLink)) open", "\(key(.pasteCode)) paste code", "\(key(.back)) cancel"]
        if isDemo, !login.editingPaste { keys.insert("\(key(.logIn)) or \(key(.approve)) log in (demo)", at: 0) }
        let hints = keys.joined(separator: " \(theme.bullet) ")
        lines.append(("", .plain))
        for part in Widgets.wrap(hints, width: textWidth) { lines.append((part, theme.muted)) }

        // Below the text, the code needs its rows; where they are missing, the second step says so instead.
        if let qr, !besideRoom, area.height - 1 - lines.count < qr.rows {
            // The status line is the one row outside the area.
            lines[qrLine] = ("2. For a QR code to scan, make the terminal \(lines.count + 2 + qr.rows) rows tall (or \(qr.columns + 48)x\(qr.rows + 2)).",
                             theme.muted)
        }
        let x = area.x + 2
        var y = area.y + 1
        for (index, line) in lines.enumerated() where y < area.maxY {
            if linkLines.contains(index) {
                buffer.write(line.0, x: besideRoom ? x : area.x, y: y, style: line.1, maxWidth: linkWidth)
            } else if index == fieldLine {
                drawField(login, x: x + 3, y: y, width: max(10, textWidth - 3), into: &buffer)
            } else {
                buffer.write(line.0, x: x, y: y, style: line.1, maxWidth: textWidth, ellipsis: theme.ellipsis)
            }
            y += 1
        }
        guard let qr else { return }
        if besideRoom {
            let qrX = area.maxX - qr.columns - 2
            buffer.draw(qr, x: qrX, y: area.y + max(0, (area.height - qr.rows) / 2), clip: area)
        } else if area.maxY - y >= qr.rows {
            buffer.draw(qr, x: area.x + (area.width - qr.columns) / 2, y: y, clip: area)
        }
    }

    private func drawField(_ login: LoginState, x: Int, y: Int, width: Int, into buffer: inout CellBuffer) {
        var style = theme.modal
        style.underline = !theme.hasColor
        buffer.fill(Rect(x: x, y: y, width: width, height: 1), with: Cell(" ", style: style))
        let cursor = login.editingPaste ? (theme.unicode ? "▏" : "_") : ""
        // The end of a long paste is what matters (the code sits at the end of an address).
        var shown = login.pasted
        while DisplayWidth.of(shown) + 2 > width, !shown.isEmpty { shown.removeFirst() }
        if shown.isEmpty, !login.editingPaste {
            var muted = style
            muted.dim = true
            buffer.write("press \(key(.pasteCode)) to paste", x: x + 1, y: y, style: muted, maxWidth: width - 1)
        } else {
            buffer.write(shown + cursor, x: x + 1, y: y, style: style, maxWidth: width - 1)
        }
    }

    /// Breaks a long address at any character (it has no spaces), so it is shown in full.
    static func hardWrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var current = ""
        for character in text {
            if current.count == width {
                lines.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    // MARK: Input

    func handle(_ input: InputEvent, intent: Intent?, app: AppState) -> [AppViewModel.Event] {
        let login = app.login
        if login.failure != nil {
            // A dialog: Enter, Esc or a click closes it.
            if case .key(.enter) = input { return [.login(.dismissFailure)] }
            if case .key(.escape) = input { return [.login(.dismissFailure)] }
            if case .mouse(let mouse) = input, mouse.kind == .press { return [.login(.dismissFailure)] }
            return []
        }
        if app.sessionExpiredNotice {
            if case .key(.enter) = input { return [.dismissSessionExpired] }
            if case .key(.escape) = input { return [.dismissSessionExpired] }
            if case .mouse(let mouse) = input, mouse.kind == .press { return [.dismissSessionExpired] }
            return []
        }
        guard case let .key(key) = input else {
            if case .mouse(let mouse) = input, mouse.kind == .press, login.phase == .start { return [.login(.logIn)] }
            return []
        }
        switch login.phase {
        case .start:
            switch intent {
            case .logIn: return app.setupProblem == nil ? [.login(.logIn)] : []
            case .quit, .back: return [.quit]
            default: return []
            }
        case .preparing, .exchanging:
            if intent == .back { return [.login(.cancel)] }
            if intent == .quit { return [.quit] }
            return []
        case .waiting:
            if login.editingPaste {
                // The paste field: every key is text.
                switch key {
                case let .character(character): return [.login(.typed(String(character)))]
                case .backspace: return [.login(.deleteBackward)]
                case .enter: return [.login(.submitPaste)]
                case .escape: return [.login(.editPaste(false))]
                default: return []
                }
            }
            switch intent {
            case .copyLink: return [.login(.copyLink)]
            case .openLink: return [.login(.openInBrowser)]
            // In the demo, Enter logs in (the demo user approves); elsewhere it opens the paste field.
            case .logIn where app.isDemo, .approve where app.isDemo: return [.login(.approveInDemo)]
            case .pasteCode, .logIn: return [.login(.editPaste(true))]
            case .back: return [.login(.cancel)]
            case .quit: return [.quit]
            default: return []
            }
        }
    }
}

extension LoginScreen: Screen {
    var chrome: Chrome { .status }
    func keyContext(_ app: AppState) -> KeyContext { .login }
    func title(_ app: AppState) -> String { "Keys: logging in" }
    func isSubScreen(_ app: AppState) -> Bool { false }
    func dialogIsOpen(_ app: AppState) -> Bool { app.login.failure != nil || app.sessionExpiredNotice || app.login.editingPaste }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? {
        app.login.failure != nil || app.sessionExpiredNotice ? Widgets.dialogHints(["OK"], focused: 0) : nil
    }

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        if app.session == .splash {
            renderSplash(tick: ui.tick, in: area, into: &buffer)
        } else {
            render(app, tick: ui.tick, modalFocus: ui.modalFocus, in: area, into: &buffer)
        }
    }

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        guard app.session == .loggedOut else { return [] } // the splash takes no keys
        return handle(input, intent: intent, app: app)
    }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        app.session == .splash ? ["Ctrl-C quit"] : keys.hints(.login, demo: app.isDemo) { $0 == .help }
    }
}

/// What the login screens draw once and show again: the logo at a size and the QR code of an address. Owned by
/// the app's screen, so drawing keeps no global state.
public final class LoginPictures: @unchecked Sendable {
    private let lock = NSLock()
    private var logoEntry: (key: [Int], picture: CellPicture)?
    private var qrEntry: (text: String, colored: Bool, picture: CellPicture?)?

    public init() {}

    func logo(key: [Int], make: () -> CellPicture) -> CellPicture {
        if let entry = lock.withLock({ logoEntry }), entry.key == key { return entry.picture }
        let picture = make()
        lock.withLock { logoEntry = (key, picture) }
        return picture
    }

    func qr(text: String, colored: Bool, make: () -> CellPicture?) -> CellPicture? {
        if let entry = lock.withLock({ qrEntry }), entry.text == text, entry.colored == colored { return entry.picture }
        let picture = make()
        lock.withLock { qrEntry = (text, colored, picture) }
        return picture
    }
}
