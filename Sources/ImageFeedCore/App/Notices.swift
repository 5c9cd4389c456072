import Foundation

/// What the status line says about the service and about what a key did: notices that fade, the connection.
extension AppViewModel {
    /// Shows a notice in the status line, and asks for it to go after a while. `retry`: trying again can help
    /// now, and the status line says which key does it.
    /// `tab`: the pane the notice is about (a list's reload), shown only there; nil: wherever the user is.
    static func notify(_ text: String, kind: StatusNotice.Kind, retry: Bool = false, tab: Tab? = nil, in state: inout AppState) -> [Effect] {
        state.noticeSerial += 1
        state.notice = StatusNotice(text, kind: kind, retry: retry, serial: state.noticeSerial, tab: tab)
        return [.expireNotice(serial: state.noticeSerial, after: StatusNotice.lifetime)]
    }

    /// What a list's page answer means for the status line: a reload that failed over the photos shown, a
    /// next page that failed, or a reload the user asked for that worked.
    static func listNotice(_ event: PhotoListViewModel.Event, before: PhotoListState, name: String, tab: Tab? = nil,
                                   in state: inout AppState) -> [Effect] {
        let capitalised = name.prefix(1).uppercased() + name.dropFirst()
        // The service could not be reached and the saved list came instead: a reload that said it worked says
        // it did not, and what is shown (a success never stands beside "offline").
        if case .servedFromSaved = event, let notice = state.notice, notice.kind == .info, notice.text == "\(capitalised) reloaded." {
            return notify("Couldn't reload \(name) (no connection): showing what was saved.", kind: .error, retry: true, tab: tab, in: &state)
        }
        guard case let .pageLoaded(page, result) = event, before.nextPage == .loading(page: page) else { return [] }
        switch result {
        case let .failure(error):
            guard error != .sessionExpired else { return [] }
            noteFailure(error, in: &state)
            if page == 1, !before.photos.isEmpty {
                return notify(error.couldNot("reload \(name)"), kind: .error, retry: error.retryHelpsNow, tab: tab, in: &state)
            }
            if page > 1 {
                return notify(error.couldNot("load more of \(name)"), kind: .error, retry: error.retryHelpsNow, tab: tab, in: &state)
            }
            return [] // the pane itself shows the error
        case .success:
            guard page == 1, before.reloading else { return [] }
            // A failure said a moment ago (the profile's own refresh) is not overwritten by news.
            if let notice = state.notice, notice.kind == .error { return [] }
            return notify("\(capitalised) reloaded.", kind: .info, tab: tab, in: &state)
        }
    }

    /// What an error answer says of the service: in trouble (5xx, an unreadable answer), out of quota until a time,
    /// or there and answering (a 4xx is about the request: the service was reached).
    @discardableResult
    static func noteFailure(_ error: ServiceError, in state: inout AppState) -> [Effect] {
        switch error {
        case .server, .malformedResponse:
            state.connection = .failing("service failing")
        case let .http(status, _):
            state.connection = (400..<500).contains(status) ? .online : .failing("service failing")
        case .forbidden, .notFound, .sessionExpired, .applicationKeyRefused:
            state.connection = .online
        case let .rateLimited(_, resetsAt):
            // Unsplash sends no reset time: the client works out the end of the hour's window, and it is shown
            // until then, when it ends (`rateLimitPassed`).
            state.connection = .rateLimited(until: resetsAt)
            return resetsAt.map { [.endRateLimit(at: $0)] } ?? []
        default:
            break
        }
        return []
    }

    @discardableResult
    static func noteConnection(_ event: PhotoListViewModel.Event, in state: inout AppState) -> [Effect] {
        switch event {
        case .pageLoaded(_, .success), .likeFinished(_, _, .success):
            state.connection = .online
        case let .pageLoaded(_, .failure(error)), let .likeFinished(_, _, .failure(error)):
            switch error {
            case .noConnection, .timeout: state.connection = .offline(error.message)
            default: return noteFailure(error, in: &state)
            }
        case .servedFromSaved:
            // The page came from the offline store because the service could not be reached.
            state.connection = .offline("The photo service could not be reached.")
        default:
            break
        }
        return []
    }
}
