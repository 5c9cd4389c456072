import Foundation

/// The rules for numbers that come from outside (an API answer, an Imgur album, the offline store): each is
/// checked where it enters the core, and a value no real photo, count or date can have is dropped, so the
/// element that needs it is not shown (a size falls back to unknown, a count to none). Nothing downstream
/// then meets 2^62 pixels or a page number that overflows when one is added to it.
public enum Checked {
    /// The longest side a real photo has (the largest panoramas are some 100,000 pixels wide).
    public static let largestSide = 500_000
    /// The largest count shown (views of the most seen photos are in the billions).
    public static let largestCount = 1_000_000_000_000
    /// The last page number followed (Unsplash's listings have a few thousand pages at most).
    public static let largestPage = 1_000_000
    /// The most of the user's collections said to hold one photo that are kept.
    public static let collectionsPerPhoto = 1_000

    /// A pixel side: 1 to `largestSide`, else 0 (unknown).
    public static func side(_ value: Int) -> Int {
        (1...largestSide).contains(value) ? value : 0
    }

    /// A width and height: both known or both unknown (one without the other has no shape).
    public static func size(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
        let checkedWidth = side(width)
        let checkedHeight = side(height)
        return checkedWidth > 0 && checkedHeight > 0 ? (checkedWidth, checkedHeight) : (0, 0)
    }

    /// A count: 0 to `largestCount`, else none.
    public static func count(_ value: Int?) -> Int? {
        guard let value, (0...largestCount).contains(value) else { return nil }
        return value
    }

    /// A page number: 1 to `largestPage`, else none.
    public static func page(_ value: Int?) -> Int? {
        guard let value, (1...largestPage).contains(value) else { return nil }
        return value
    }

    /// A date between 1826 (the oldest photograph) and 2200, else none.
    public static func date(_ value: Date?) -> Date? {
        guard let value, value.timeIntervalSince1970.isFinite,
              (-4_575_744_000...7_258_118_400).contains(value.timeIntervalSince1970) else { return nil }
        return value
    }

    /// A coordinate within its range (latitude 90, longitude 180), else none.
    public static func coordinate(_ value: Double?, limit: Double) -> Double? {
        guard let value, value.isFinite, abs(value) <= limit else { return nil }
        return value
    }
}

extension Photo {
    /// The photo with every number from outside checked (see `Checked`).
    public func checked() -> Photo {
        var photo = self
        (photo.width, photo.height) = Checked.size(width, height)
        photo.likes = Checked.count(likes) ?? 0
        photo.views = Checked.count(views)
        photo.downloads = Checked.count(downloads)
        photo.createdAt = Checked.date(createdAt)
        photo.updatedAt = Checked.date(updatedAt)
        photo.user = user?.checked()
        // A user has a few hundred collections at most: a list past that is not a real answer.
        photo.inCollections = inCollections.map { Array($0.prefix(Checked.collectionsPerPhoto)) }
        if var exif = photo.exif {
            exif.iso = exif.iso.flatMap { (1...10_000_000).contains($0) ? $0 : nil }
            photo.exif = exif
        }
        if var location = photo.location {
            location.latitude = Checked.coordinate(location.latitude, limit: 90)
            location.longitude = Checked.coordinate(location.longitude, limit: 180)
            photo.location = location
        }
        return photo
    }
}

extension User {
    public func checked() -> User {
        var user = self
        user.totalLikes = Checked.count(totalLikes)
        user.totalPhotos = Checked.count(totalPhotos)
        user.totalCollections = Checked.count(totalCollections)
        return user
    }
}

extension PhotoCollection {
    public func checked() -> PhotoCollection {
        var collection = self
        collection.totalPhotos = Checked.count(totalPhotos)
        collection.publishedAt = Checked.date(publishedAt)
        collection.coverPhoto = coverPhoto?.checked()
        collection.user = user?.checked()
        return collection
    }
}

extension Topic {
    public func checked() -> Topic {
        var topic = self
        topic.totalPhotos = Checked.count(totalPhotos)
        topic.coverPhoto = coverPhoto?.checked()
        return topic
    }
}

extension Album {
    public func checked() -> Album {
        var album = self
        (album.coverWidth, album.coverHeight) = Checked.size(coverWidth, coverHeight)
        album.photoCount = Checked.count(photoCount)
        album.createdAt = Checked.date(createdAt)
        return album
    }
}

extension RateLimit {
    /// The quota as reported, if it is one a service could have (remaining within the limit).
    public static func checked(limit: Int, remaining: Int) -> RateLimit? {
        guard let limit = Checked.count(limit), let remaining = Checked.count(remaining), remaining <= limit else { return nil }
        return RateLimit(limit: limit, remaining: remaining)
    }
}
