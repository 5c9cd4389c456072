import ImageFeedCore

/// What the root draws around the screen in front: the tab bar, the status line (the screen's hints on the left,
/// the connection and the quota on the right) and, when the terminal is too small, the notice instead of all.
struct ChromeView {
    let theme: Theme

    /// What the status line keeps for the connection and the quota ("online  quota 4999/5000").
    static let statusRoom = 25
    /// The most rows a notice takes (the status line and the rows above it).
    static let noticeRows = 3

    /// The tab bar's tabs, with where each is drawn (for clicks).
    func tabRects(_ tabs: [Tab], width: Int) -> [(Tab, Rect)] {
        // The name goes first when there is room for it and the tabs.
        var x = showsBrand(tabs, width: width) ? DisplayWidth.of(" ImageFeed ") + 1 : 0
        return tabs.map { tab in
            let label = " \(tab.rawValue + 1) \(tab.title) "
            let rect = Rect(x: x, y: 0, width: DisplayWidth.of(label), height: 1)
            x += rect.width + 1
            return (tab, rect)
        }
    }

    func showsBrand(_ tabs: [Tab], width: Int) -> Bool {
        let tabsWidth = tabs.reduce(0) { $0 + DisplayWidth.of(" \($1.rawValue + 1) \($1.title) ") + 1 }
        return DisplayWidth.of(" ImageFeed ") + 1 + tabsWidth <= width
    }

    /// `position`: where the selection is in the list shown ("7/30+"), at the bar's right end where there is room, as
    /// ranger, tig and htop say it.
    func renderTabBar(_ app: AppState, position: String? = nil, into buffer: inout CellBuffer) {
        buffer.fill(Rect(x: 0, y: 0, width: buffer.width, height: 1), with: Cell(" ", style: theme.bar))
        var brand = theme.bar
        brand.bold = true
        if showsBrand(app.tabs, width: buffer.width) { buffer.write(" ImageFeed ", x: 0, y: 0, style: brand) }
        var end = 0
        for (tab, rect) in tabRects(app.tabs, width: buffer.width) {
            buffer.write(" \(tab.rawValue + 1) \(tab.title) ", x: rect.x, y: 0, style: tab == app.tab ? theme.activeTab : theme.bar)
            end = max(end, rect.x + rect.width)
        }
        if let position, buffer.width - DisplayWidth.of(position) - 1 > end + 1 {
            buffer.write(position, x: buffer.width - DisplayWidth.of(position) - 1, y: 0, style: theme.bar)
        }
    }

    func renderTooSmall(into buffer: inout CellBuffer) {
        let lines = ["Terminal too small", "Needs \(AppFrame.minimumWidth)x\(AppFrame.minimumHeight), is \(buffer.width)x\(buffer.height).",
                     "Enlarge it, or press q."]
        let top = max(0, (buffer.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            buffer.writeCentered(line, in: buffer.bounds, y: top + index, style: index == 0 ? theme.error : .plain)
        }
    }

    /// "7/30" for the 7th of 30 photos, "7/30+" while more pages can come.
    static func position(_ selected: Int, of list: PhotoListState) -> String? {
        guard !list.photos.isEmpty else { return nil }
        return "\(min(selected, list.photos.count - 1) + 1)/\(list.photos.count)\(list.nextPageNumber == nil ? "" : "+")"
    }

    /// A hint's arrows, in words where the terminal draws ASCII only.
    private func spellArrows(_ hint: String) -> String {
        theme.unicode ? hint : hint.replacingOccurrences(of: "↑↓←→", with: "arrows").replacingOccurrences(of: "↑↓", with: "j/k")
            .replacingOccurrences(of: "←→", with: "arrows")
    }

    func renderStatusLine(_ app: AppState, hints: [String], into buffer: inout CellBuffer) {
        let y = buffer.height - 1
        let width = buffer.width
        buffer.fill(Rect(x: 0, y: y, width: width, height: 1), with: Cell(" ", style: theme.bar))
        // The right-hand side: what must show (offline, failing, saved), then what may give way (online, the quota).
        var needed: (text: String, style: CellStyle)?
        var optional: [String] = []
        var errorOnBar = theme.error
        errorOnBar.background = theme.bar.background
        let shownList: PhotoListState? = switch Front.of(app) {
        case .login, .viewer: nil
        case .detail, .sheet, .pane: app.tab == .search ? app.search.results : app.photos(in: app.tab)
        }
        let front = Front.of(app)
        if app.tab == .albums, front != .login {
            // Imgur's albums: Unsplash's state and quota are not about them; Imgur's daily credits are.
            if let credits = app.albumCredits { optional.append("Imgur \(credits.remaining)/\(credits.limit) credits") }
        } else if let savedAt = shownList?.savedAt {
            // What is on screen came from the offline store: say so, and from when.
            let when = CivilTime.localDayAndTime(savedAt)
            if case .offline = app.connection {
                needed = ("offline \(theme.unicode ? "—" : "-") saved \(when)", errorOnBar)
            } else if shownList?.nextPage == .loading(page: 1) {
                needed = ("saved \(when), refreshing", theme.bar)
            } else {
                // Back online, but this list still is the saved one (its refresh failed): r asks again.
                needed = ("saved \(when), \(theme.key(.reload)) reloads", theme.bar)
            }
        } else {
            switch app.connection {
            case .online: optional.append("online")
            case .offline: needed = ("offline", errorOnBar)
            case let .failing(what): needed = (what, errorOnBar)
            case let .rateLimited(until): needed = (until.map { "rate limited until \(CivilTime.localClockUp($0))" } ?? "rate limited", errorOnBar)
            case .unknown: break
            }
        }
        // The quota beside an answer that counted it: not beside an outage it says nothing about.
        if app.tab != .albums || front == .login, let limit = app.rateLimit, [.online, .unknown].contains(app.connection) {
            optional.append("quota \(limit.remaining)/\(limit.limit)")
        }
        // A download under way shows on every screen until it ends.
        if let running = app.downloads.summary(unicode: theme.unicode) {
            needed = needed.map { ("\(running)  \($0.text)", $0.style) } ?? (running, theme.bar)
        }
        let neededWidth = needed.map { DisplayWidth.of($0.text) + 2 } ?? 0
        var left = 1
        if let notice = app.notice, notice.tab == nil || notice.tab == app.tab {
            // A notice about what a key just did takes the hints' place until it goes.
            var style = notice.kind == .error ? errorOnBar : theme.bar
            style.bold = true
            let text = UntrustedText.sanitize(notice.text) + (notice.retry ? " \(theme.key(.reload)) tries again." : "")
            // A notice longer than the line wraps upwards, over the screen's last rows (three at most), so that
            // the end of it, often the fix, is not cut off.
            let room = max(10, width - 2 - neededWidth)
            var lines = Widgets.wrap(text, width: room)
            if lines.count > Self.noticeRows {
                // The rest goes on the last row, cut with an ellipsis.
                lines = Array(lines.prefix(Self.noticeRows - 1)) + [lines.dropFirst(Self.noticeRows - 1).joined(separator: " ")]
            }
            for (index, line) in lines.dropLast().enumerated() {
                let row = y - (lines.count - 1) + index
                guard row > 0 else { continue }
                buffer.fill(Rect(x: 0, y: row, width: width, height: 1), with: Cell(" ", style: theme.bar))
                buffer.write(line, x: 1, y: row, style: style, maxWidth: width - 2)
            }
            left += buffer.write(lines.last ?? "", x: 1, y: y, style: style, maxWidth: room, ellipsis: theme.ellipsis)
            // A notice of one line leaves the first keys (the help, the way out) where they fit after it: the
            // six seconds it shows are not six seconds without them.
            if lines.count == 1 {
                let keys = Widgets.hintLine(Array(hints.prefix(2)).map(spellArrows), room: room - (left - 1) - 3)
                if !keys.isEmpty { left += buffer.write("   " + keys, x: left, y: y, style: theme.bar) }
            }
        } else {
            // The hints, most important first; each one whole or not at all.
            // The first few come before the connection and the quota; the rest only where those leave room.
            let shown = hints.map(spellArrows)
            let first = Widgets.hintLine(Array(shown.prefix(AppFrame.firstHints)), room: width - neededWidth)
            // The room kept for them is the same whether they show yet or not: the hints stay as they are when the
            // first answers arrive, rather than rewriting the status line under the photos being drawn.
            let room = max(DisplayWidth.of(first), width - neededWidth - Self.statusRoom)
            let line = first + Widgets.hintLine(Array(shown.dropFirst(AppFrame.firstHints)), room: room - DisplayWidth.of(first))
            left += buffer.write(line, x: 1, y: y, style: theme.bar)
        }
        var right = width
        if let needed {
            let neededText = needed.text + " "
            let shown = min(DisplayWidth.of(neededText), max(0, width - left))
            right = width - shown
            buffer.write(neededText, x: right, y: y, style: needed.style, maxWidth: shown, ellipsis: theme.ellipsis)
        }
        // Then what may give way, as far as there is room.
        for text in optional.reversed() {
            let textWidth = DisplayWidth.of(text) + 2
            guard right - textWidth > left else { break }
            right -= textWidth
            buffer.write(text, x: right, y: y, style: theme.bar)
        }
    }

}
