import Foundation
import ImageFeedCore

/// The Albums pane's effects: Imgur's albums and their photos, and the usernames looked up before.
extension LiveEffectPerformer {
    func performAlbums(_ effect: AlbumsViewModel.Effect) async -> [AlbumsViewModel.Event] {
        switch effect {
        case let .loadAlbums(username, page):
            return [.albumsLoaded(username: username, page: page, await answer { () async throws(ServiceError) in
                try await self.albumService().albums(username: username, page: page)
            })]
        case let .loadPhotos(albumID):
            return [.photosLoaded(albumID: albumID, await answer { () async throws(ServiceError) in
                try await self.albumService().photos(inAlbum: albumID)
            })]
        case let .saveRecent(names):
            try? albumsRecentStore?.saveHistory(names)
            return []
        }
    }

    /// The album source, or the error that says none is configured.
    private func albumService() throws(ServiceError) -> any AlbumService {
        guard let albums else {
            throw .notConfigured("No Imgur client id is configured. Set IMGUR_CLIENT_ID, or run with --demo."
                + " Imgur registers no new applications (since mid-2025): only an existing application's client id works.")
        }
        return albums
    }
}
