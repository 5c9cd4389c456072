import Foundation
import ImageFeedCore

/// The pages' effects: a photographer, their photos, likes and collections; a collection's photos; the topics and
/// the feed's topic (kept in a file between runs).
extension LiveEffectPerformer {
    func performBrowse(_ effect: ExploreViewModel.Effect) async -> [ExploreViewModel.Event] {
        switch effect {
        case let .photos(source, listEffect):
            // Each list's pages are saved under its source, so the last one browsed shows offline too.
            return await performList(listEffect, saving: .explore, note: source.key) { page, perPage throws(ServiceError) in
                try await self.exploreService().photos(from: source, page: page, perPage: perPage)
            }.map { .photosAnswer(source, $0) }
        case let .loadUser(username):
            return [.userLoaded(username: username, await answer { () async throws(ServiceError) in
                try await self.client.user(username: username)
            })]
        case let .loadCollections(username, page):
            return [.collectionsLoaded(username: username, page: page, await answer { () async throws(ServiceError) in
                try await self.exploreService().userCollections(username: username, page: page, perPage: maximumPageSize)
            })]
        case let .loadTopics(page):
            return [.topicsLoaded(page: page, await answer { () async throws(ServiceError) in
                try await self.exploreService().topics(page: page, perPage: maximumPageSize)
            })]
        case let .setInCollection(add, photoID, collectionID):
            return [.collectionChanged(collectionID: collectionID, add: add, await answer { () async throws(ServiceError) in
                try await self.exploreService().setInCollection(add, photoID: photoID, collectionID: collectionID)
                return true
            })]
        case let .saveFeedTopic(topic, order):
            guard let file = feedTopicFile else { return [] }
            if let topic, let data = try? JSONEncoder().encode(SavedFeedTopic(topic: topic, order: order)) {
                Self.keep(data, in: file)
            } else {
                try? FileManager.default.removeItem(at: file)
            }
            return []
        }
    }

    /// The feed's topic as a run keeps it: the topic and the order its photos were shown in.
    struct SavedFeedTopic: Codable {
        var topic: Topic
        var order: PhotoOrder?
    }

    /// The feed's topic kept by an earlier run, if any, with its order (an earlier version kept the topic alone).
    public static func savedFeedTopic(_ file: URL?) -> (topic: Topic, order: PhotoOrder)? {
        guard let file, let data = try? Data(contentsOf: file, options: .mappedIfSafe), data.count < 1 << 20 else { return nil }
        if let saved = try? JSONDecoder().decode(SavedFeedTopic.self, from: data) { return (saved.topic, saved.order ?? .latest) }
        return (try? JSONDecoder().decode(Topic.self, from: data)).map { ($0, .latest) }
    }

    func exploreService() throws(ServiceError) -> any ExploreService {
        guard let explore else { throw .notConfigured("Exploring is not available with this photo service.") }
        return explore
    }
}
