import Foundation

/// A like that succeeded reaches every list and every photo shown on its own, in one update.
extension AppViewModel {
    /// One like or unlike that succeeded, everywhere it shows. `inFavorites`: it was done in the favorites list, where
    /// an unliked photo stays in place, its heart empty, until the list is reloaded or left (a second `f` likes it
    /// again, and the selection does not move on to the next favorite), and the status line says what was removed.
    static func likeChanged(_ photo: Photo, liked: Bool, likes: Int, inFavorites: Bool = false, in state: inout AppState) -> [Effect] {
        let wasFavorite = state.favorites.photo(id: photo.id) != nil
        // Every list that may hold the photo, then every photo shown on its own: one rule for all of them.
        state.changePhotoLists { _ = PhotoListViewModel.update(&$0, .likeChangedElsewhere(photoID: photo.id, liked: liked, likes: likes)) }
        state.changeShownPhoto(id: photo.id) { shown in
            shown.likedByUser = liked
            shown.likes = likes
        }
        // The favorites are the liked photos: a like adds the photo, an unlike takes it away.
        if liked {
            var favorite = photo
            favorite.likedByUser = true
            favorite.likes = likes
            _ = PhotoListViewModel.update(&state.favorites, .insertedElsewhere(favorite))
        } else if inFavorites {
            _ = PhotoListViewModel.update(&state.favorites, .unlikedHere(photoID: photo.id))
        } else {
            _ = PhotoListViewModel.update(&state.favorites, .removedElsewhere(photoID: photo.id))
        }
        // The profile's count follows when the favorites list could not (not loaded yet).
        if case var .content(profile) = state.profile.phase, state.favorites.totalItems == nil, liked != wasFavorite,
           let total = profile.totalLikes {
            profile.totalLikes = max(0, total + (liked ? 1 : -1))
            state.profile.phase = .content(profile)
        }
        guard inFavorites, !liked else { return [] }
        let caption = photo.caption.map(UntrustedText.sanitize) ?? ""
        let what = caption.isEmpty ? "the photo" : "“\(caption.count > 40 ? caption.prefix(39) + "…" : caption)”"
        return notify("Removed \(what) from your favorites; f likes it again.", kind: .info, in: &state)
    }

}

extension AppViewModel {
    /// A photo that went into one of the user's collections (or out of it) is marked so everywhere it shows, so the
    /// picker opened again from any list knows.
    static func collected(photoID: String, collectionID: String, added: Bool, in state: inout AppState) {
        state.changePhotoLists {
            _ = PhotoListViewModel.update(&$0, .collectedElsewhere(photoID: photoID, collectionID: collectionID, added: added))
        }
        state.changeShownPhoto(id: photoID) { $0.collect(collectionID, added: added) }
    }
}

extension AppState {
    /// Where lists of photos live: a like that succeeds anywhere reaches each of them. A new pane with a list of
    /// photos joins here, and only here.
    static var photoLists: [WritableKeyPath<AppState, PhotoListState>] { [\.feed, \.favorites, \.search.results] }

    /// Changes every list of photos: the panes' and those of the pages opened over them.
    mutating func changePhotoLists(_ change: (inout PhotoListState) -> Void) {
        for list in Self.photoLists { change(&self[keyPath: list]) }
        guard var explore else { return }
        for index in explore.sheets.indices { explore.sheets[index].changeLists(nil, change) }
        self.explore = explore
    }

    /// Changes the photo `id` wherever it is shown on its own (the viewer, the detail screen).
    mutating func changeShownPhoto(id: String, _ change: (inout Photo) -> Void) {
        if viewer?.photo.id == id { change(&viewer!.photo) }
        if detail?.viewer.photo.id == id { change(&detail!.viewer.photo) }
    }
}

