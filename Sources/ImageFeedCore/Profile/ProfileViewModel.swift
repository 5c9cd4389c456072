/// The profile pane's header: the logged-in user from `GET /me`.
public struct ProfileState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case idle
        case loading
        case content(Profile)
        case failed(ServiceError)
    }

    public var phase: Phase = .idle
    /// The "Log out?" dialog is open.
    public var confirmingLogout = false
    /// `r` over a profile shown: it stays on screen while it is asked for again.
    public var refreshing = false

    public init() {}

    public var profile: Profile? {
        if case let .content(profile) = phase { return profile }
        return nil
    }
}

public enum ProfileViewModel {
    public enum Event: Equatable, Sendable {
        /// The pane is shown: load the profile if it is not there yet.
        case appear
        case retry
        /// `r` over the profile shown: ask again, keeping it on screen.
        case refresh
        case loaded(Result<Profile, ServiceError>)
        case logOutPressed
        case logOutAnswered(Bool)
    }

    public enum Effect: Equatable, Sendable {
        case loadProfile
    }

    public static func update(_ state: inout ProfileState, _ event: Event) -> [Effect] {
        switch event {
        case .appear:
            guard state.phase == .idle else { return [] }
            state.phase = .loading
            return [.loadProfile]
        case .retry:
            guard state.phase != .loading else { return [] }
            state.phase = .loading
            return [.loadProfile]
        case .refresh:
            guard state.profile != nil, !state.refreshing else { return [] }
            state.refreshing = true
            return [.loadProfile]
        case let .loaded(.success(profile)):
            state.refreshing = false
            state.phase = .content(profile)
        case let .loaded(.failure(error)):
            // A refresh that failed keeps the profile shown (the app says why); a 401 still ends the session.
            if state.refreshing, state.profile != nil, error != .sessionExpired {
                state.refreshing = false
                return []
            }
            state.refreshing = false
            // A 401 ends the session: the profile is asked for again after the next login.
            state.phase = error == .sessionExpired ? .idle : .failed(error)
        case .logOutPressed:
            state.confirmingLogout = true
        case .logOutAnswered:
            // What "Yes" does is the app's business (it ends the session); the dialog closes either way.
            state.confirmingLogout = false
        }
        return []
    }
}

extension ProfileViewModel.Event {
    /// The service's error, when this event is an answer that failed.
    public var failure: ServiceError? {
        if case let .loaded(.failure(error)) = self { return error }
        return nil
    }
}
