import Foundation

/// The `animations` setting (config file, `IMAGE_FEED_ANIMATIONS`, `render --animate`): whether animations play.
/// `hover` (the default) plays the one in the viewer and an album's selected animated tile; `on` every animated tile in
/// view too (at most four). `off` shows every animation still until Space plays it; `safe` plays, but holds
/// still, and says so, an animation that flashes more than three times a second (WCAG 2.3.1), measured from its
/// frames' luminance before they play.
public enum AnimationSetting: String, Sendable, CaseIterable {
    case on, off, hover, safe

    /// The names, for messages: "on, off, hover or safe".
    public static let spoken = "on, off, hover or safe"
}

/// Why the viewer's animation stands as a still until Space plays it.
enum AnimationHold: Equatable {
    /// The link is slow, and the terminal is to be given every frame before it plays (held until Space).
    case link
    /// The link cannot carry the frames the program draws, even a third of the picture each way.
    case tooSlow
    /// `animations = off`.
    case off
    /// `animations = safe`, and it flashes this often (flashes a second).
    case flashes(Double)

    var isFlashes: Bool {
        if case .flashes = self { return true }
        return false
    }

    /// What the status line says of it (nil for the link, which says its own).
    var reason: String? {
        switch self {
        case .link: nil
        case .tooSlow: "link too slow to play"
        case .off: "animations are off"
        case let .flashes(rate): "it flashes \(Int(rate.rounded())) times a second"
        }
    }
}
