import Foundation
import ImageFeedCore
import TerminalImage

/// The full-screen viewer: the photo fitted to the terminal and centred, its attribution, and its dialogs.
public struct ViewerScreen {
    public let theme: Theme

    public init(theme: Theme) {
        self.theme = theme
    }

    /// The cells the photo takes: fitted to the screen above the status line (the whole screen when the
    /// line is hidden), centred.
    public static func pictureRect(for viewer: ViewerState, width: Int, height: Int) -> Rect {
        let area = Rect(x: 0, y: 0, width: width, height: viewer.barHidden ? height : height - 1)
        var pixelWidth = viewer.photo.width > 0 ? viewer.photo.width : 3
        var pixelHeight = viewer.photo.height > 0 ? viewer.photo.height : 2
        if viewer.quarterTurns % 2 == 1 { swap(&pixelWidth, &pixelHeight) }
        let fitted = CellPicture.fittedSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight, columns: area.width, rows: area.height)
        return Rect(x: (area.width - fitted.columns) / 2, y: (area.height - fitted.rows) / 2, width: fitted.columns, height: fitted.rows)
    }

    public func render(_ viewer: ViewerState, app: AppState, ui: UIState, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let rect = Self.pictureRect(for: viewer, width: buffer.width, height: buffer.height)
        switch pictures.viewerPicture(for: viewer.photo, columns: rect.width, rows: rect.height, view: ViewTransform(viewer)) {
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
        let hints: String
        if viewer.isFromAlbum {
            // An album photo (Imgur): no heart; its title, if it has one.
            attribution = viewer.photo.altDescription.map { UntrustedText.sanitize($0) } ?? "Album photo"
            hints = "+- z zoom  r rotate  0 reset  s share  d download  Esc back "
        } else {
            var heartStyle = viewer.photo.likedByUser ? theme.likedHeart : theme.unlikedHeart
            heartStyle.background = theme.bar.background
            let heart = viewer.likeInFlight ? theme.spinner(tick) : (viewer.photo.likedByUser ? theme.heartFull : theme.heartEmpty)
            x += buffer.write(heart, x: x, y: y, style: heartStyle)
            x += buffer.write(" \(viewer.photo.likes)  ", x: x, y: y, style: theme.bar)
            // Attribution as Unsplash's guidelines ask, then the keys if there is room for them.
            let name = viewer.photo.user.map { UntrustedText.sanitize($0.displayName) } ?? "an unknown photographer"
            attribution = "Photo by \(name) on Unsplash"
            hints = "+- z zoom  r rotate  0 reset  f like  s share  d download  Esc back "
        }
        // Where the view is, when it is not the whole photo upright: "8× zoom  90°".
        var place: [String] = []
        if viewer.zoom != 1 { place.append(Self.zoomLabel(viewer.zoom, unicode: theme.unicode)) }
        if viewer.quarterTurns % 4 != 0 { place.append("\(viewer.quarterTurns % 4 * 90)\(theme.unicode ? "°" : " deg")") }
        let placeText = place.isEmpty ? "" : place.joined(separator: "  ") + "  "
        let placeWidth = DisplayWidth.of(placeText)
        let hintsWidth = DisplayWidth.of(hints)
        let showHints = x + DisplayWidth.of(attribution) + 2 + placeWidth + hintsWidth <= width
        let showPlace = placeWidth > 0 && x + min(DisplayWidth.of(attribution), 12) + 2 + placeWidth <= width
        let rightWidth = (showHints ? hintsWidth : 0) + (showPlace ? placeWidth : 0)
        buffer.write(attribution, x: x, y: y, style: theme.bar.merging(CellStyle(bold: true)),
                     maxWidth: max(0, width - x - 1 - (rightWidth > 0 ? rightWidth + 1 : 0)), ellipsis: theme.ellipsis)
        if showHints {
            buffer.write(hints, x: width - hintsWidth, y: y, style: theme.bar)
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
        var events: [ViewerViewModel.Event] = []
        switch input {
        case let .key(key):
            switch key {
            case .escape, .character("q"), .backspace: return [.closeViewer]
            case .character("+"), .character("="): events = [.zoomIn]
            case .character("-"), .character("_"): events = [.zoomOut]
            case .character("z"): events = [.toggleZoom]
            case .left, .character("h"): events = [.pan(dx: -0.25, dy: 0)]
            case .right: events = [.pan(dx: 0.25, dy: 0)]
            case .character("l"): events = zoomed ? [.pan(dx: 0.25, dy: 0)] : [.toggleLike]
            case .up, .character("k"): events = [.pan(dx: 0, dy: -0.25)]
            case .down, .character("j"): events = [.pan(dx: 0, dy: 0.25)]
            case .character("r"): events = [viewer.imageUnavailable ? .retryImage : .rotate]
            case .character("0"): events = [.reset]
            case .character("i"): events = [.toggleBar]
            case .character("f"), .character(" "): events = [.toggleLike]
            case .character("s"): events = [.share]
            case .character("d"): events = [.download]
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
