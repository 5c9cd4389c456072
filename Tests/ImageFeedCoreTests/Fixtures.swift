import Foundation
import ImageFeedCore

func makePhoto(_ id: String, liked: Bool = false, likes: Int = 3) -> Photo {
    Photo(id: id, width: 300, height: 200, likes: likes, likedByUser: liked,
          user: User(id: "u-\(id)", username: "author\(id)"))
}

func makePage(_ ids: [String], number: Int, next: Int?) -> Page<Photo> {
    Page(items: ids.map { makePhoto($0) }, number: number, perPage: 30, nextPage: next)
}

/// A feed state with one loaded page of the given photos.
func loadedFeed(_ ids: [String] = ["a", "b", "c"], next: Int? = 2, prefetchDistance: Int = 10) -> PhotoListState {
    var state = PhotoListState(prefetchDistance: prefetchDistance)
    _ = PhotoListViewModel.update(&state, .load)
    _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .success(makePage(ids, number: 1, next: next))))
    return state
}
