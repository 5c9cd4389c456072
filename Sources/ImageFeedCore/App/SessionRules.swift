import Foundation

/// The session's rules: into the app, out of it by the user's choice, and out of it by a 401.
extension AppViewModel {
    /// Into the app: the feed loads, and the profile with it when it is not known yet.
    static func logIn(_ state: inout AppState, profile: Profile?) -> [Effect] {
        state.session = .loggedIn
        state.sessionExpiredNotice = false
        state.login = LoginState()
        var effects = feedEffects(PhotoListViewModel.update(&state.feed, .load), state)
        if let profile {
            effects += route(&state, .profile(.loaded(.success(profile))))
        } else {
            state.profile.phase = .idle
            effects += ProfileViewModel.update(&state.profile, .appear).map(Effect.profile)
        }
        return effects
    }

    /// Everything about the user goes: profile, favorites, liked flags (the feed reloads after the next login).
    static func logOut(_ state: inout AppState) {
        state.session = .loggedOut
        state.login = LoginState()
        state.profile = ProfileState()
        _ = PhotoListViewModel.update(&state.favorites, .reset)
        _ = PhotoListViewModel.update(&state.feed, .reset)
        _ = SearchViewModel.update(&state.search, .reset)
        state.viewer = nil
        state.detail = nil
        state.explore = nil
        state.tab = .feed
        state.helpVisible = false
    }

    /// A 401 anywhere: the token is removed, the login screen opens with a notice, nothing else is lost.
    static func endSession(_ state: inout AppState) -> [Effect] {
        guard state.session == .loggedIn else { return [] }
        state.session = .loggedOut
        state.sessionExpiredNotice = true
        // The 401 was an answer: the service is reached, whatever an earlier request met.
        state.connection = .online
        state.login = LoginState()
        state.viewer = nil
        state.helpVisible = false
        return [.forgetSession]
    }

}
