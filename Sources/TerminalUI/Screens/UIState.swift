/// What only the screen knows: which card is selected, how far the list is scrolled, which button of a
/// dialog has the focus, the animation frame. The app's state (what is loaded, liked, open) is in `AppState`.
public struct UIState: Equatable, Sendable {
    public var feedSelected = 0
    /// The first line of the feed list on screen.
    public var feedTop = 0
    public var modalFocus = 0
    /// Advances while something animates (spinners).
    public var tick = 0

    public init() {}
}
