import Foundation
import ImageFeedCore
import TerminalImage

/// The profile pane: avatar, name, @username, bio, then "Favorites N" and the liked photos as cards;
/// the header scrolls away with the list. `L` asks "Log out?".
public struct ProfileScreen {
    public let theme: Theme
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    public init(theme: Theme) {
        self.theme = theme
    }

    /// The profile's keys: a list of cards', your page, refreshing, logging out.
    static let keys: [KeyRecord] = SharedKeys.cardList + [
        SharedKeys.reload("refresh the profile, or retry what failed", hint: "refresh"),
        KeyRecord([(.yourPage, [.character("P")])], "your photos and collections (your page)", hint: "your page", rank: 72),
        KeyRecord([(.logOut, [.character("L")])], "log out", hint: "log out", rank: 45),
    ]

    static let avatarColumns = 16
    static let avatarRows = 8

    /// The header's lines, with where each goes (to the right of the avatar).
    func headerLines(_ profile: ProfileState, width: Int) -> [(String, CellStyle)] {
        let textWidth = max(10, width - Self.avatarColumns - 6)
        switch profile.phase {
        case .idle, .loading:
            return [("Loading your profile\(theme.dots)", theme.accent)]
        case let .failed(error):
            return [("Couldn't load your profile.", theme.error)] + Widgets.wrap(error.message, width: textWidth).map { ($0, .plain) }
                + (theme.retryAdvice(error).map { [($0, theme.muted)] } ?? [])
        case let .content(user):
            var lines: [(String, CellStyle)] = []
            let name = user.name.map(UntrustedText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
            lines.append((name ?? "No name", name == nil ? theme.muted : theme.title))
            lines.append(("@" + UntrustedText.sanitize(user.username), theme.accent))
            if let location = user.location.map(UntrustedText.sanitize), !location.isEmpty {
                lines.append((location, theme.muted))
            }
            lines.append(("", .plain))
            let bio = user.bio.map(UntrustedText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
            if let bio {
                lines += Widgets.wrap(bio, width: textWidth).prefix(6).map { ($0, CellStyle.plain) }
            } else {
                lines.append(("No bio yet.", theme.muted))
            }
            return lines
        }
    }

    /// Lines of the header: avatar or text, the log-out line, and the favorites' title.
    func headerHeight(_ profile: ProfileState, width: Int) -> Int {
        max(Self.avatarRows, headerLines(profile, width: width).count) + 5
    }

    /// Where the whole header and a favorite do not fit together (80x24, 80x15), the header gives way to one line
    /// (name, @username, `L log out`) above the favorites' title: the selected card is in view with who you are.
    func isCompact(_ app: AppState, area: Rect) -> Bool {
        guard case .content = app.profile.phase, !app.favorites.photos.isEmpty else { return false }
        let cards = CardLayout(photos: Array(app.favorites.photos.prefix(1)), width: area.width, viewportHeight: area.height,
                               cellAspect: theme.cellAspect).cards
        return headerHeight(app.profile, width: area.width) + (cards.first?.height ?? 0) > area.height
    }

    static let compactHeaderHeight = 2

    func headerHeight(_ app: AppState, area: Rect) -> Int {
        isCompact(app, area: area) ? Self.compactHeaderHeight : headerHeight(app.profile, width: area.width)
    }

    public func layout(_ app: AppState, area: Rect) -> CardLayout {
        CardLayout(photos: app.favorites.photos, width: area.width, viewportHeight: area.height,
                   headerHeight: headerHeight(app, area: area), cellAspect: theme.cellAspect)
    }

    /// Where the list stands: the selected favorite is always in view, whatever the header's height (on a short
    /// terminal the header gives way, so the card that `f unlike` acts on is the one the user sees).
    func position(_ app: AppState, _ ui: UIState, area: Rect) -> ListPosition {
        var position = ui.favoritesList
        guard app.profile.profile != nil, !app.favorites.photos.isEmpty else { return position }
        position.selected = min(position.selected, app.favorites.photos.count - 1)
        let layout = layout(app, area: area)
        position.top = layout.scroll(toShow: position.selected, from: position.top)
        // Who you are rather than "That's all your favorites" under the last card, where the card fits either way.
        if let card = layout.cards.indices.contains(position.selected) ? layout.cards[position.selected] : nil,
           card.top + card.height - CardLayout.detailRows + 1 <= area.height {
            position.top = 0
        }
        return position
    }

    public func render(_ app: AppState, ui unplaced: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        var ui = unplaced
        ui.favoritesList = position(app, unplaced, area: area)
        let layout = layout(app, area: area)
        let compact = isCompact(app, area: area)
        let header = headerHeight(app, area: area)
        let offset = area.y - ui.favoritesList.top
        if compact, case let .content(user) = app.profile.phase, offset >= area.y {
            let name = user.name.map(UntrustedText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
            var x = area.x + 2
            if let name { x += buffer.write(name + "  ", x: x, y: offset, style: theme.title, maxWidth: area.maxX - x - 1) }
            x += buffer.write("@" + UntrustedText.sanitize(user.username) + "   ", x: x, y: offset, style: theme.accent, maxWidth: max(0, area.maxX - x - 1))
            let logOut = "\(keys.hintKeys(.logOut, in: .profile)) log out"
            if x + DisplayWidth.of(logOut) < area.maxX { buffer.write(logOut, x: x, y: offset, style: theme.muted) }
        }
        if !compact {
            // The avatar: the profile image drawn like a photo, a gray box while it is missing.
            let avatar = Rect(x: area.x + 2, y: offset + 1, width: Self.avatarColumns, height: Self.avatarRows)
            var drawn = false
            if let user = app.profile.profile, let url = user.profileImage.large ?? user.profileImage.medium ?? user.profileImage.small {
                let stand = Photo(id: "avatar:\(user.id)", width: 1, height: 1, urls: PhotoURLs(small: url))
                if case let .ready(picture) = pictures.picture(for: stand, url: url, columns: Self.avatarColumns, rows: Self.avatarRows) {
                    buffer.draw(picture, x: avatar.x, y: avatar.y, clip: area)
                    drawn = true
                }
            }
            if !drawn {
                // Scrolled away, the avatar has no rows left on screen (an empty range, not a reversed one).
                for y in max(area.y, avatar.y)..<max(max(area.y, avatar.y), min(area.maxY, avatar.maxY)) {
                    buffer.fill(Rect(x: avatar.x, y: y, width: avatar.width, height: 1), with: Cell(" ", style: theme.placeholder))
                }
                let middle = avatar.y + avatar.height / 2
                if middle >= area.y, middle < area.maxY {
                    buffer.writeCentered(app.profile.phase == .loading ? theme.spinner(ui.tick) : "?", in: avatar, y: middle, style: theme.placeholder)
                }
            }
            let textX = avatar.maxX + 3
            for (index, line) in headerLines(app.profile, width: area.width).enumerated() {
                let y = avatar.y + index
                guard y >= area.y, y < area.maxY else { continue }
                buffer.write(line.0, x: textX, y: y, style: line.1, maxWidth: area.maxX - textX - 1, ellipsis: theme.ellipsis)
            }
            let logoutY = offset + header - 3
            if logoutY >= area.y, logoutY < area.maxY {
                buffer.write("\(keys.hintKeys(.logOut, in: .profile)) log out", x: textX, y: logoutY, style: theme.muted)
            }
        }
        let titleY = offset + header - 1
        if titleY >= area.y, titleY < area.maxY, app.profile.profile != nil {
            // The same words as your own photographer's page: "Favorites N" (your likes), "Photos N", "Collections N".
            let count = app.favoritesCount.map { " \($0)" } ?? ""
            var written = buffer.write("Favorites\(count)", x: area.x + 2, y: titleY, style: theme.title)
            // Your photos and collections are the tabs beside: p (or ]) opens them, as any photographer's page.
            let user = app.profile.profile
            let others = "   Photos\(user?.totalPhotos.map { " \($0)" } ?? "")   Collections\(user?.totalCollections.map { " \($0)" } ?? "") (\(keys.hintKeys(.yourPage, in: .profile))) "
            if area.width - written - 5 > DisplayWidth.of(others) + 4 {
                written += buffer.write(others, x: area.x + 2 + written, y: titleY, style: theme.muted)
            }
            let rule = String(repeating: theme.unicode ? "─" : "-", count: max(0, area.width - written - 5))
            buffer.write(" " + rule, x: area.x + 2 + written, y: titleY, style: theme.muted)
        }
        if app.profile.profile != nil {
            let listTop = max(area.y, offset + header)
            let messages = Rect(x: area.x, y: listTop, width: area.width, height: max(1, min(area.maxY - listTop, 6)))
            if listTop < area.maxY {
                CardList(theme: theme, texts: .favorites, wrap: { .favorites($0) })
                    .render(app.favorites, layout: layout, position: ui.favoritesList, tick: ui.tick, modalFocus: ui.modalFocus,
                            area: area, messageArea: messages, pictures: pictures, into: &buffer)
            }
        }
        if app.profile.confirmingLogout {
            Widgets.modal(title: "Log out?", message: "Your token and everything ImageFeed keeps about you will be removed.",
                          buttons: ["Yes", "No"], focused: ui.modalFocus, in: area, theme: theme, into: &buffer)
        }
    }

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        if app.profile.confirmingLogout {
            // The dialog's own keys: y and n answer it.
            if case .key(.character("y")) = input { ui.modalFocus = 0; return [.profile(.logOutAnswered(true))] }
            if case .key(.character("n")) = input { ui.modalFocus = 0; return [.profile(.logOutAnswered(false))] }
            switch Widgets.modalChoice(input, focus: &ui.modalFocus) {
            case .first: return [.profile(.logOutAnswered(true))]
            case .second: return [.profile(.logOutAnswered(false))]
            case nil: return []
            }
        }
        if app.favorites.modal == nil {
            switch intent {
            case .logOut:
                ui.modalFocus = 1 // "No" first: logging out by a stray Enter would be unkind
                return [.profile(.logOutPressed)]
            case .yourPage:
                // Your own photos and collections: the page any photographer has, over this pane.
                guard let user = app.profile.profile else { return [] }
                return [.explore(.openPhotographer(username: user.username, user: user))]
            case .reload:
                if case .failed = app.profile.phase { return [.profile(.retry)] }
                if app.favorites.phase == .content, case .failed = app.favorites.nextPage { break } // the favorites' own retry
                if app.favorites.phase == .content, case .waiting = app.favorites.nextPage { break }
                if app.profile.profile != nil { return [.profile(.refresh)] }
            default:
                break
            }
        }
        guard app.profile.profile != nil else { return [] }
        var position = self.position(app, ui, area: area)
        defer { ui.favoritesList = position }
        if intent == .first { position = ListPosition(); return [] }
        return CardList(theme: theme, texts: .favorites, wrap: { .favorites($0) })
            .handle(input, intent: intent, feed: app.favorites, layout: layout(app, area: area), position: &position,
                    modalFocus: &ui.modalFocus, area: area)
    }
}

extension ProfileScreen: Screen {
    func keyContext(_ app: AppState) -> KeyContext { .profile }
    func title(_ app: AppState) -> String { "Keys: your profile and favorites" }
    func isSubScreen(_ app: AppState) -> Bool { false }
    func dialogIsOpen(_ app: AppState) -> Bool { app.favorites.modal != nil || app.profile.confirmingLogout }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? {
        if app.profile.confirmingLogout { return Widgets.dialogHints(["Yes", "No"], focused: ui.modalFocus, letters: true) }
        return PhotoParts.dialogHints(app.favorites, ui: ui)
    }

    func listPosition(_ app: AppState, ui: UIState) -> String? { app.profile.profile == nil ? nil : ChromeView.position(ui.favoritesList.selected, of: app.favorites) }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        // With no favorites there is nothing to unlike, open or reload-as-list: those hints go.
        let empty = app.favorites.photos.isEmpty
        return keys.hints(.profile, labels: [.like: "unlike"]) {
            ![.details, .photographer, .yourPage].contains($0) && !(empty && [.like, .open].contains($0))
        }
    }

    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        guard app.profile.profile != nil else { return nil }
        let position = self.position(app, ui, area: area)
        return layout(app, area: area).lastShown(top: position.top).map { (.favorites, max($0, position.selected)) }
    }

    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {
        guard let index = app.favorites.photos.firstIndex(ofID: photoID) else { return }
        ui.favoritesList.selected = index
        ui.favoritesList.top = layout(app, area: area).scroll(toShow: index, from: ui.favoritesList.top)
    }

    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {
        guard app.profile.profile != nil, !app.favorites.photos.isEmpty else { return }
        ui.favoritesList.selected = min(ui.favoritesList.selected, app.favorites.photos.count - 1)
        ui.favoritesList.top = layout(app, area: area).scroll(toShow: ui.favoritesList.selected, from: ui.favoritesList.top)
    }
}
