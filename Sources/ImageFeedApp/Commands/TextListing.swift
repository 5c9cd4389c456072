import Foundation
import ImageFeedCore

/// A plain-text line per photo, for `image-feed` run without the full-screen interface.
public enum TextListing {
    public static func line(for photo: Photo) -> String {
        let date = photo.createdAt.map(CivilTime.localDay) ?? ""
        let heart = photo.likedByUser ? "♥" : "♡"
        let caption = UntrustedText.sanitize(photo.caption ?? "")
        let author = photo.user.map { UntrustedText.sanitize($0.displayName) } ?? ""
        var parts = ["\(heart) \(photo.likes)", date, photo.id]
        if !author.isEmpty { parts.append("by \(author)") }
        if !caption.isEmpty { parts.append(caption) }
        return parts.filter { !$0.isEmpty }.joined(separator: "  ")
    }
}
