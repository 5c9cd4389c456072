import Foundation
import ImageFeedCore
import TerminalImage

/// The full-screen viewer: the photo fitted to the terminal and centred, its attribution, and its dialogs.
public struct ViewerScreen {
    public let theme: Theme
    /// A cell's height over its width, in pixels (2 for half blocks).
    public let cellAspect: Double
    /// The characters photos are drawn with; nil when the terminal draws pixels (b does nothing then).
    public let blitter: BlitterKind?

    public init(theme: Theme, cellAspect: Double = 2, blitter: BlitterKind? = .half) {
        self.theme = theme
        self.cellAspect = cellAspect
        self.blitter = blitter
    }

    /// The cells the photo takes: fitted to the screen above the status line (the whole screen when the
    /// line is hidden), centred.
    public static func pictureRect(for viewer: ViewerState, width: Int, height: Int, cellAspect: Double = 2) -> Rect {
        pictureLayout(for: viewer, width: width, height: height, cellAspect: cellAspect).rect
    }

    /// Where the photo goes and how much of it shows. At fit, the whole photo in its fitted box; zoomed in,
    /// the photo grows past that box until it fills the terminal (no bars beside a zoomed photo), and the
    /// fractions say how much of the rotated photo's width and height is in view.
    public static func pictureLayout(for viewer: ViewerState, width: Int, height: Int, cellAspect: Double = 2) -> (rect: Rect, visibleX: Double, visibleY: Double) {
        let area = Rect(x: 0, y: 0, width: width, height: viewer.barHidden ? height : height - 1)
        var pixelWidth = viewer.photo.width > 0 ? viewer.photo.width : 3
        var pixelHeight = viewer.photo.height > 0 ? viewer.photo.height : 2
        if viewer.quarterTurns % 2 == 1 { swap(&pixelWidth, &pixelHeight) }
        let fitted = CellPicture.fittedSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight, columns: area.width, rows: area.height, cellAspect: cellAspect)
        let zoom = viewer.zoom.isFinite ? max(1, viewer.zoom) : 1
        guard zoom > 1, fitted.columns > 0, fitted.rows > 0 else {
            let rect = Rect(x: (area.width - fitted.columns) / 2, y: (area.height - fitted.rows) / 2, width: fitted.columns, height: fitted.rows)
            return (rect, 1 / zoom, 1 / zoom)
        }
        // The zoomed photo's size in cells, and what of it the terminal holds.
        let zoomedColumns = Double(fitted.columns) * zoom
        let zoomedRows = Double(fitted.rows) * zoom
        let columns = min(area.width, Int(saturating: zoomedColumns.rounded()))
        let rows = min(area.height, Int(saturating: zoomedRows.rounded()))
        let rect = Rect(x: (area.width - columns) / 2, y: (area.height - rows) / 2, width: columns, height: rows)
        return (rect, min(1, Double(columns) / zoomedColumns), min(1, Double(rows) / zoomedRows))
    }

    public func render(_ viewer: ViewerState, app: AppState, ui: UIState, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let layout = Self.pictureLayout(for: viewer, width: buffer.width, height: buffer.height, cellAspect: cellAspect)
        let rect = layout.rect
        let view = ViewTransform(viewer, visibleX: layout.visibleX, visibleY: layout.visibleY)
        switch pictures.viewerPicture(for: viewer.photo, columns: rect.width, rows: rect.height, view: view) {
        case let .ready(picture):
            buffer.draw(picture, x: rect.x + (rect.width - picture.columns) / 2, y: rect.y + (rect.height - picture.rows) / 2)
        case let .loading(placeholder):
            if let placeholder { buffer.draw(placeholder, x: rect.x, y: rect.y) }
            buffer.writeCentered(" \(theme.spinner(ui.tick)) Loading the photo\(theme.dots) ", in: rect, y: rect.y + rect.height / 2, style: theme.title)
        case .failed:
            buffer.fill(rect, with: Cell(" ", style: theme.placeholder))
            buffer.writeCentered("Photo unavailable", in: rect, y: rect.y + rect.height / 2, style: theme.placeholder)
            if rect.height > 2 {
                buffer.writeCentered("Press r to try again", in: rect, y: rect.y + rect.height / 2 + 1, style: theme.placeholder)
            }
        }
        // A hidden status line still comes back for what the user must see: a notice, a download.
        if !viewer.barHidden || viewer.notice != nil || viewer.download.isRunning {
            renderStatus(viewer, width: buffer.width, height: buffer.height, tick: ui.tick, into: &buffer)
        }
        let area = Rect(x: 0, y: 0, width: buffer.width, height: buffer.height - 1)
        switch viewer.modal {
        case let .likeFailed(liked, error):
            PhotoParts(theme: theme).likeFailedDialog(liked: liked, error, focused: ui.modalFocus, in: area, into: &buffer)
        case let .loadFailed(error):
            Widgets.modal(title: "Couldn't load the photo", message: error.message, buttons: ["Try again", "Cancel"],
                          focused: ui.modalFocus, in: area, theme: theme, into: &buffer)
        case let .downloadFailed(message):
            Widgets.modal(title: "Download failed", message: message, buttons: ["Try again", "Cancel"],
                          focused: ui.modalFocus, in: area, theme: theme, into: &buffer)
        case nil:
            break
        }
    }

    private func renderStatus(_ viewer: ViewerState, width: Int, height: Int, tick: Int, into buffer: inout CellBuffer) {
        let y = height - 1
        buffer.fill(Rect(x: 0, y: y, width: width, height: 1), with: Cell(" ", style: theme.bar))
        var x = 1
        let attribution: String
        if viewer.isFromAlbum {
            // An album photo (Imgur): no heart; its title, if it has one.
            attribution = (viewer.photo.altDescription.map { UntrustedText.sanitize($0) } ?? "Album photo")
                + (viewer.photo.isAnimated == true ? " (animated: its still; d saves the animation)" : "")
        } else {
            var heartStyle = viewer.photo.likedByUser ? theme.likedHeart : theme.unlikedHeart
            heartStyle.background = theme.bar.background
            let heart = viewer.likeInFlight ? theme.spinner(tick) : (viewer.photo.likedByUser ? theme.heartFull : theme.heartEmpty)
            x += buffer.write(heart, x: x, y: y, style: heartStyle)
            x += buffer.write(" \(viewer.photo.likes)  ", x: x, y: y, style: theme.bar)
            // Attribution as Unsplash's guidelines ask, then the keys if there is room for them.
            attribution = viewer.photo.user.map { PhotoParts.attributionText($0) } ?? "Photo by an unknown photographer on Unsplash"
        }
        // Where the view is, when it is not the whole photo upright: "8× zoom  90°".
        var place: [String] = []
        if viewer.zoom != 1 { place.append(Self.zoomLabel(viewer.zoom, unicode: theme.unicode)) }
        if viewer.quarterTurns % 4 != 0 { place.append("\(viewer.quarterTurns % 4 * 90)\(theme.unicode ? "°" : " deg")") }
        if let blitter, blitter != .half, theme.unicode { place.append(blitter == .quadrant ? "quadrants" : "sextants") }
        let placeText = place.isEmpty ? "" : place.joined(separator: "  ") + "  "
        let placeWidth = DisplayWidth.of(placeText)
        let showPlace = placeWidth > 0 && x + min(DisplayWidth.of(attribution), 12) + 2 + placeWidth <= width
        // The keys, most important first, each whole or not at all, in the room the attribution leaves
        // (the attribution itself gives way, down to 24 columns, only to "Esc back" and "? help").
        let essentials = Self.hints(viewer).prefix(2).reduce(0) { $0 + DisplayWidth.of($1) + 2 }
        let attributionWidth = min(DisplayWidth.of(attribution), max(24, width - x - 2 - (showPlace ? placeWidth : 0) - essentials))
        let hintsText = Widgets.hintLine(Self.hints(viewer), room: width - x - attributionWidth - 2 - (showPlace ? placeWidth : 0))
        let hintsWidth = DisplayWidth.of(hintsText)
        let rightWidth = hintsWidth + (showPlace ? placeWidth : 0)
        let attributionRoom = max(0, width - x - 1 - (rightWidth > 0 ? rightWidth + 1 : 0))
        if !viewer.isFromAlbum, let user = viewer.photo.user {
            // The same words, with the photographer and Unsplash linked.
            PhotoParts(theme: theme).attribution(user, x: x, y: y, style: theme.bar.merging(CellStyle(bold: true)),
                                                 maxWidth: attributionRoom, into: &buffer)
        } else {
            buffer.write(attribution, x: x, y: y, style: theme.bar.merging(CellStyle(bold: true)),
                         maxWidth: attributionRoom, ellipsis: theme.ellipsis)
        }
        if hintsWidth > 0 {
            buffer.write(hintsText, x: width - hintsWidth, y: y, style: theme.bar)
        }
        if showPlace {
            buffer.write(placeText, x: width - rightWidth, y: y, style: theme.bar.merging(CellStyle(bold: true)))
        }
        // Above it, the download's progress or the last notice.
        var line: String?
        if case let .running(fraction) = viewer.download {
            if let fraction {
                let barWidth = 20
                let filled = Int((fraction * Double(barWidth)).rounded())
                let full = theme.unicode ? "█" : "#"
                let empty = theme.unicode ? "░" : "."
                line = "Downloading \(String(repeating: full, count: filled))\(String(repeating: empty, count: barWidth - filled)) \(Int(fraction * 100))%"
            } else {
                line = "\(theme.spinner(tick)) Downloading\(theme.dots)"
            }
        } else if let notice = viewer.notice {
            line = UntrustedText.sanitize(notice)
        }
        if let line {
            buffer.fill(Rect(x: 0, y: y - 1, width: width, height: 1), with: Cell(" ", style: theme.modal))
            buffer.write(" " + line, x: 0, y: y - 1, style: theme.modal, maxWidth: width, ellipsis: theme.ellipsis)
        }
    }

    /// The viewer's keys for the status line, the ones that matter most first.
    static func hints(_ viewer: ViewerState) -> [String] {
        var hints = ["Esc back", "? help"]
        if viewer.imageUnavailable { hints.append("r retry") }
        if viewer.source != nil { hints.append("n/p next") }
        hints.append("+- zoom")
        if !viewer.isFromAlbum { hints.append("f like") }
        hints += ["d download", "s link"]
        if !viewer.imageUnavailable { hints.append("r rotate") }
        hints.append("i hide bar")
        return hints
    }

    /// "8× zoom", "2.3× zoom" ("x" without Unicode).
    public static func zoomLabel(_ zoom: Double, unicode: Bool) -> String {
        let rounded = (zoom * 10).rounded() / 10
        let number = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
        return "\(number)\(unicode ? "×" : "x") zoom"
    }

    // MARK: Input

    public func handle(_ input: InputEvent, viewer: ViewerState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
        if viewer.modal != nil {
            switch Widgets.modalChoice(input, focus: &ui.modalFocus) {
            case .first: return [.viewer(.modalTryAgain)]
            case .second: return [.viewer(.modalDismiss)]
            case nil: return []
            }
        }
        let zoomed = viewer.zoom > 1
        let layout = Self.pictureLayout(for: viewer, width: width, height: height, cellAspect: cellAspect)
        func pan(_ dx: Double, _ dy: Double) -> ViewerViewModel.Event {
            .pan(dx: dx, dy: dy, visibleX: layout.visibleX, visibleY: layout.visibleY)
        }
        var events: [ViewerViewModel.Event] = []
        switch input {
        case let .key(key):
            switch key {
            case .escape, .character("q"), .backspace: return [.closeViewer]
            case .character("+"), .character("="): events = [.zoomIn]
            case .character("-"), .character("_"): events = [.zoomOut]
            case .character("z"): events = [.toggleZoom]
            // The next and previous photo of the list; at fit, ← → h l too (zoomed, they pan).
            case .character("n"), .character("]"): return [.stepViewer(by: 1)]
            case .character("p"), .character("["): return [.stepViewer(by: -1)]
            case .left, .character("h"):
                if !zoomed { return [.stepViewer(by: -1)] }
                events = [pan(-0.25, 0)]
            case .right, .character("l"):
                // l never likes here: a panning habit must not write a like to the user's account (f does).
                if !zoomed { return [.stepViewer(by: 1)] }
                events = [pan(0.25, 0)]
            case .up, .character("k"): events = [pan(0, -0.25)]
            case .down, .character("j"): events = [pan(0, 0.25)]
            case .character("r"): events = [viewer.imageUnavailable ? .retryImage : .rotate]
            case .character("0"): events = [.reset]
            case .character("i"): events = [.toggleBar]
            case .character("b"):
                // The next set of characters for photos: half blocks, quadrants, sextants.
                guard let blitter else {
                    events = [.tell("b changes the characters photos are drawn with; here the terminal draws them in pixels.")]
                    break
                }
                ui.blitter = (ui.blitter ?? blitter).next
                return []
            case .character("f"), .character(" "): events = [.toggleLike]
            case .character("s"): events = [.share]
            case .character("d"): events = [.download]
            case .character("c"):
                guard !viewer.isFromAlbum else { events = [.tell("Album photos cannot go into Unsplash collections.")]; break }
                return [.browse(.openCollectionPicker(viewer.photo))]
            case .character("u"):
                guard !viewer.isFromAlbum else { events = [.tell("Album photos have no Unsplash photographer's page.")]; break }
                return CardListScreen.openPhotographer(viewer.photo)
            default: return []
            }
        case let .mouse(mouse):
            switch mouse.kind {
            case .wheelUp: events = [.zoomIn]
            case .wheelDown: events = [.zoomOut]
            case .press: events = [.toggleBar] // a tap shows or hides the status line
            }
        case .resize:
            return []
        }
        // Any key clears a notice that was read.
        if viewer.notice != nil, events != [.share] { events.insert(.dismissNotice, at: 0) }
        return events.map(AppViewModel.Event.viewer)
    }
}
