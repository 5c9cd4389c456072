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
        KeyRecord([(.previous, [.up, .character("k")]), (.next, [.down, .character("j")])], "scroll the details",
                  extra: ", wheel"),
        KeyRecord([(.pageUp, [.pageUp, .control("b"), .control("u")]), (.pageDown, [.pageDown, .control("f"), .control("d")])],
                  "scroll a screen; Ctrl-B/U, Ctrl-F/D too"),
        KeyRecord([(.first, [.character("g"), .home]), (.last, [.character("G"), .end])], "the details' top / end"),
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
        if let created = photo.createdAt { add("Published \(CivilTime.day(created))", theme.muted) }
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
        let stats = [photo.views.map { "\(Counts.grouped($0)) views" }, photo.downloads.map { "\(Counts.grouped($0)) downloads" }].compactMap { $0 }
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

    /// Where the detail's parts go in `area`: the picture's box, and the text column (the details, then the
    /// author's block) with how far it is scrolled. The text scrolls when it is longer than its rows (stacked, the
    /// picture first gives up rows, down to a third of the height).
    struct Layout {
        var sideBySide: Bool
        var textWidth: Int
        var textLines: [(String, CellStyle)]
        /// The line holding the picked tag, if any.
        var tagLine: Int?
        var author: [(String, CellStyle)]?
        var avatarURL: URL?
        var authorHeight: Int
        var pictureBox: Rect
        /// The text column's rows, under or beside the picture.
        var textRect: Rect
        /// The first of the column's lines shown, and the most it can be.
        var top: Int
        var maxTop: Int
        var columnHeight: Int { textLines.count + authorHeight }
    }

    func layout(_ detail: PhotoDetail, ui: UIState, area: Rect) -> Layout {
        let photo = detail.photo
        // Side by side when there is room for a useful picture and 36 columns of text; else stacked.
        let sideBySide = area.width >= 90
        let textWidth = sideBySide ? min(60, max(36, area.width * 2 / 5)) : area.width - 4
        // The text, and the author's block under it (a blank line, then the avatar beside the lines).
        let textLines = lines(detail, width: textWidth, tick: ui.tick, tag: ui.detailTag)
        let tagLine = ui.detailTag == nil ? nil : textLines.lastIndex { $0.0.contains("[") && $0.1 == theme.accent }
        let avatarURL = photo.user.flatMap { $0.profileImage.medium ?? $0.profileImage.small ?? $0.profileImage.large }
        let author = photo.user.map { authorLines($0, width: textWidth - (avatarURL == nil ? 0 : Self.avatarColumns + 2)) }
        let authorHeight = author.map { 1 + max(avatarURL == nil ? 0 : Self.avatarRows, $0.count) } ?? 0
        // Stacked, the picture takes half the height, less when the text needs it, but never under a third.
        let stackedRows = area.height - 3
        let pictureRows = max(4, stackedRows / 3, min(stackedRows / 2, stackedRows - 1 - textLines.count - authorHeight))
        let pictureBox = sideBySide
            ? Rect(x: area.x + 1, y: area.y + 1, width: area.width - textWidth - 5, height: area.height - 3)
            : Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: pictureRows)
        let textX = sideBySide ? area.maxX - textWidth - 2 : area.x + 2
        let textY = sideBySide ? area.y + 1 : pictureBox.maxY + 1
        // The last row is the notice's.
        let textRect = Rect(x: textX, y: textY, width: textWidth, height: max(1, area.maxY - 1 - textY))
        let height = textLines.count + authorHeight
        let maxTop = max(0, height - textRect.height)
        var top = ui.detailScroll.photoID == photo.id ? ui.detailScroll.top : 0
        // A picked tag is always in sight.
        if let tagLine {
            if tagLine < top { top = tagLine }
            if tagLine >= top + textRect.height - 1 { top = tagLine - textRect.height + 2 }
        }
        top = min(max(0, top), maxTop)
        return Layout(sideBySide: sideBySide, textWidth: textWidth, textLines: textLines, tagLine: tagLine, author: author,
                      avatarURL: avatarURL, authorHeight: authorHeight, pictureBox: pictureBox, textRect: textRect,
                      top: top, maxTop: maxTop)
    }

    public func render(_ detail: PhotoDetail, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let photo = detail.photo
        let layout = self.layout(detail, ui: ui, area: area)
        let pictureBox = layout.pictureBox
        let textWidth = layout.textWidth
        let fitted = CellPicture.fittedSize(pixelWidth: photo.width > 0 ? photo.width : 3, pixelHeight: photo.height > 0 ? photo.height : 2,
                                            columns: max(4, pictureBox.width), rows: max(2, pictureBox.height), cellAspect: theme.cellAspect)
        let pictureRect = Rect(x: pictureBox.x + (pictureBox.width - fitted.columns) / 2, y: pictureBox.y,
                               width: fitted.columns, height: fitted.rows)
        let url = CardList.thumbnailURL(photo, pixels: pictures.pixelWidth(columns: fitted.columns))
        let parts = PhotoParts(theme: theme)
        parts.drawPicture(pictures.picture(for: photo, url: url, columns: fitted.columns, rows: fitted.rows),
                          in: pictureRect, clip: area, tick: ui.tick, into: &buffer)

        // The text column, scrolled: line `layout.top` at the top of its rows.
        let column = layout.textRect
        let textX = column.x
        let shift = column.y - layout.top
        let more = layout.top < layout.maxTop
        // The last row says there is more (and how to see it) when the column goes on below.
        let bottom = more ? column.maxY - 1 : column.maxY
        for (index, line) in layout.textLines.enumerated() {
            let y = shift + index
            guard y >= column.y, y < bottom else { continue }
            buffer.write(line.0, x: textX, y: y, style: line.1, maxWidth: textWidth, ellipsis: theme.ellipsis)
        }
        if let user = photo.user, let author = layout.author {
            let y = shift + layout.textLines.count + 1
            // The avatar is drawn whole or not at all.
            if let avatarURL = layout.avatarURL, y >= column.y, y + Self.avatarRows <= bottom {
                let stand = Photo(id: "avatar:\(user.id)", width: 1, height: 1, urls: PhotoURLs(small: avatarURL))
                if case let .ready(picture) = pictures.picture(for: stand, url: avatarURL, columns: Self.avatarColumns, rows: Self.avatarRows) {
                    buffer.draw(picture, x: textX, y: y, clip: area)
                }
            }
            let authorX = layout.avatarURL != nil ? textX + Self.avatarColumns + 2 : textX
            let authorWidth = textWidth - (authorX - textX)
            for (index, line) in author.enumerated() {
                guard y + index >= column.y, y + index < bottom else { continue }
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
        if more {
            // The last row: whom the photo is by (always in sight, as the attribution must be), and that there is more.
            let keys = [keys.hintKeys(.next, in: .detail), keys.hintKeys(.pageDown, in: .detail)].filter { !$0.isEmpty }
                .joined(separator: " ")
            let arrow = theme.unicode ? "▼" : "v"
            let authorRow = shift + layout.textLines.count + 1
            let authorShown = authorRow >= column.y && authorRow < bottom
            let label = authorShown || photo.user == nil ? "\(arrow) more below (\(keys))" : "\(arrow) more (\(keys))"
            let labelWidth = min(textWidth, DisplayWidth.of(label))
            if let user = photo.user, !authorShown, textWidth - labelWidth - 2 >= 12 {
                parts.attribution(user, x: textX, y: column.maxY - 1, style: theme.title, maxWidth: textWidth - labelWidth - 2,
                                  into: &buffer)
                buffer.write(label, x: textX + textWidth - labelWidth, y: column.maxY - 1, style: theme.muted, maxWidth: labelWidth)
            } else {
                buffer.write(label, x: textX, y: column.maxY - 1, style: theme.muted, maxWidth: textWidth, ellipsis: theme.ellipsis)
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
        case let .copyStoppedShort(outcome, text):
            parts.copyStoppedShortDialog(outcome, text: text, in: area, into: &buffer)
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
        let layout = self.layout(detail, ui: ui, area: area)
        func scroll(to top: Int) {
            ui.detailScroll = DetailScroll(photoID: detail.photo.id, top: min(max(0, top), layout.maxTop))
        }
        guard case .key = input else {
            if case let .mouse(mouse) = input {
                switch mouse.kind {
                case .press: return [.openViewer(photoID: detail.photo.id)]
                case .wheelDown: scroll(to: layout.top + 3)
                case .wheelUp: scroll(to: layout.top - 3)
                default: break
                }
            }
            return []
        }
        var events: [AppViewModel.Event]
        let tags = Self.tags(detail)
        let page = max(1, layout.textRect.height - 2)
        switch intent {
        case .next, .previous, .pageDown, .pageUp, .first, .last:
            if layout.maxTop == 0 { return [] }
            switch intent {
            case .next: scroll(to: layout.top + 1)
            case .previous: scroll(to: layout.top - 1)
            case .pageDown: scroll(to: layout.top + page)
            case .pageUp: scroll(to: layout.top - page)
            case .first: scroll(to: 0)
            default: scroll(to: layout.maxTop)
            }
            // Scrolling the picked tag out of sight unpicks it.
            if let line = layout.tagLine, line < ui.detailScroll.top || line >= ui.detailScroll.top + layout.textRect.height - 1 {
                ui.detailTag = nil
            }
            return []
        case .back where ui.detailTag != nil:
            ui.detailTag = nil
            return []
        case .back:
            ui.detailTag = nil
            ui.detailScroll = DetailScroll()
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
            // The picked tag's line is brought into sight.
            scroll(to: self.layout(detail, ui: ui, area: area).top)
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
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? { PhotoParts.dialogHints(app.shownDetail?.viewer.modal, ui: ui) }

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        guard let detail = app.shownDetail else { return }
        render(detail, ui: ui, area: area, pictures: pictures, into: &buffer)
    }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        // While a tag is picked, Enter searches it.
        let tag = app.shownDetail.flatMap { detail in ui.detailTag.flatMap { Self.tags(detail)[safe: $0] } }
        var failed = false
        if case .failed = app.shownDetail?.extra { failed = true }
        // Scrolling is not hinted here: the text column says "more below" with its keys when it goes on.
        return keys.hints(.detail, labels: tag.map { [.open: "search #\(UntrustedText.sanitize($0))"] } ?? [:]) {
            ![.quit, .nextPane].contains($0) && ($0 != .reload || failed)
        }
    }
}
