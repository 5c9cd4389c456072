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
        case let .loaded(.success(profile)):
            state.phase = .content(profile)
        case let .loaded(.failure(error)):
            state.phase = .failed(error)
        case .logOutPressed:
            state.confirmingLogout = true
        case .logOutAnswered:
            // What "Yes" does is the app's business (it ends the session); the dialog closes either way.
            state.confirmingLogout = false
        }
        return []
    }
}
