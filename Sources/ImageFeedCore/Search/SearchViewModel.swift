import Foundation

/// How search results are laid out: two columns of tiles, or one large tile per row.
public enum SearchLayout: Equatable, Sendable {
    case grid
    case single
}

/// What the search looks for: photos, people or collections.
public enum SearchKind: String, Sendable, CaseIterable {
    case photos, people, collections

    public var next: SearchKind {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// The search pane: the query field with its history and suggestions, and the results (whose detail screen
/// is the app's, as for every list).
public struct SearchState: Equatable, Sendable {
    /// The field's text, and whether it has the keyboard.
    public var query = ""
    public var editing = false
    /// Where the cursor is in the query, in characters (clamped to its length).
    public var queryCursor = 0
    /// `/` over an earlier query selects it: typing replaces it, the arrows keep it.
    public var querySelected = false
    /// The last submitted queries, newest first, without duplicates (case-insensitively).
    public var history: [String] = []
    /// Which suggestion the arrows picked, if any.
    public var suggestion: Int?
    /// The query the results are for; nil before the first search.
    public var submitted: String?
    public var order: SearchOrder = .relevant
    /// Unsplash's filters (orientation, colour, safe content), shown in the header; they stay for the next search.
    public var filters = SearchFilters()
    public var layout: SearchLayout = .grid
    /// The results: paging, likes and their dialog work as in the feed.
    public var results = PhotoListState()
    /// What the search looks for (`m` cycles it); people and collections open their pages.
    public var kind: SearchKind = .photos
    public var people = ItemList<User>()
    public var collections = ItemList<PhotoCollection>()

    public static let historyLimit = 5

    public init() {}

    /// The earlier queries that contain what is typed, ignoring case (all of them while the field is empty).
    public var suggestions: [String] {
        SearchViewModel.suggestions(history: history, for: query)
    }
}

public enum SearchViewModel {
    public enum Event: Equatable, Sendable {
        /// The history came from disk.
        case historyLoaded([String])
        /// The sort order chosen in an earlier run.
        case orderLoaded(SearchOrder)
        /// `/` or a click: the field takes the keyboard.
        case focus
        case blur
        case typed(String)
        case deleteBackward
        /// The cursor keys and the line-editing keys in the field.
        case edit(TextEdit)
        /// Arrows in the suggestions: +1 down, -1 up.
        case moveSuggestion(Int)
        case submit
        case toggleOrder
        /// `o`, `c`, `w`: the next orientation, the next colour (then none), safe content on or off.
        /// `m`: photos, people, collections.
        case cycleKind
        case peopleFound(query: String, page: Int, Result<Page<User>, ServiceError>)
        case collectionsFound(query: String, page: Int, Result<Page<PhotoCollection>, ServiceError>)
        /// The results show up to `index` (people and collections page as they show).
        case showedItem(index: Int)
        case cycleOrientation
        case cycleColor
        case toggleSafe
        /// The filters picked at once (the filter picker): one search, and none if they did not change.
        case setFilters(SearchFilters)
        /// Search for this (a tag of a photo): the pane's field takes it and the search starts.
        case searchFor(String)
        case toggleLayout
        /// The user's own actions on the results (paging as they scroll, likes, the like dialog).
        case results(PhotoListViewModel.Event)
        /// What a results effect brought back, for the query, order and filters it was asked for.
        case answer(query: String, order: SearchOrder, filters: SearchFilters = SearchFilters(), PhotoListViewModel.Event)
        /// Forget the results and the history (logging out).
        case reset
    }

    public enum Effect: Equatable, Sendable {
        /// A results effect: load a page of `query` in `order` with `filters`, or like a photo.
        case results(query: String, order: SearchOrder, filters: SearchFilters = SearchFilters(), PhotoListViewModel.Effect)
        case saveHistory([String])
        case findPeople(query: String, page: Int)
        case findCollections(query: String, page: Int)
        /// Keep the sort order for the next run.
        case saveOrder(SearchOrder)
    }

    /// The longest query kept (the API takes short phrases).
    public static let maximumQuery = 200

    public static func suggestions(history: [String], for query: String) -> [String] {
        let needle = query.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return history }
        return history.filter { $0.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
    }

    /// The history after submitting `query`: it goes first, an earlier copy (any case) goes, five are kept.
    public static func remember(_ query: String, in history: [String]) -> [String] {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return history }
        let others = history.filter { $0.caseInsensitiveCompare(trimmed) != .orderedSame }
        return Array(([trimmed] + others).prefix(SearchState.historyLimit))
    }

    public static func update(_ state: inout SearchState, _ event: Event) -> [Effect] {
        switch event {
        case let .historyLoaded(history):
            // Whatever the file held, keep the rules: no blanks, no duplicates, five at most.
            state.history = history.reversed().reduce(into: []) { $0 = remember($1, in: $0) }
            return []

        case .focus:
            state.editing = true
            state.suggestion = nil
            state.queryCursor = state.query.count
            state.querySelected = !state.query.isEmpty
            return []

        case .blur:
            state.editing = false
            state.suggestion = nil
            state.querySelected = false
            return []

        case let .typed(text):
            return update(&state, .edit(.insert(text)))

        case .deleteBackward:
            return update(&state, .edit(.deleteBackward))

        case let .edit(edit):
            guard state.editing else { return [] }
            edit.apply(to: &state.query, cursor: &state.queryCursor, selected: &state.querySelected, maximumLength: maximumQuery)
            state.suggestion = nil
            return []

        case let .moveSuggestion(step):
            let count = state.suggestions.count
            guard state.editing, count > 0 else { return [] }
            if let current = state.suggestion {
                let next = current + step
                state.suggestion = next < 0 ? nil : min(count - 1, next)
            } else if step > 0 {
                state.suggestion = 0
            }
            return []

        case .submit:
            if let index = state.suggestion, state.suggestions.indices.contains(index) {
                state.query = state.suggestions[index]
            }
            let query = state.query.trimmingCharacters(in: .whitespaces)
            guard !query.isEmpty else { return [] }
            state.query = query
            state.queryCursor = query.count
            state.querySelected = false
            state.editing = false
            state.suggestion = nil
            state.history = remember(query, in: state.history)
            state.submitted = query
            return [.saveHistory(state.history)] + reload(&state)

        case .toggleOrder:
            state.order = state.order == .relevant ? .latest : .relevant
            guard state.submitted != nil else { return [.saveOrder(state.order)] }
            return [.saveOrder(state.order)] + reload(&state)

        case let .orderLoaded(order):
            // Only before the first search: a choice made in this run wins.
            if state.submitted == nil { state.order = order }
            return []

        case .toggleLayout:
            state.layout = state.layout == .grid ? .single : .grid
            return []

        case .cycleKind:
            state.kind = state.kind.next
            return reload(&state)

        case let .peopleFound(query, page, result):
            guard query == state.submitted, state.kind == .people else { return [] }
            state.people.apply(page: page, result)
            return []

        case let .collectionsFound(query, page, result):
            guard query == state.submitted, state.kind == .collections else { return [] }
            state.collections.apply(page: page, result)
            return []

        case let .showedItem(index):
            guard let query = state.submitted else { return [] }
            switch state.kind {
            case .photos: return update(&state, .results(.showedItem(index: index)))
            case .people: return state.people.pageDue(showing: index).map { [.findPeople(query: query, page: $0)] } ?? []
            case .collections: return state.collections.pageDue(showing: index).map { [.findCollections(query: query, page: $0)] } ?? []
            }

        case .cycleOrientation, .cycleColor, .toggleSafe:
            switch event {
            case .cycleOrientation: state.filters.cycleOrientation()
            case .cycleColor: state.filters.cycleColor()
            default: state.filters.toggleContentFilter()
            }
            return reload(&state)

        case let .setFilters(filters):
            guard filters != state.filters else { return [] }
            state.filters = filters
            return reload(&state)

        case let .searchFor(text):
            state.query = String(text.prefix(maximumQuery))
            state.editing = true
            state.suggestion = nil
            return update(&state, .submit)

        case let .results(resultsEvent):
            guard let query = state.submitted else { return [] }
            return PhotoListViewModel.update(&state.results, resultsEvent).map {
                .results(query: query, order: state.order, filters: state.filters, $0)
            }

        case let .answer(query, order, filters, resultsEvent):
            // An answer for an earlier search (another query, order or filters) is dropped.
            guard query == state.submitted, order == state.order, filters == state.filters else { return [] }
            return update(&state, .results(resultsEvent))

        case .reset:
            state = SearchState()
            return [.saveHistory([])]
        }
    }

    /// A new search (or a new order): page 1 of the submitted query; the old results go.
    private static func reload(_ state: inout SearchState) -> [Effect] {
        guard let query = state.submitted else { return [] }
        switch state.kind {
        case .photos: break
        case .people:
            state.people = ItemList()
            return [.findPeople(query: query, page: 1)]
        case .collections:
            state.collections = ItemList()
            return [.findCollections(query: query, page: 1)]
        }
        state.results = PhotoListState(perPage: state.results.perPage, prefetchDistance: state.results.prefetchDistance)
        return PhotoListViewModel.update(&state.results, .load).map { .results(query: query, order: state.order, filters: state.filters, $0) }
    }
}

extension SearchViewModel.Event {
    /// The service's error, when this event is an answer that failed.
    public var failure: ServiceError? {
        switch self {
        case let .results(event), let .answer(_, _, _, event): event.failure
        case let .peopleFound(_, _, .failure(error)), let .collectionsFound(_, _, .failure(error)): error
        default: nil
        }
    }
}
