/// What a key does to a list's selection or scroll, the same in every list of photos or albums: the arrows and
/// j/k (or the keys the user gave them), a line (Ctrl-E, Ctrl-Y), a page, the first and the last. Left and right move only in grids.
enum ListMotion: Equatable {
    case down, up, left, right, lineDown, lineUp, pageDown, pageUp, first, last
    /// The mouse wheel: three lines a notch.
    case wheelDown, wheelUp

    init?(_ mouse: MouseEvent) {
        switch mouse.kind {
        case .wheelDown: self = .wheelDown
        case .wheelUp: self = .wheelUp
        case .press: return nil
        }
    }

    /// What an intent does to a list: the photo or tile above and below (`previous`/`up`, `next`/`down`), the
    /// ones beside it (only in grids), a line, a screen, the ends.
    init?(_ intent: Intent?, grid: Bool) {
        switch intent {
        case .next, .down: self = .down
        case .previous, .up: self = .up
        case .right where grid: self = .right
        case .left where grid: self = .left
        case .lineDown: self = .lineDown
        case .lineUp: self = .lineUp
        case .pageDown: self = .pageDown
        case .pageUp: self = .pageUp
        case .first: self = .first
        case .last: self = .last
        default: return nil
        }
    }

    /// Moves a list of `count` items laid out in `columns`: `select` takes the item to select, `scroll` the lines
    /// to scroll by, `page` the direction of a page (+1, -1).
    func apply(selected: Int, count: Int, columns: Int, select: (Int) -> Void, scroll: (Int) -> Void, page: (Int) -> Void) {
        switch self {
        case .down: select(selected + columns)
        case .up: select(selected - columns)
        case .right: select(selected + 1)
        case .left: select(selected - 1)
        case .lineDown: scroll(1)
        case .lineUp: scroll(-1)
        case .wheelDown: scroll(3)
        case .wheelUp: scroll(-3)
        case .pageDown: page(1)
        case .pageUp: page(-1)
        case .first: select(0)
        case .last: select(count - 1)
        }
    }
}
