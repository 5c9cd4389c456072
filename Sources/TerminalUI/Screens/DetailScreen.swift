import Foundation
import ImageFeedCore
import TerminalImage

/// One photo in detail (from the feed, the favorites or search results): the photo beside (or above) its description, author, date, size, likes
/// and camera; like, copy the link, open it, download, and Enter for the full-screen viewer.
/// Whatever the photo does not say is not shown at all.
public struct DetailScreen {
    public let theme: Theme

    public init(theme: Theme) {
        self.theme = theme
    }

    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    /// The detail's keys.
    static let keys: [KeyRecord] = [
        SharedKeys.open("full screen (a picked tag: search it)", hint: "full screen"),
        SharedKeys.like, SharedKeys.share, SharedKeys.download,
        SharedKeys.photographer("the photographer's page"), SharedKeys.collect,
        KeyRecord([(.tag, [.character("#")])], "pick a tag (again: the next); Enter searches it", hint: "tags", rank: 80),
        SharedKeys.reload("retry the details", hint: "retry"),
        SharedKeys.back("back to the list (a picked tag: unpick it)"),
    ]

    static let avatarColumns = 8
    static let avatarRows = 4

    /// The text beside the photo, as lines of (text, style), wrapped to `width`.
    func lines(_ detail: PhotoDetail, width: Int, tick: Int, tag: Int? = nil) -> [(String, CellStyle)] {
        let photo = detail.photo
        var lines: [(String, CellStyle)] = []
        func add(_ text: String, _ style: CellStyle = .plain) {
            for part in Widgets.wrap(text, width: max(8, width)) { lines.append((part, style)) }
        }
        if let description = photo.description.map(UntrustedText.sanitize), !description.isEmpty {
            add(description, theme.title)
            if let alt = photo.altDescription.map(UntrustedText.sanitize), !alt.isEmpty,
               alt.caseInsensitiveCompare(description) != .orderedSame {
                add(alt, theme.muted)
            }
        } else if let alt = photo.altDescription.map(UntrustedText.sanitize), !alt.isEmpty {
            add(alt, theme.title)
        }
        lines.append(("", .plain))
        let heart = photo.likedByUser ? theme.heartFull : theme.heartEmpty
        let likeWord = photo.likes == 1 ? "like" : "likes"
        lines.append(("\(detail.viewer.likeInFlight ? theme.spinner(tick) : heart) \(photo.likes) \(likeWord)",
                      photo.likedByUser ? theme.likedHeart : theme.unlikedHeart))
        if let created = photo.createdAt { add("Published \(CardList.date(created))", theme.muted) }
        if photo.width > 0, photo.height > 0 {
            add("\(photo.width) \(theme.unicode ? "×" : "x") \(photo.height) pixels", theme.muted)
        }
        if let location = photo.location {
            let parts = [location.name, location.city, location.country].compactMap { $0.map(UntrustedText.sanitize) }
                .filter { !$0.isEmpty }
            var seen = Set<String>()
            let unique = parts.filter { seen.insert($0.lowercased()).inserted }
            if !unique.isEmpty { add(unique.joined(separator: ", "), theme.muted) }
        }
        if let exif = photo.exif {
            let camera = exif.name ?? [exif.make, exif.model].compactMap { $0 }.joined(separator: " ")
            let settings = [exif.focalLength.map { "\($0) mm" }, exif.aperture.map { "f/\($0)" },
                            exif.exposureTime.map { "\($0) s" }, exif.iso.map { "ISO \($0)" }].compactMap { $0 }
            let text = ([camera].filter { !$0.isEmpty } + settings).map(UntrustedText.sanitize).joined(separator: " \(theme.bullet) ")
            if !text.isEmpty { add(text, theme.muted) }
        }
        // What the service counts, where it says (a photo's own answer).
        let stats = [photo.views.map { "\($0.formatted()) views" }, photo.downloads.map { "\($0.formatted()) downloads" }].compactMap { $0 }
        if !stats.isEmpty { add(stats.joined(separator: " \(theme.bullet) "), theme.muted) }
        if let topics = photo.topics, !topics.isEmpty {
            add("Topics: " + topics.map { UntrustedText.sanitize($0.title) }.joined(separator: ", "), theme.muted)
        }
        let tags = photo.tags.map(UntrustedText.sanitize).filter { !$0.isEmpty }
        if !tags.isEmpty {
            // The tag `#` picked shows in brackets: Enter searches it.
            let shown = tags.enumerated().map { $0.offset == tag ? "[\($0.element)]" : "#\($0.element)" }
            add("Tags: " + shown.joined(separator: " "), tag == nil ? theme.muted : theme.accent)
        }
        switch detail.extra {
        case .loading: lines.append(("\(theme.spinner(tick)) Loading the details\(theme.dots)", theme.accent))
        case let .failed(error): add("Couldn't load the details: \(error.message) Press \(theme.key(.reload)) to retry.", theme.error)
        case .loaded: break
        }
        return lines
    }

    /// The author's block: name, @username, location and bio, beside the avatar.
    func authorLines(_ user: User, width: Int) -> [(String, CellStyle)] {
        var lines: [(String, CellStyle)] = [(PhotoParts.attributionText(user), theme.title),
                                            ("@" + UntrustedText.sanitize(user.username), theme.accent)]
        if let location = user.location.map(UntrustedText.sanitize), !location.isEmpty { lines.append((location, theme.muted)) }
        if let bio = user.bio.map(UntrustedText.sanitize), !bio.isEmpty {
            lines += Widgets.wrap(bio, width: max(8, width)).prefix(4).map { ($0, CellStyle.plain) }
        }
        return lines
    }

    public func render(_ detail: PhotoDetail, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let photo = detail.photo
        // Side by side when there is room for a useful picture and 36 columns of text; else stacked.
        let sideBySide = area.width >= 90
        let textWidth = sideBySide ? min(60, max(36, area.width * 2 / 5)) : area.width - 4
        // The text, and the author's block under it (a blank line, then the avatar beside the lines).
        let textLines = lines(detail, width: textWidth, tick: ui.tick, tag: ui.detailTag)
        let avatarURL = photo.user.flatMap { $0.profileImage.medium ?? $0.profileImage.small ?? $0.profileImage.large }
        let author = photo.user.map { authorLines($0, width: textWidth - (avatarURL == nil ? 0 : Self.avatarColumns + 2)) }
        let authorHeight = author.map { 1 + max(avatarURL == nil ? 0 : Self.avatarRows, $0.count) } ?? 0
        // Stacked, the picture takes half the height, less when the text needs it, but never under a third.
        let stackedRows = area.height - 3
        let pictureRows = max(4, stackedRows / 3, min(stackedRows / 2, stackedRows - 1 - textLines.count - authorHeight))
        let pictureBox = sideBySide
            ? Rect(x: area.x + 1, y: area.y + 1, width: area.width - textWidth - 5, height: area.height - 3)
            : Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: pictureRows)
        let fitted = CellPicture.fittedSize(pixelWidth: photo.width > 0 ? photo.width : 3, pixelHeight: photo.height > 0 ? photo.height : 2,
                                            columns: max(4, pictureBox.width), rows: max(2, pictureBox.height))
        let pictureRect = Rect(x: pictureBox.x + (pictureBox.width - fitted.columns) / 2, y: pictureBox.y,
                               width: fitted.columns, height: fitted.rows)
        let url = CardList.thumbnailURL(photo, pixels: pictures.pixelWidth(columns: fitted.columns))
        let parts = PhotoParts(theme: theme)
        parts.drawPicture(pictures.picture(for: photo, url: url, columns: fitted.columns, rows: fitted.rows),
                          in: pictureRect, clip: area, tick: ui.tick, into: &buffer)

        let textX = sideBySide ? area.maxX - textWidth - 2 : area.x + 2
        var y = sideBySide ? area.y + 1 : pictureRect.maxY + 1
        let bottom = area.maxY - 1
        // When space is short, the author (whom the photo is by) is kept and the last details give way.
        let textBottom = max(y + 1, bottom - authorHeight)
        for line in textLines where y < textBottom {
            buffer.write(line.0, x: textX, y: y, style: line.1, maxWidth: textWidth, ellipsis: theme.ellipsis)
            y += 1
        }
        if let user = photo.user, let author, y + 2 < bottom {
            y += 1
            var hasAvatar = false
            if let avatarURL, y + Self.avatarRows <= bottom {
                let stand = Photo(id: "avatar:\(user.id)", width: 1, height: 1, urls: PhotoURLs(small: avatarURL))
                if case let .ready(picture) = pictures.picture(for: stand, url: avatarURL, columns: Self.avatarColumns, rows: Self.avatarRows) {
                    buffer.draw(picture, x: textX, y: y, clip: area)
                }
                hasAvatar = true
            }
            let authorX = hasAvatar ? textX + Self.avatarColumns + 2 : textX
            let authorWidth = textWidth - (authorX - textX)
            let shown = hasAvatar || avatarURL == nil ? author : authorLines(user, width: authorWidth)
            for (index, line) in shown.enumerated() where y + index < bottom {
                if index == 0 { // "Photo by NAME on Unsplash", linked
                    parts.attribution(user, x: authorX, y: y, style: line.1, maxWidth: authorWidth, into: &buffer)
                    continue
                }
                let written = buffer.write(line.0, x: authorX, y: y + index, style: line.1, maxWidth: authorWidth, ellipsis: theme.ellipsis)
                if index == 1, let profile = Referral.profile(user) { // @username
                    buffer.link(profile, x: authorX, y: y + index, width: written)
                }
            }
        }

        // The notice or the download's progress (the keys are on the status line).
        var status: String?
        if case let .running(fraction) = detail.viewer.download {
            status = fraction.map { "Downloading \(Int($0 * 100))%" } ?? "\(theme.spinner(ui.tick)) Downloading\(theme.dots)"
        } else if let notice = detail.viewer.notice {
            status = UntrustedText.sanitize(notice)
        }
        if let status {
            buffer.write(status, x: area.x + 1, y: area.maxY - 1, style: theme.accent, maxWidth: area.width - 2, ellipsis: theme.ellipsis)
        }
        switch detail.viewer.modal {
        case let .likeFailed(liked, error):
            parts.likeFailedDialog(liked: liked, error, focused: ui.modalFocus, in: area, into: &buffer)
        case let .downloadFailed(message):
            Widgets.modal(title: "Download failed", message: message, buttons: ["Try again", "Cancel"],
                          focused: ui.modalFocus, in: area, theme: theme, into: &buffer)
        case let .loadFailed(error):
            Widgets.modal(title: "Couldn't load the photo", message: error.message, buttons: ["Try again", "Cancel"],
                          focused: ui.modalFocus, in: area, theme: theme, into: &buffer)
        case nil:
            break
        }
    }

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        guard let detail = app.shownDetail else { return [] }
        if detail.viewer.modal != nil {
            switch Widgets.modalChoice(input, focus: &ui.modalFocus) {
            case .first: return [.detail(.viewer(.modalTryAgain))]
            case .second: return [.detail(.viewer(.modalDismiss))]
            case nil: return []
            }
        }
        guard case .key = input else {
            if case let .mouse(mouse) = input, mouse.kind == .press { return [.openViewer(photoID: detail.photo.id)] }
            return []
        }
        var events: [AppViewModel.Event]
        let tags = Self.tags(detail)
        switch intent {
        case .back where ui.detailTag != nil:
            ui.detailTag = nil
            return []
        case .back:
            ui.detailTag = nil
            return [.closeDetail]
        case .open:
            // A picked tag: search for it; else the photo full screen.
            if let index = ui.detailTag, let tag = tags[safe: index] {
                ui.detailTag = nil
                return [.searchFor(tag)]
            }
            return [.openViewer(photoID: detail.photo.id)]
        case .tag:
            guard !tags.isEmpty else { return [.detail(.viewer(.tell("This photo has no tags.")))] }
            ui.detailTag = ui.detailTag.map { ($0 + 1) % tags.count } ?? 0
            return []
        case .photographer:
            return CardList.openPhotographer(detail.photo)
        case .collect:
            return [.explore(.openCollectionPicker(detail.photo))]
        case .like: events = [.detail(.viewer(.toggleLike))]
        case .share: events = [.detail(.viewer(.share))]
        case .download: events = [.detail(.viewer(.download))]
        case .reload:
            if case .failed = detail.extra { return [.detail(.retry)] }
            return []
        default: return []
        }
        if detail.viewer.notice != nil { events.insert(.detail(.viewer(.dismissNotice)), at: 0) }
        return events
    }

    static func tags(_ detail: PhotoDetail) -> [String] {
        detail.photo.tags.filter { !UntrustedText.sanitize($0).isEmpty }
    }
}

extension DetailScreen: Screen {
    func keyContext(_ app: AppState) -> KeyContext { .detail }
    func title(_ app: AppState) -> String { "Keys: a photo's details" }
    func dialogIsOpen(_ app: AppState) -> Bool { app.shownDetail?.viewer.modal != nil }

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        guard let detail = app.shownDetail else { return }
        render(detail, ui: ui, area: area, pictures: pictures, into: &buffer)
    }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        // While a tag is picked, Enter searches it.
        let tag = app.shownDetail.flatMap { detail in ui.detailTag.flatMap { Self.tags(detail)[safe: $0] } }
        var failed = false
        if case .failed = app.shownDetail?.extra { failed = true }
        return keys.hints(.detail, labels: tag.map { [.open: "search #\(UntrustedText.sanitize($0))"] } ?? [:]) {
            ![.quit, .nextPane].contains($0) && ($0 != .reload || failed)
        }
    }
}
