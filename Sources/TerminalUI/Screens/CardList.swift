import Foundation
import ImageFeedCore
import TerminalImage

/// The words a list of photos uses: the feed's, the favorites', search results' or a sheet's photos'.
public struct ListTexts: Sendable {
    public var loading: String
    public var failed: String
    /// What an empty list says; `{like}` names the key of that intent in force.
    public var empty: [String]
    public var end: String
    /// The row while the next page loads ("Loading more photos").
    public var loadingMore = "Loading more photos"

    public static let feed = ListTexts(loading: "Loading the feed", failed: "Couldn't load the feed",
                                       empty: ["The feed is empty.", "Press {reload} to reload."],
                                       end: "You've reached the end of the feed.")
    public static let favorites = ListTexts(loading: "Loading your favorites", failed: "Couldn't load your favorites",
                                            empty: ["No favorites yet.", "Like a photo ({like}) and it shows up here."],
                                            end: "That's all your favorites.")
    public static let search = ListTexts(loading: "Searching", failed: "Couldn't search", empty: [],
                                         end: "That's all the results.", loadingMore: "Loading more results")
}

/// A list of photo cards (the feed, the favorites under the profile, a sheet's photos): cards, a row for the
/// next page, and the like dialog.
public struct CardList {
    public let theme: Theme
    public let texts: ListTexts
    /// Turns the list's own events into the app's (the feed's or the favorites').
    public let wrap: @Sendable (PhotoListViewModel.Event) -> AppViewModel.Event

    public init(theme: Theme, texts: ListTexts = .feed,
                wrap: @escaping @Sendable (PhotoListViewModel.Event) -> AppViewModel.Event = { .feed($0) }) {
        self.theme = theme
        self.texts = texts
        self.wrap = wrap
    }

    // MARK: Rendering

    public func render(_ feed: PhotoListState, layout: CardLayout, ui: UIState, area: Rect, pictures: PictureProvider,
                       into buffer: inout CellBuffer) {
        render(feed, layout: layout, position: ui.feedList, tick: ui.tick, modalFocus: ui.modalFocus, area: area,
               pictures: pictures, into: &buffer)
    }

    /// Draws the list; `messageArea` is where the loading, error and empty states go (the whole area for
    /// the feed, the part under the header for the favorites).
    public func render(_ feed: PhotoListState, layout: CardLayout, position: ListPosition, tick: Int, modalFocus: Int,
                       area: Rect, messageArea: Rect? = nil, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let messages = messageArea ?? area
        let parts = PhotoParts(theme: theme)
        switch feed.phase {
        case .loading:
            parts.centred([("\(theme.spinner(tick)) \(texts.loading)\(theme.dots)", theme.accent)], in: messages, into: &buffer)
            return
        case let .failed(error):
            parts.centred([(texts.failed, theme.error), (error.message, .plain)] + (theme.retryAdvice(error).map { [($0, theme.muted)] } ?? []),
                          in: messages, into: &buffer)
            return
        case .content:
            break
        }
        if feed.photos.isEmpty {
            parts.centred(Array(zip(texts.empty.map(theme.spell), [theme.title, theme.muted])), in: messages, into: &buffer)
            return
        }
        let top = position.top
        let bottom = top + area.height
        for (index, card) in layout.cards.enumerated() where card.top < bottom && card.top + card.height > top {
            renderCard(feed.photos[index], card: card, sideColumns: layout.sideColumns, selected: index == position.selected, inFlight: feed.likesInFlight.contains(feed.photos[index].id),
                       offset: area.y - top, area: area, tick: tick, pictures: pictures, into: &buffer)
        }
        let footerLine = (layout.cards.last.map { $0.top + $0.height } ?? 0)
        if footerLine >= top, footerLine < bottom {
            parts.drawNextPageRow(feed, texts: texts, y: area.y + footerLine - top, area: area, tick: tick, into: &buffer)
        }
        if case let .likeFailed(_, liked, error) = feed.modal {
            parts.likeFailedDialog(liked: liked, error, focused: modalFocus, in: area, into: &buffer)
        }
    }

    private func renderCard(_ photo: Photo, card: CardLayout.Card, sideColumns: Int, selected: Bool, inFlight: Bool, offset: Int, area: Rect,
                            tick: Int, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let pictureTop = card.pictureTop + offset
        let visible = { (y: Int) in y >= area.y && y < area.maxY }
        // The picture, or what stands for it; only its visible rows are copied.
        let parts = PhotoParts(theme: theme)
        parts.drawThumbnail(photo, in: Rect(x: card.pictureX, y: pictureTop, width: card.pictureColumns, height: card.pictureRows),
                            clip: area, tick: tick, pictures: pictures, into: &buffer)
        // The details line: heart and likes, author, date, caption.
        let detailsY = card.detailsLine + offset
        if visible(detailsY) {
            var x = card.pictureX
            let heart = parts.heart(photo, inFlight: inFlight, tick: tick)
            x += buffer.write(heart.text, x: x, y: detailsY, style: heart.style)
            x += buffer.write(" \(photo.likes)", x: x, y: detailsY, style: theme.muted)
            // The line may use the width beside a narrow picture: captions are not cut at the picture's edge.
            let limit = min(area.maxX - 1, card.textEnd ?? area.maxX)
            if let user = photo.user, limit - x > 2 {
                x += 2
                x += parts.attribution(user, x: x, y: detailsY, style: theme.title, maxWidth: max(0, limit - x), into: &buffer)
            }
            if let created = photo.createdAt {
                x += buffer.write("  \(CivilTime.day(created))", x: x, y: detailsY, style: theme.muted, maxWidth: max(0, limit - x))
            }
            if let caption = photo.caption.map(UntrustedText.sanitize), !caption.isEmpty, limit - x > 8 {
                buffer.write("  \(caption)", x: x, y: detailsY, style: .plain, maxWidth: limit - x, ellipsis: theme.ellipsis)
            }
        }
        if sideColumns >= 30 {
            renderStory(photo, x: area.maxX - sideColumns, width: sideColumns - 2, y: pictureTop, rows: card.pictureRows,
                        area: area, into: &buffer)
        }
        if selected, visible(detailsY) {
            // Beside its details line only, not at the terminal's edge far from a narrow picture: the
            // picture's rows look the same selected or not, so when the list moves, curses can send the rows
            // that stay as a terminal scroll (a bar beside every row made a next-card step cost a repaint).
            buffer[max(0, card.pictureX - 2), detailsY] = Cell(theme.selectionBar, style: theme.accent)
        }
    }

    /// Beside the picture on a wide terminal: the description (and the alt text when it says more), the
    /// author, where the photo was taken, its size; what the photo does not say is left out.
    private func renderStory(_ photo: Photo, x: Int, width: Int, y: Int, rows: Int, area: Rect, into buffer: inout CellBuffer) {
        var lines: [(String, CellStyle)] = []
        func add(_ text: String, _ style: CellStyle) {
            for part in Widgets.wrap(text, width: width) { lines.append((part, style)) }
        }
        let description = photo.description.map(UntrustedText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
        let alt = photo.altDescription.map(UntrustedText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
        if let description { add(description, theme.title) }
        if let alt, alt.caseInsensitiveCompare(description ?? "") != .orderedSame { add(alt, description == nil ? theme.title : theme.muted) }
        if let user = photo.user {
            lines.append(("", .plain))
            add("by \(UntrustedText.sanitize(user.displayName)) (@\(UntrustedText.sanitize(user.username)))", .plain)
        }
        if let place = photo.location.flatMap({ $0.name ?? [$0.city, $0.country].compactMap { $0 }.joined(separator: ", ") }),
           !place.isEmpty {
            add(UntrustedText.sanitize(place), theme.muted)
        }
        if photo.width > 0, photo.height > 0 { add("\(photo.width) × \(photo.height)", theme.muted) }
        for (index, line) in lines.prefix(max(0, rows)).enumerated() where y + index >= area.y && y + index < area.maxY {
            buffer.write(line.0, x: x, y: y + index, style: line.1, maxWidth: width, ellipsis: theme.ellipsis)
        }
    }

    /// The photo at the width a picture `pixels` wide needs (`PhotoURLs.sized`): a card of half blocks 60
    /// columns wide asks for 100 pixels, one in kitty 80 columns of 10 pixels for 800.
    public static func thumbnailURL(_ photo: Photo, pixels: Int) -> URL? {
        photo.urls.sized(width: pixels)
    }

    // MARK: Input

    func handle(_ input: InputEvent, intent: Intent?, feed: PhotoListState, layout: CardLayout, ui: inout UIState,
                area: Rect) -> [AppViewModel.Event] {
        var position = ui.feedList
        defer { ui.feedList = position }
        return handle(input, intent: intent, feed: feed, layout: layout, position: &position, modalFocus: &ui.modalFocus, area: area)
    }

    func handle(_ input: InputEvent, intent: Intent?, feed: PhotoListState, layout: CardLayout, position ui: inout ListPosition,
                modalFocus: inout Int, area: Rect) -> [AppViewModel.Event] {
        if feed.modal != nil {
            return handleModal(input, focus: &modalFocus)
        }
        let count = feed.photos.count
        func select(_ index: Int) {
            guard count > 0 else { return }
            ui.selected = max(0, min(count - 1, index))
            ui.top = layout.scroll(toShow: ui.selected, from: ui.top)
        }
        func scroll(by lines: Int) {
            ui.top = layout.clampScroll(ui.top + lines)
            // The selection stays on screen: the first card that is mostly visible.
            if let selected = layout.cards[safe: ui.selected],
               selected.top + selected.height <= ui.top || selected.top >= ui.top + area.height {
                ui.selected = layout.cardIndex(atLine: lines > 0 ? ui.top : ui.top + area.height - 1)
                    ?? ui.selected
            }
        }
        let selectedID = feed.photos[safe: ui.selected]?.id
        switch input {
        case .key:
            if let motion = ListMotion(intent, grid: layout.columns > 1) {
                motion.apply(selected: ui.selected, count: count, columns: layout.columns, select: select, scroll: { scroll(by: $0) },
                             page: { scroll(by: $0 * area.height) })
                return []
            }
            switch intent {
            case .open:
                if let selectedID { return [.openViewer(photoID: selectedID)] }
            case .details:
                // The detail screen: description, location, camera and author, as for search results.
                if let selectedID { return [.openDetail(photoID: selectedID)] }
            case .photographer:
                if let photo = feed.photos[safe: ui.selected] { return Self.openPhotographer(photo) }
            case .like:
                if let selectedID { return [wrap(.toggleLike(photoID: selectedID))] }
            case .reload:
                if case .failed = feed.phase { return [wrap(.retry)] }
                if case .failed = feed.nextPage { return [wrap(.retry)] }
                if case .waiting = feed.nextPage { return [wrap(.retry)] }
                return [wrap(.load)]
            default:
                return []
            }
            return []
        case let .mouse(mouse):
            if let motion = ListMotion(mouse) {
                motion.apply(selected: ui.selected, count: count, columns: layout.columns, select: select, scroll: { scroll(by: $0) },
                             page: { _ in })
                return []
            }
            guard area.contains(x: mouse.x, y: mouse.y),
                  let index = layout.cardIndex(atLine: ui.top + mouse.y - area.y, x: mouse.x - area.x) else { return [] }
            ui.selected = index
            let card = layout.cards[index]
            let detailsY = area.y + card.detailsLine - ui.top
            // A click on the heart likes; anywhere else on the card opens the viewer.
            if mouse.y == detailsY, mouse.x >= card.pictureX, mouse.x < card.pictureX + 3 {
                return [wrap(.toggleLike(photoID: feed.photos[index].id))]
            }
            return [.openViewer(photoID: feed.photos[index].id)]
        case .resize:
            return []
        }
    }

    /// `u` on a photo: its photographer's page (nothing for a photo without an author, as album photos are).
    static func openPhotographer(_ photo: Photo) -> [AppViewModel.Event] {
        guard let user = photo.user, !user.username.isEmpty else { return [] }
        return [.explore(.openPhotographer(username: user.username, user: user))]
    }

    private func handleModal(_ input: InputEvent, focus: inout Int) -> [AppViewModel.Event] {
        switch Widgets.modalChoice(input, focus: &focus) {
        case .first: [wrap(.modalTryAgain)]
        case .second: [wrap(.modalCancel)]
        case nil: []
        }
    }
}
