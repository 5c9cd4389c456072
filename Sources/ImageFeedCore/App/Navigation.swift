import Foundation

/// Navigation: which pane is shown, the viewer and the detail over it, the help, and the search the user turns to.
/// The exploring pages' own stack is `ExploreViewModel`'s; here are the moves between the app's screens.
enum Navigation {
    /// The app's navigation events (`AppViewModel.route` sends them here).
    static func update(_ state: inout AppState, _ event: AppViewModel.Event) -> [AppViewModel.Effect] {
        typealias Effect = AppViewModel.Effect
        switch event {
        case let .searchFor(text):
            // A tag picked in a detail: Esc in the results goes back to it (the detail stays over its pane).
            state.searchCameFrom = state.tab != .search && state.detail?.source != .search && state.shownDetail != nil ? state.tab : nil
            state.tab = .search
            state.viewer = nil
            state.helpVisible = false
            if state.detail?.source == .search { state.detail = nil }
            return AppViewModel.route(&state, .search(.searchFor(text)))

        case .focusSearch:
            state.tab = .search
            state.viewer = nil
            state.helpVisible = false
            return SearchViewModel.update(&state.search, .focus).map(Effect.search)

        case let .selectTab(tab):
            guard state.tabs.contains(tab) else { return [] }
            state.viewerUnderDetail = nil
            // Leaving the favorites: the photos unliked there go.
            if state.tab == .profile, tab != .profile { _ = PhotoListViewModel.update(&state.favorites, .pruneUnliked) }
            state.searchCameFrom = nil
            state.tab = tab
            state.viewer = nil
            state.helpVisible = false
            if tab == .profile, state.session == .loggedIn {
                return ProfileViewModel.update(&state.profile, .appear).map(Effect.profile)
            }
        case .nextTab:
            let tabs = state.tabs
            let index = tabs.firstIndex(of: state.tab) ?? 0
            return update(&state, .selectTab(tabs[(index + 1) % tabs.count]))
        case .previousTab:
            let tabs = state.tabs
            let index = tabs.firstIndex(of: state.tab) ?? 0
            return update(&state, .selectTab(tabs[(index + tabs.count - 1) % tabs.count]))
        case let .openViewer(photoID):
            let source = state.shownDetail?.source ?? state.shownSource
            let detailPhoto = state.detail?.photo.id == photoID ? state.detail?.photo : nil
            let photos = state.photos(from: source)
            guard let photo = detailPhoto ?? photos.firstIndex(ofID: photoID).map({ photos[$0] })
                ?? state.feed.photo(id: photoID) else { return [] }
            var viewer = ViewerState(photo: photo)
            viewer.source = source
            // An album's photo is not an Unsplash photo: no like, and no download tracking.
            viewer.isFromAlbum = source == .album
            state.viewer = viewer
        case let .stepViewer(offset):
            return stepViewer(by: offset, in: &state)
        case let .openDetail(photoID):
            // Album photos have no detail of their own (no Unsplash photo to ask for): their source has no list.
            guard let photo = state.pagedList(state.shownSource)?.photo(id: photoID) else { return [] }
            state.detail = PhotoDetail(photo: photo, source: state.shownSource)
            return [.detail(.load(photoID: photoID))]
        case let .openDetailFromViewer(photoID):
            let viewer = state.viewer
            state.viewer = nil
            let effects = update(&state, .openDetail(photoID: photoID))
            // No detail for it (an album's photo): the viewer stays.
            if state.detail == nil { state.viewer = viewer } else { state.viewerUnderDetail = viewer }
            return effects
        case .closeDetail:
            state.detail = nil
            // Back one level: to the viewer the detail was opened from.
            if let viewer = state.viewerUnderDetail {
                state.viewer = viewer
                state.viewerUnderDetail = nil
            }
        case .closeViewer:
            state.viewer = nil
        case .toggleHelp:
            state.helpVisible.toggle()
        default:
            break
        }
        return []
    }

    /// The next or previous photo in the viewer (the frame that shows it asks for the list's next page in time,
    /// as a scrolled list's frame does).
    static func stepViewer(by offset: Int, in state: inout AppState) -> [AppViewModel.Effect] {
        guard let viewer = state.viewer, let source = viewer.source, viewer.modal == nil else { return [] }
        let list = state.pagedList(source)
        let photos = state.photos(from: source)
        guard let index = photos.firstIndex(ofID: viewer.photo.id) else { return [] }
        let target = index + offset
        var effects: [AppViewModel.Effect] = []
        guard photos.indices.contains(target) else {
            let loading: Bool = if case .loading = list?.nextPage { true } else { false }
            state.viewer?.notice = offset < 0 ? "This is the first photo."
                : loading ? "Loading more photos\u{2026} one moment, then again." : "This is the last photo."
            return effects
        }
        var next = ViewerState(photo: photos[target])
        next.source = source
        next.isFromAlbum = viewer.isFromAlbum
        next.barHidden = viewer.barHidden
        state.viewer = next
        if source == .album { effects += AlbumsViewModel.update(&state.albums, .selectPhoto(index: target)).map(AppViewModel.Effect.albums) }
        return effects
    }

}
