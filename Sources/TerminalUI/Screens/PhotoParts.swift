import Foundation
import ImageFeedCore
import TerminalImage

/// The pieces every photo list draws the same way (feed, favorites and sheet cards, search tiles, the
/// detail screen): a picture slot, the heart, the next-page row, a centred message, the like dialog.
struct PhotoParts {
    let theme: Theme

    /// A photo's thumbnail in `rect` (the file with enough pixels for its cells), or what stands for it; only the
    /// rows inside `clip` are drawn.
    func drawThumbnail(_ photo: Photo, in rect: Rect, clip: Rect, tick: Int, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let slot = pictures.picture(for: photo, url: CardList.thumbnailURL(photo, pixels: pictures.pixelWidth(columns: rect.width)),
                                    columns: rect.width, rows: rect.height)
        drawPicture(slot, in: rect, clip: clip, tick: tick, into: &buffer)
    }

    /// The picture, or what stands for it (the BlurHash with a spinner, or "Photo unavailable"); only
    /// the rows inside `clip` are drawn.
    func drawPicture(_ slot: PictureSlot, in rect: Rect, clip: Rect, tick: Int, into buffer: inout CellBuffer) {
        let middle = rect.y + rect.height / 2
        let middleVisible = middle >= clip.y && middle < clip.maxY
        switch slot {
        case let .ready(picture):
            buffer.draw(picture, x: rect.x, y: rect.y, clip: clip)
        case let .loading(placeholder):
            if let placeholder { buffer.draw(placeholder, x: rect.x, y: rect.y, clip: clip) }
            if middleVisible {
                var style = theme.title
                if case let .indexed(index)? = placeholder?.cells.first?.background { style.background = .indexed(index) }
                buffer.writeCentered(" \(theme.spinner(tick)) ", in: rect, y: middle, style: style)
            }
        case .failed:
            placeholderBox("Photo unavailable", in: rect, clip: clip, into: &buffer)
        }
    }

    /// The attribution's words, the name made safe to show: "Photo by NAME on Unsplash".
    static func attributionText(_ user: User, prefix: String = "Photo by ") -> String {
        "\(prefix)\(UntrustedText.sanitize(user.displayName)) on Unsplash"
    }

    /// "Photo by NAME on Unsplash" as Unsplash's guidelines ask (`prefix` "Photo by " or "by ", or none), at most
    /// `maxWidth` cells, with the name linked to the photographer's page and "Unsplash" to Unsplash's, both
    /// carrying the referral parameters. Returns the cells written.
    @discardableResult
    func attribution(_ user: User, prefix: String = "Photo by ", x: Int, y: Int, style: CellStyle, maxWidth: Int,
                     into buffer: inout CellBuffer) -> Int {
        let name = UntrustedText.sanitize(user.displayName)
        let text = Self.attributionText(user, prefix: prefix)
        let written = buffer.write(text, x: x, y: y, style: style, maxWidth: maxWidth, ellipsis: theme.ellipsis)
        let nameStart = DisplayWidth.of(prefix)
        let nameWidth = DisplayWidth.of(name)
        // A link covers only what was written whole (not the ellipsis of a cut line).
        let whole = written < DisplayWidth.of(text) ? written - DisplayWidth.of(theme.ellipsis) : written
        if let profile = Referral.profile(user) {
            buffer.link(profile, x: x + nameStart, y: y, width: min(nameWidth, whole - nameStart))
        }
        let unsplashStart = nameStart + nameWidth + 4
        buffer.link(Referral.unsplash, x: x + unsplashStart, y: y, width: min(8, whole - unsplashStart))
        return written
    }

    /// A gray box with a word in its middle, where a picture cannot be (or there is none); only the rows
    /// inside `clip` are drawn.
    func placeholderBox(_ text: String, in rect: Rect, clip: Rect, into buffer: inout CellBuffer) {
        for y in max(clip.y, rect.y)..<max(max(clip.y, rect.y), min(clip.maxY, rect.maxY)) {
            buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), with: Cell(" ", style: theme.placeholder))
        }
        let middle = rect.y + rect.height / 2
        if middle >= clip.y, middle < clip.maxY {
            buffer.writeCentered(text, in: rect, y: middle, style: theme.placeholder)
        }
    }

    /// The bar left of a selected tile, from its picture box's top down `rows` lines, inside `clip`.
    func tileSelectionBar(_ tile: TileLayout.Tile, boxTop: Int, rows: Int, clip: Rect, into buffer: inout CellBuffer) {
        for y in max(clip.y, boxTop)..<max(max(clip.y, boxTop), min(clip.maxY, boxTop + rows)) {
            buffer[max(0, tile.x - 2), y] = Cell(theme.selectionBar, style: theme.accent)
        }
    }

    /// The like button: a spinner while a request runs, else a red or gray heart.
    func heart(_ photo: Photo, inFlight: Bool, tick: Int) -> (text: String, style: CellStyle) {
        if inFlight { return (theme.spinner(tick), theme.accent) }
        return photo.likedByUser ? (theme.heartFull, theme.likedHeart) : (theme.heartEmpty, theme.unlikedHeart)
    }

    /// The row after the last card or tile: loading the next page, its error with retry, or the end.
    func drawNextPageRow(_ list: PhotoListState, texts: ListTexts, y: Int, area: Rect, tick: Int, into buffer: inout CellBuffer) {
        switch list.nextPage {
        case .loading:
            buffer.write("\(theme.spinner(tick)) \(texts.loadingMore)\(theme.dots)", x: 2, y: y, style: theme.accent)
        case let .failed(_, error):
            let written = buffer.write("Couldn't load more: ", x: 2, y: y, style: theme.error)
            buffer.write("\(error.message) Press \(theme.key(.reload)) to retry.", x: 2 + written, y: y, style: .plain,
                         maxWidth: area.width - 4 - written, ellipsis: theme.ellipsis)
        case .waiting:
            buffer.write("The last page brought nothing new. Press \(theme.key(.reload)) for more.", x: 2, y: y, style: theme.muted,
                         maxWidth: area.width - 4, ellipsis: theme.ellipsis)
        case .idle:
            if list.nextPageNumber == nil {
                buffer.write(texts.end, x: 2, y: y, style: theme.muted)
            }
        }
    }

    /// Lines wrapped and centred in `area`, each in its own style.
    func centred(_ lines: [(String, CellStyle)], in area: Rect, into buffer: inout CellBuffer) {
        var wrapped: [(String, CellStyle)] = []
        for (line, style) in lines {
            for part in Widgets.wrap(line, width: max(10, area.width - 6)) { wrapped.append((part, style)) }
        }
        let top = area.y + max(0, (area.height - wrapped.count) / 2)
        for (index, line) in wrapped.enumerated() where top + index < area.maxY {
            buffer.writeCentered(line.0, in: area, y: top + index, style: line.1)
        }
    }

    /// "Couldn't like the photo … Try again?" with Try again and Cancel.
    func likeFailedDialog(liked: Bool, _ error: ServiceError, focused: Int, in area: Rect, into buffer: inout CellBuffer) {
        Widgets.modal(title: liked ? "Couldn't like the photo" : "Couldn't remove the like",
                      message: error.retryHelpsNow ? error.problem + " Try again?" : error.message,
                      buttons: Self.likeFailedButtons(error), focused: error.retryHelpsNow ? focused : 0, in: area, theme: theme,
                      into: &buffer)
    }

    /// Where trying again cannot help now (the quota used up), no "Try again": the message says when it can.
    static func likeFailedButtons(_ error: ServiceError) -> [String] {
        error.retryHelpsNow ? ["Try again", "Cancel"] : ["OK"]
    }

    /// The buttons of a photo's dialog (the viewer's and the detail's).
    static func buttons(_ modal: ViewerState.Modal) -> [String] {
        switch modal {
        case let .likeFailed(_, error): likeFailedButtons(error)
        case .loadFailed, .downloadFailed: ["Try again", "Cancel"]
        case .copyStoppedShort: ["Close"]
        }
    }

    /// The status line's keys under a photo list's dialog.
    static func dialogHints(_ list: PhotoListState, ui: UIState) -> [String]? {
        guard case let .likeFailed(_, _, error) = list.modal else { return nil }
        return Widgets.dialogHints(likeFailedButtons(error), focused: error.retryHelpsNow ? ui.modalFocus : 0)
    }

    /// The status line's keys under a photo's dialog.
    static func dialogHints(_ modal: ViewerState.Modal?, ui: UIState) -> [String]? {
        guard let modal else { return nil }
        let buttons = buttons(modal)
        return Widgets.dialogHints(buttons, focused: buttons.count > 1 ? ui.modalFocus : 0)
    }

    /// A copy that stopped short of the clipboard: what happened, the fix, and the whole text to select by hand.
    func copyStoppedShortDialog(_ outcome: CopyOutcome, text: String, in area: Rect, into buffer: inout CellBuffer) {
        let fix = outcome.fix.map { "\nTo let copies through: \($0)" } ?? ""
        Widgets.modal(title: "The link did not reach your clipboard", message: "\(outcome.said)\(fix)\n\nSelect it here:",
                      buttons: ["Close"], focused: 0, in: area, theme: theme, wide: true, verbatim: text, into: &buffer)
    }
}
