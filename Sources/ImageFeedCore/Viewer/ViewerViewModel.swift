import Foundation

/// The full-screen viewer of one photo: zoom, pan, rotation, like, share and download.
public struct ViewerState: Equatable, Sendable {
    /// The list a photo was opened from: the viewer moves through it (n/p).
    public enum Source: Equatable, Sendable {
        case feed
        case favorites
        case search
        case album
        /// The photo list of the page on top (a photographer's, a collection's).
        case sheet
    }

    public enum Modal: Equatable, Sendable {
        /// Liking or unliking failed: "Try again" repeats it.
        case likeFailed(liked: Bool, ServiceError)
        /// The photo could not be fetched.
        case loadFailed(ServiceError)
        case downloadFailed(String)
        /// A copy stopped short of the clipboard: why, the fix, and the whole text to select by hand.
        case copyStoppedShort(CopyOutcome, text: String)
    }

    public enum Download: Equatable, Sendable {
        case idle
        /// A fraction 0...1, or nil while the size is unknown.
        case running(Double?)
        case finished(path: String)

        public var isRunning: Bool {
            if case .running = self { return true }
            return false
        }
    }

    public var photo: Photo
    /// 1 is the whole photo fitted to the screen; each step in or out multiplies or divides by 1.5.
    public var zoom: Double = 1
    /// The centre of the view within the photo, as fractions of its width and height from its middle
    /// (-0.5...0.5): (0, 0) is centred.
    public var panX: Double = 0
    public var panY: Double = 0
    /// Clockwise quarter turns, 0...3.
    public var quarterTurns = 0
    public var likeInFlight = false
    public var modal: Modal?
    /// A one-line message at the bottom (the link that was copied, where a download went).
    public var notice: String?
    public var download: Download = .idle

    public static let maximumZoom = 8.0
    /// An album's photo (Imgur): there is no like, and downloading it is fetching the file.
    public var isFromAlbum = false
    /// The status line is hidden: the photo has the whole terminal (a notice or a download still shows).
    public var barHidden = false
    /// The photo could not be fetched or read: `r` tries again.
    public var imageUnavailable = false
    /// Where the photo was opened from, if from a list.
    public var source: Source?

    public init(photo: Photo) {
        self.photo = photo
    }
}

public enum ViewerViewModel {
    public enum Event: Equatable, Sendable {
        case zoomIn
        case zoomOut
        /// `z`: between the whole photo and the largest zoom, centred.
        case toggleZoom
        /// Moves the view by a fraction of what is visible: (1, 0) is one screen to the right. `visibleX` and
        /// `visibleY` say how much of the (rotated) photo's width and height the screen shows (1/zoom when
        /// not given).
        case pan(dx: Double, dy: Double, visibleX: Double? = nil, visibleY: Double? = nil)
        case rotate
        case reset
        /// Hides or shows the status line (a click, or `i`).
        case toggleBar
        case toggleLike
        case likeFinished(liked: Bool, Result<Photo, ServiceError>)
        case share
        /// The link was handed to the browser (`opened`: one took it).
        case shared(opened: Bool)
        /// What became of the link's copy (the terminal half decides it as it copies).
        case copied(CopyOutcome)
        case download
        /// How far the download of `photoID` is (nil: its size is not known).
        case downloadProgress(photoID: String, Double?)
        /// `replaced`: a file of the same name (the same photo, downloaded before) was replaced. The app says it
        /// wherever the user is (`AppState.downloads`); the viewer of that photo, if open, says it too.
        case downloadFinished(photoID: String, Result<String, ServiceError>, replaced: Bool = false)
        case imageFailed(ServiceError)
        /// The photo's bytes came but could not be read (a damaged file), or never came.
        case imageUnavailable
        /// `r` over a photo that could not be had: ask for it again.
        case retryImage
        case modalTryAgain
        case modalDismiss
        case dismissNotice
        /// Says something about a key the viewer cannot act on here.
        case tell(String)
    }

    public enum Effect: Equatable, Sendable {
        case setLike(photoID: String, liked: Bool)
        case share(URL)
        /// Save the photo's file; `tracked`: tell Unsplash first, as its guidelines ask (not for album photos).
        case download(Photo, tracked: Bool)
        case reloadImage
    }

    public static func update(_ state: inout ViewerState, _ event: Event) -> [Effect] {
        switch event {
        case .zoomIn:
            state.zoom = min(ViewerState.maximumZoom, state.zoom * 1.5)
            clampPan(&state)
        case .toggleBar:
            state.barHidden.toggle()
        case .toggleZoom:
            state.zoom = state.zoom > 1 ? 1 : ViewerState.maximumZoom
            state.panX = 0
            state.panY = 0
        case .zoomOut:
            state.zoom = max(1, state.zoom / 1.5)
            if state.zoom < 1.01 { state.zoom = 1 }
            clampPan(&state)
        case let .pan(dx, dy, visibleX, visibleY):
            guard state.zoom > 1 else { return [] }
            // A screen shows a part of the photo; the keys move by a part of that, in the rotated frame.
            let shownX = visibleX ?? 1 / state.zoom
            let shownY = visibleY ?? 1 / state.zoom
            let (x, y) = rotated(dx: dx * shownX, dy: dy * shownY, quarterTurns: state.quarterTurns)
            state.panX += x
            state.panY += y
            // The centre stays where the view still ends at the photo's edges.
            let (limitX, limitY) = state.quarterTurns % 2 == 1 ? ((1 - shownY) / 2, (1 - shownX) / 2) : ((1 - shownX) / 2, (1 - shownY) / 2)
            clampPan(&state)
            state.panX = min(max(0, limitX), max(-max(0, limitX), state.panX))
            state.panY = min(max(0, limitY), max(-max(0, limitY), state.panY))
        case .rotate:
            state.quarterTurns = (state.quarterTurns + 1) % 4
        case .reset:
            state.zoom = 1
            state.panX = 0
            state.panY = 0
            state.quarterTurns = 0
        case .toggleLike:
            guard !state.isFromAlbum else {
                state.notice = "Album photos cannot be liked here."
                return []
            }
            guard !state.likeInFlight else { return [] }
            state.likeInFlight = true
            return [.setLike(photoID: state.photo.id, liked: !state.photo.likedByUser)]
        case let .likeFinished(liked, result):
            state.likeInFlight = false
            switch result {
            case let .success(updated):
                state.photo.likedByUser = liked
                state.photo.likes = updated.likes
            case .failure(.sessionExpired):
                break // the app ends the session where the answer arrives
            case let .failure(error):
                state.modal = .likeFailed(liked: liked, error)
            }
        case .share:
            guard let link = Self.sharedLink(state) else {
                state.notice = "This photo has no page to share."
                return []
            }
            return [.share(link)]
        case let .shared(opened):
            // The copy was said first (it is done before the browser is asked); the browser joins it.
            if opened { state.notice = "Opened in the browser. " + (state.notice ?? "") }
        case let .copied(outcome):
            let link = Self.sharedLink(state)?.absoluteString ?? ""
            // Never a copy claimed that did not happen: where it stopped short, the whole link and the fix.
            if outcome.reached {
                state.notice = "\(outcome.said): \(link)"
            } else {
                state.notice = nil
                state.modal = .copyStoppedShort(outcome, text: link)
            }
        case .download:
            if case .running = state.download { return [] }
            state.download = .running(nil)
            return [.download(state.photo, tracked: !state.isFromAlbum)]
        case let .downloadProgress(photoID, fraction):
            guard photoID == state.photo.id else { return [] }
            if case .running = state.download { state.download = .running(fraction) }
        case let .downloadFinished(photoID, result, replaced):
            guard photoID == state.photo.id else { return [] }
            switch result {
            case let .success(path):
                state.download = .finished(path: path)
                // What happened first: a long path may be cut at the screen's edge.
                state.notice = Self.savedNotice(path: path, replaced: replaced)
            case let .failure(error):
                state.download = .idle
                if error != .sessionExpired { state.modal = .downloadFailed(error.message) }
            }
        case let .imageFailed(error):
            state.imageUnavailable = true
            state.modal = .loadFailed(error)
        case .imageUnavailable:
            state.imageUnavailable = true
        case .retryImage:
            guard state.imageUnavailable else { return [] }
            state.imageUnavailable = false
            return [.reloadImage]
        case .modalTryAgain:
            let modal = state.modal
            state.modal = nil
            switch modal {
            case let .likeFailed(liked, error):
                guard error.retryHelpsNow, !state.likeInFlight else { return [] }
                state.likeInFlight = true
                return [.setLike(photoID: state.photo.id, liked: liked)]
            case .loadFailed:
                state.imageUnavailable = false
                return [.reloadImage]
            case .downloadFailed:
                state.download = .running(nil)
                return [.download(state.photo, tracked: !state.isFromAlbum)]
            case .copyStoppedShort, nil:
                return []
            }
        case .modalDismiss:
            state.modal = nil
        case .dismissNotice:
            state.notice = nil
        case let .tell(text):
            state.notice = text
        }
        return []
    }

    /// What a finished download says: the file's name first, then its folder (a long folder is what the screen's
    /// edge cuts, never the name).
    public static func savedNotice(path: String, replaced: Bool) -> String {
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 }
        let place = folder.map { " in \($0)" } ?? ""
        return replaced ? "Saved \(name) again\(place), replacing the earlier download" : "Saved \(name)\(place)"
    }

    /// The pan keeps the view inside the photo: at zoom z the centre can move (1 - 1/z) / 2 each way.
    private static func clampPan(_ state: inout ViewerState) {
        let limit = (1 - 1 / state.zoom) / 2
        state.panX = min(limit, max(-limit, state.panX))
        state.panY = min(limit, max(-limit, state.panY))
    }

    /// A move on screen, turned into a move on the photo when the photo is shown rotated.
    private static func rotated(dx: Double, dy: Double, quarterTurns: Int) -> (Double, Double) {
        switch quarterTurns % 4 {
        case 1: (dy, -dx)
        case 2: (-dx, -dy)
        case 3: (-dy, dx)
        default: (dx, dy)
        }
    }
}

extension ViewerViewModel {
    /// The photo's page as share copies it: an Unsplash page with the referral parameters Unsplash asks for on
    /// every link back; an album photo's page as it is.
    static func sharedLink(_ state: ViewerState) -> URL? {
        guard let page = state.photo.links.html else { return nil }
        return state.isFromAlbum ? page : Referral.link(page)
    }
}

extension ViewerViewModel.Event {
    /// The service's error, when this event is an answer that failed.
    public var failure: ServiceError? {
        switch self {
        case let .likeFinished(_, .failure(error)), let .downloadFinished(_, .failure(error), _): error
        default: nil
        }
    }
}
