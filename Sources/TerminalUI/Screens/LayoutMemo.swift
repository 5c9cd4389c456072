import Foundation
import ImageFeedCore

/// The last few layouts made of long lists, each with the photo sizes and the area it was made for. A frame asks for
/// its list's layout several times (the key, the drawing, what is shown, the scroll), and a layout reads every photo
/// of the list: at 10,000 photos each one was about half a millisecond. A list whose sizes and area are the ones of
/// a kept layout gets that layout; checking costs one pass over the sizes, without arithmetic or allocation.
final class LayoutMemo<Extra: Equatable & Sendable, Layout: Sendable>: @unchecked Sendable {
    /// What a layout was made for besides the sizes: the list's area, the cell's shape, and what else its kind takes
    /// (the cards' header, the tiles' arrangement).
    struct Area: Equatable, Sendable {
        let width: Int
        let viewportHeight: Int
        let cellAspect: Double
        let extra: Extra
    }

    private struct Entry {
        let key: Area
        let sizes: [PhotoList.PixelSize]
        let layout: Layout
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// Layouts kept: the feed's, the favorites' and a sheet's, and one after a resize.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Photos' sizes kept over all the entries (what the memo costs, about 90 bytes a photo with a card layout).
    var keptSizes: Int {
        lock.withLock { entries.reduce(0) { $0 + $1.sizes.count } }
    }

    func layout(of photos: PhotoList, for key: Area, make: ([PhotoList.PixelSize]) -> Layout) -> Layout {
        let kept: Layout? = lock.withLock {
            guard let index = entries.firstIndex(where: { $0.key == key && photos.hasPixelSizes($0.sizes) }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.layout
        }
        if let kept { return kept }
        let sizes = photos.pixelSizes
        let layout = make(sizes)
        lock.withLock {
            // A list that grew by a page is laid out again; what was kept for it before the page is not asked for
            // again, and kept it would grow with the list (each an entry the list's length).
            entries.removeAll { $0.key == key && $0.sizes.count < sizes.count && sizes.starts(with: $0.sizes) }
            entries.append(Entry(key: key, sizes: sizes, layout: layout))
            if entries.count > capacity { entries.removeFirst() }
        }
        return layout
    }
}
