import ImageFeedCore

/// Performs the app's effects (requests, downloads, opening a browser) away from the terminal thread.
/// `post` hands events back while the work runs (download progress); the returned events end it.
public protocol EffectPerformer: Sendable {
    func perform(_ effect: AppViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [AppViewModel.Event]
}
