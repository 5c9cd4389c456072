import Foundation

/// Hands a URL to whatever shows it to the person: a browser, when there is a display.
public protocol URLOpener: Sendable {
    /// Returns false when nothing could open it (no display, no browser); the caller then shows the URL.
    func open(_ url: URL) async -> Bool
}
