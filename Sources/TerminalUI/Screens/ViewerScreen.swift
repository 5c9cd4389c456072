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
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    public init(theme: Theme, cellAspect: Double = 2, blitter: BlitterKind? = .half) {
        self.theme = theme
        self.cellAspect = cellAspect
        self.blitter = blitter
    }

    /// The viewer's keys.
    static let keys: [KeyRecord] = [
        KeyRecord([(.next, [.character("n"), .character("]")]), (.previous, [.character("p"), .character("[")])],
                  "next / previous photo of the list", hint: "next", rank: 20),
        KeyRecord([(.left, [.left, .character("h")]), (.right, [.right, .character("l")])], "the same at fit; zoomed in, pan"),
        KeyRecord([(.up, [.up, .character("k")]), (.down, [.down, .character("j")])], "pan when zoomed in"),
        KeyRecord([(.zoomIn, [.character("+"), .character("=")]), (.zoomOut, [.character("-"), .character("_")])], "zoom in / out",
                  extra: ", wheel", hint: "zoom", rank: 30),
        KeyRecord([(.zoom, [.character("z")])], "the whole photo, or the largest zoom"),
        KeyRecord([(.rotate, [.character(">")])], "rotate by 90°", hint: "rotate", rank: 70),
        KeyRecord([(.reset, [.character("0")])], "the whole photo, upright"),
        KeyRecord([(.play, [.character(" ")])], "play / pause an animation", hint: "play", rank: 25),
        KeyRecord([(.nextFrame, [.character(".")]), (.previousFrame, [.character(",")])], "an animation's next / previous frame, paused"),
        SharedKeys.like, SharedKeys.share, SharedKeys.download,
        SharedKeys.photographer("the photographer's page"), SharedKeys.collect,
        KeyRecord([(.details, [.character("i")])], "the photo's details", hint: "details", rank: 75),
        KeyRecord([(.statusLine, [.character("H")])], "hide or show the status line", extra: ", click", hint: "hide bar", rank: 80),
        KeyRecord([(.blitter, [.character("b")])], "photos in half blocks, quadrants or sextants"),
        SharedKeys.reload("retry the photo when it failed", hint: "retry"),
        SharedKeys.back(),
    ]

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
        let motion = pictures.viewerAnimation
        switch pictures.viewerPicture(for: viewer.photo, columns: rect.width, rows: rect.height, view: view) {
        case let .ready(picture):
            // An animation the terminal plays is told whether to play or to stand at a frame; one the program paces stands
            // at the frame the clock is at.
            let playback: PicturePlacement.Playback? = motion.map {
                $0.paused || $0.heldForLink || $0.heldBecause != nil || !$0.playedByTerminal ? .paused(frame: $0.frame) : .playing
            }
            buffer.draw(picture, x: rect.x + (rect.width - picture.columns) / 2, y: rect.y + (rect.height - picture.rows) / 2,
                        playback: playback)
        case let .loading(placeholder):
            if let placeholder { buffer.draw(placeholder, x: rect.x, y: rect.y) }
            buffer.writeCentered(" \(theme.spinner(ui.tick)) Loading the photo\(theme.dots) ", in: rect, y: rect.y + rect.height / 2, style: theme.title)
        case .failed:
            buffer.fill(rect, with: Cell(" ", style: theme.placeholder))
            buffer.writeCentered("Photo unavailable", in: rect, y: rect.y + rect.height / 2, style: theme.placeholder)
            if rect.height > 2 {
                buffer.writeCentered("Press \(theme.key(.reload)) to try again", in: rect, y: rect.y + rect.height / 2 + 1, style: theme.placeholder)
            }
        }
        // A hidden status line still comes back for what the user must see: a notice, a download.
        // Downloads of other photos (started before n/p or an earlier viewer) show too.
        let elsewhere = app.downloads.filter { $0.photoID != viewer.photo.id }.summary(unicode: theme.unicode)
        if !viewer.barHidden || viewer.modal != nil || viewer.notice != nil || viewer.download.isRunning || elsewhere != nil {
            renderStatus(viewer, motion: motion, retries: pictures.animationRetries, elsewhere: elsewhere, width: buffer.width,
                         height: buffer.height, ui: ui, into: &buffer)
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
        case let .copyStoppedShort(outcome, text):
            PhotoParts(theme: theme).copyStoppedShortDialog(outcome, text: text, in: area, into: &buffer)
        case nil:
            break
        }
    }

    private func renderStatus(_ viewer: ViewerState, motion: AnimationStatus?, retries: Bool = false, elsewhere: String? = nil, width: Int,
                              height: Int, ui: UIState, into buffer: inout CellBuffer) {
        let tick = ui.tick
        let y = height - 1
        buffer.fill(Rect(x: 0, y: y, width: width, height: 1), with: Cell(" ", style: theme.bar))
        var x = 1
        // The keys, most important first (under a dialog, the dialog's: the viewer's do nothing then).
        let shown = PhotoParts.dialogHints(viewer.modal, ui: ui) ?? hints(viewer, motion: motion, retries: retries)
        let attribution: String
        if viewer.isFromAlbum {
            // An album photo (Imgur): no heart; its title, if it has one.
            attribution = (viewer.photo.altDescription.map { UntrustedText.sanitize($0) } ?? "Album photo")
        } else {
            var heartStyle = viewer.photo.likedByUser ? theme.likedHeart : theme.unlikedHeart
            heartStyle.background = theme.bar.background
            let heart = viewer.likeInFlight ? theme.spinner(tick) : (viewer.photo.likedByUser ? theme.heartFull : theme.heartEmpty)
            let likes = " \(viewer.photo.likes)  "
            // The heart and its count give way where the way out ("Esc back") would not fit beside the attribution.
            let first = shown.first ?? ""
            if x + DisplayWidth.of(heart) + DisplayWidth.of(likes) + 24 + 2 + DisplayWidth.of(first) + 2 <= width {
                x += buffer.write(heart, x: x, y: y, style: heartStyle)
                x += buffer.write(likes, x: x, y: y, style: theme.bar)
            }
            // Attribution as Unsplash's guidelines ask, then the keys if there is room for them.
            attribution = viewer.photo.user.map { PhotoParts.attributionText($0) } ?? "Photo by an unknown photographer on Unsplash"
        }
        // Where the view is, when it is not the whole photo upright: "8× zoom  90°".
        var place: [String] = []
        if let elsewhere { place.append(elsewhere) }
        if viewer.photo.isAnimated == true || motion != nil { place.append(Self.motionLabel(motion, unicode: theme.unicode)) }
        if viewer.zoom != 1 { place.append(Self.zoomLabel(viewer.zoom, unicode: theme.unicode)) }
        if viewer.quarterTurns % 4 != 0 { place.append("\(viewer.quarterTurns % 4 * 90)\(theme.unicode ? "°" : " deg")") }
        if let blitter, blitter != .half, theme.unicode { place.append(blitter == .quadrant ? "quadrants" : blitter == .blocks ? "blocks" : "sextants") }
        // The keys, each whole or not at all, in the room the attribution leaves (the attribution itself gives way,
        // down to 24 columns, only to "Esc back" and "? help").
        let essentials = shown.prefix(2).reduce(0) { $0 + DisplayWidth.of($1) + 2 }
        // Where the view is gives way to the way out ("Esc back", "? help"): the characters' name first, a detail.
        let fits = { (place: [String]) in x + min(DisplayWidth.of(attribution), 12) + 2 + DisplayWidth.of(place.joined(separator: "  ") + "  ") + essentials <= width }
        if let last = place.last, ["quadrants", "blocks", "sextants"].contains(last), !fits(place) { place.removeLast() }
        let placeText = place.isEmpty ? "" : place.joined(separator: "  ") + "  "
        let placeWidth = DisplayWidth.of(placeText)
        let showPlace = placeWidth > 0 && fits(place)
        let attributionWidth = min(DisplayWidth.of(attribution), max(24, width - x - 2 - (showPlace ? placeWidth : 0) - essentials))
        let hintsText = Widgets.hintLine(shown, room: width - x - attributionWidth - 2 - (showPlace ? placeWidth : 0))
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

    /// The viewer's keys for the status line, the ones that matter most first. `motion`: where its animation is:
    /// Space says what it does now (play, pause), nothing is offered to play where nothing can, and `r` is offered
    /// where an animation could not be read (or was damaged) and can be tried again.
    func hints(_ viewer: ViewerState, motion: AnimationStatus? = nil, retries: Bool = false) -> [String] {
        var hidden: Set<Intent> = Self.cannotAct(viewer, motion: motion).union([.quit, .nextPane, .search])
        if !viewer.imageUnavailable && !retries { hidden.insert(.reload) } else if viewer.imageUnavailable { hidden.insert(.rotate) }
        var labels: [Intent: String] = [:]
        if let motion, motion.frames > 0, !motion.paused, !motion.finished || motion.reading { labels[.play] = "pause" }
        if retries, !viewer.imageUnavailable { labels[.reload] = "retry" }
        return keys.hints(.viewer, labels: labels) { !hidden.contains($0) }
    }

    /// The viewer's keys that cannot act on the photo shown: no list to go through, an album's photo (Imgur: no
    /// likes, details, photographer or collections), a photo that does not move. Neither hinted nor in the help.
    static func cannotAct(_ viewer: ViewerState, motion: AnimationStatus? = nil) -> Set<Intent> {
        var hidden: Set<Intent> = []
        if viewer.source == nil { hidden.formUnion([.next, .previous]) }
        if viewer.isFromAlbum { hidden.formUnion([.like, .details, .photographer, .collect]) }
        // Read and found not to move, or not readable: the status line says why, and Space is not offered.
        let cannotPlay = motion.map { $0.frames == 0 } ?? false
        if viewer.photo.isAnimated != true || cannotPlay { hidden.formUnion([.play, .nextFrame, .previousFrame]) }
        return hidden
    }

    /// Where an animation is: "▶ 3/20", "▶ 3/20 loop 2", "❚❚ 3/20", "▶ 3/5…" (the rest still being read), "paused: slow
    /// link, Space plays", "link too slow to play: Space tries"; nil status: its frames are on their way.
    static func motionLabel(_ motion: AnimationStatus?, unicode: Bool) -> String {
        guard let motion else { return "animated: loading its frames" }
        guard motion.frames > 0 else { return motion.cut.map { "still: \($0)" } ?? "still" }
        if motion.heldForLink { return "paused: slow link, Space plays" }
        if motion.linkTooSlow { return "link too slow to play: Space tries" }
        if let why = motion.heldBecause { return "still: \(why), Space plays" }
        // Still being read: the frames so far, and more to come.
        let count = "\(motion.frames)\(motion.reading ? (unicode ? "…" : "...") : motion.cut == nil ? "" : "+")"
        // The frame number keeps its width, so the line does not shift as it plays.
        let number = String(motion.frame + 1)
        let frame = String(repeating: " ", count: max(0, String(motion.frames).count - number.count)) + number
        if motion.finished, !motion.reading { return "ended, Space replays" }
        if motion.paused { return "\(unicode ? "❚❚" : "paused") \(frame)/\(count)" }
        let play = unicode ? "▶" : "playing"
        if motion.playedByTerminal { return "\(play) \(count) frames" }
        let loop = motion.loop > 1 ? " loop \(motion.loop)\(motion.loops > 1 ? "/\(motion.loops)" : "")" : ""
        return "\(play) \(frame)/\(count)\(loop)"
    }

    /// "8× zoom", "2.3× zoom" ("x" without Unicode).
    public static func zoomLabel(_ zoom: Double, unicode: Bool) -> String {
        let rounded = (zoom * 10).rounded() / 10
        let number = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
        return "\(number)\(unicode ? "×" : "x") zoom"
    }

    // MARK: Input

    func handle(_ input: InputEvent, intent: Intent?, viewer: ViewerState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
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
        case .key:
            switch intent {
            case .back: return [.closeViewer]
            case .zoomIn: events = [.zoomIn]
            case .zoomOut: events = [.zoomOut]
            case .zoom: events = [.toggleZoom]
            // The next and previous photo of the list; at fit, left and right too (zoomed, they pan).
            case .next: return [.stepViewer(by: 1)]
            case .previous: return [.stepViewer(by: -1)]
            case .left:
                if !zoomed { return [.stepViewer(by: -1)] }
                events = [pan(-0.25, 0)]
            case .right:
                if !zoomed { return [.stepViewer(by: 1)] }
                events = [pan(0.25, 0)]
            case .up: events = [pan(0, -0.25)]
            case .down: events = [pan(0, 0.25)]
            case .reload:
                if viewer.imageUnavailable {
                    events = [.retryImage]
                } else if viewer.photo.isAnimated == true {
                    // The still is there: an animation that could not be read is read again (the pipeline knows).
                    ui.playbackRequest = .retry
                    return []
                } else {
                    events = []
                }
            case .rotate: events = [.rotate]
            case .reset: events = [.reset]
            case .statusLine: events = [.toggleBar]
            case .blitter:
                // The next set of characters for photos: half blocks, quadrants, sextants.
                guard let blitter else {
                    events = [.tell("\(keys.hintKeys(.blitter, in: .viewer)) changes the characters photos are drawn with; here the terminal draws them in pixels.")]
                    break
                }
                ui.blitter = (ui.blitter ?? blitter).next
                return []
            case .play, .nextFrame, .previousFrame:
                guard viewer.photo.isAnimated == true else {
                    events = [.tell("\(keys.hintKeys(.play, in: .viewer)) plays animations; this photo is a still.")]
                    break
                }
                ui.playbackRequest = intent == .play ? .playPause : .step(intent == .nextFrame ? 1 : -1)
                return []
            case .like: events = [.toggleLike]
            case .share: events = [.share]
            case .download: events = [.download]
            case .details:
                guard !viewer.isFromAlbum else { events = [.tell("Album photos have no Unsplash details.")]; break }
                return [.openDetailFromViewer(photoID: viewer.photo.id)]
            case .collect:
                guard !viewer.isFromAlbum else { events = [.tell("Album photos cannot go into Unsplash collections.")]; break }
                return [.explore(.openCollectionPicker(viewer.photo))]
            case .photographer:
                guard !viewer.isFromAlbum else { events = [.tell("Album photos have no Unsplash photographer's page.")]; break }
                return CardList.openPhotographer(viewer.photo)
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

extension ViewerScreen: Screen {
    var chrome: Chrome { .none }
    func keyContext(_ app: AppState) -> KeyContext { .viewer }
    func title(_ app: AppState) -> String { "Keys: the photo, full screen" }
    func dialogIsOpen(_ app: AppState) -> Bool { app.viewer?.modal != nil }
    /// The help lists what can act on the photo shown (an album's has no likes, details or photographer).
    func helpShows(_ app: AppState) -> Set<Intent>? {
        guard let viewer = app.viewer else { return nil }
        let hidden = Self.cannotAct(viewer)
        return Set(Self.keys.flatMap { $0.intents.map(\.intent) }).filter { !hidden.contains($0) }
    }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? { PhotoParts.dialogHints(app.viewer?.modal, ui: ui) }

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        guard let viewer = app.viewer else { return }
        render(viewer, app: app, ui: ui, pictures: pictures, into: &buffer)
    }

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        guard let viewer = app.viewer else { return [] }
        return handle(input, intent: intent, viewer: viewer, ui: &ui, width: area.width, height: area.height)
    }

    /// The viewer draws its own status line.
    func hints(_ app: AppState, ui: UIState) -> [String] {
        app.viewer.map { hints($0) } ?? []
    }

    /// The photo shown, in the list the viewer was opened from.
    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        guard let viewer = app.viewer, let source = viewer.source, let name = ShownList(source),
              let index = app.pagedList(source)?.photos.firstIndex(ofID: viewer.photo.id) else { return nil }
        return (name, index)
    }
}
