import Deflate
import Foundation

/// The photos of a list, in order, as a collection of `Photo`. Those near what the screen shows are held as values;
/// the others are packed, a run of photos at a time, into deflated bytes (a photo in a few hundred bytes rather than
/// 1.2 KB), with each photo's id and pixel size kept beside them so that finding a photo and laying the cards out
/// never unpack one. A feed scrolled all afternoon holds its photos compactly; a packed photo read or changed comes
/// back whole (the run is unpacked), exactly as it was.
///
/// `hold(around:radius:)` decides which runs are held: the view model calls it with the item the screen shows.
public struct PhotoList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral,
    Equatable, Sendable {
    /// Photos are appended, held and packed in runs of at most this many (a service's page).
    public static let runLength = 30

    enum Run: Sendable {
        case held([Photo])
        case packed(PackedPhotos)

        var count: Int {
            switch self {
            case let .held(photos): photos.count
            case let .packed(packed): packed.keys.count
            }
        }

        var photos: [Photo] {
            switch self {
            case let .held(photos): photos
            case let .packed(packed): packed.unpacked()
            }
        }

        /// The id of the run's photo at `offset`, without unpacking.
        func id(at offset: Int) -> String {
            switch self {
            case let .held(photos): photos[offset].id
            case let .packed(packed): packed.keys[offset].id
            }
        }

        /// The size of the run's photo at `offset`, without unpacking.
        func size(at offset: Int) -> PixelSize {
            switch self {
            case let .held(photos): PixelSize(photos[offset])
            case let .packed(packed): packed.keys[offset].size
            }
        }

        /// `photos` cut into held runs of at most `runLength`.
        static func cut(_ photos: [Photo]) -> [Run] {
            stride(from: 0, to: photos.count, by: runLength).map { start in
                .held(Array(photos[start..<Swift.min(photos.count, start + runLength)]))
            }
        }
    }

    private(set) var runs: [Run] = []
    /// The index of each run's first photo.
    private var starts: [Int] = []
    public private(set) var count = 0

    public init() {}

    public init(arrayLiteral photos: Photo...) {
        self.init(photos)
    }

    public init(_ photos: [Photo]) {
        append(contentsOf: photos)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Photo {
        get {
            let (run, offset) = locate(position)
            return runs[run].photos[offset]
        }
        set {
            let (run, offset) = locate(position)
            var photos = runs[run].photos
            photos[offset] = newValue
            runs[run] = .held(photos)
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(runs: runs)
    }

    /// Walks the runs, unpacking a packed one once rather than for each of its photos.
    public struct Iterator: IteratorProtocol {
        let runs: [Run]
        var run = 0
        var photos: [Photo] = []
        var offset = 0

        public mutating func next() -> Photo? {
            while offset == photos.count {
                guard run < runs.count else { return nil }
                photos = runs[run].photos
                run += 1
                offset = 0
            }
            offset += 1
            return photos[offset - 1]
        }
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Photo {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "PhotoList: range out of bounds")
        if subrange.isEmpty, subrange.lowerBound == count {
            // Appending: new runs after the last.
            var photos = Array(newElements)
            if case let .held(last)? = runs.last, last.count < Self.runLength {
                photos = last + photos
                runs.removeLast()
            }
            runs += Run.cut(photos)
            reindex()
            return
        }
        // The runs the range touches are unpacked, changed, and cut into runs again.
        let first = locate(Swift.min(subrange.lowerBound, count - 1)).run
        let last = subrange.isEmpty ? first : locate(subrange.upperBound - 1).run
        var photos = runs[first...last].flatMap(\.photos)
        let base = starts[first]
        photos.replaceSubrange((subrange.lowerBound - base)..<(subrange.upperBound - base), with: newElements)
        runs.replaceSubrange(first...last, with: Run.cut(photos))
        reindex()
    }

    // MARK: Without unpacking

    /// Every photo's id, in order.
    public var ids: [String] {
        runs.flatMap { run in (0..<run.count).map(run.id(at:)) }
    }

    public func firstIndex(ofID id: String) -> Int? {
        for (run, start) in zip(runs, starts) {
            if let offset = (0..<run.count).first(where: { run.id(at: $0) == id }) { return start + offset }
        }
        return nil
    }

    /// The first photo that matches, unpacking each packed run once (not once for each of its photos).
    public func firstIndex(where predicate: (Photo) throws -> Bool) rethrows -> Int? {
        for (run, start) in zip(runs, starts) {
            if let offset = try run.photos.firstIndex(where: predicate) { return start + offset }
        }
        return nil
    }

    /// A photo's size in pixels, as `Photo.width` and `Photo.height` say.
    public struct PixelSize: Equatable, Sendable {
        public let width: Int
        public let height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        init(_ photo: Photo) {
            self.init(width: photo.width, height: photo.height)
        }
    }

    /// Every photo's size in pixels, in order: what a layout of the list reads.
    public var pixelSizes: [PixelSize] {
        // Exactly as long as the list (kept with a layout, it is a long list's; appended, it would be up to twice that).
        var sizes: [PixelSize] = []
        sizes.reserveCapacity(count)
        for run in runs {
            for offset in 0..<run.count { sizes.append(run.size(at: offset)) }
        }
        return sizes
    }

    /// Whether the photos' sizes are `sizes`, in order (a layout made from them still fits), without making an array.
    public func hasPixelSizes(_ sizes: [PixelSize]) -> Bool {
        guard sizes.count == count else { return false }
        for (run, start) in zip(runs, starts) {
            for offset in 0..<run.count where sizes[start + offset] != run.size(at: offset) { return false }
        }
        return true
    }

    // MARK: Holding and packing

    /// Holds the runs with a photo within `radius` of `position` as values and packs the others. A run that cannot be
    /// packed (it does not encode) stays held.
    public mutating func hold(around position: Int, radius: Int) {
        let near = (position - radius)...(position + radius)
        for index in runs.indices {
            let range = starts[index]...(starts[index] + runs[index].count - 1)
            switch runs[index] {
            case let .held(photos) where !range.overlaps(near):
                if let packed = PackedPhotos(photos) { runs[index] = .packed(packed) }
            case let .packed(packed) where range.overlaps(near):
                runs[index] = .held(packed.unpacked())
            default:
                break
            }
        }
    }

    /// How many of the photos are packed (for tests and the benchmark).
    public var packedCount: Int {
        runs.reduce(0) { total, run in
            if case let .packed(packed) = run { total + packed.keys.count } else { total }
        }
    }

    // MARK: Equality

    public static func == (lhs: PhotoList, rhs: PhotoList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.starts == rhs.starts else { return lhs.elementsEqual(rhs) }
        for (left, right) in zip(lhs.runs, rhs.runs) {
            switch (left, right) {
            case let (.held(a), .held(b)):
                if a != b { return false }
            case let (.packed(a), .packed(b)):
                if a !== b, a.bytes != b.bytes, a.unpacked() != b.unpacked() { return false }
            default:
                if left.photos != right.photos { return false }
            }
        }
        return true
    }

    // MARK: Positions

    private mutating func reindex() {
        starts.removeAll(keepingCapacity: true)
        count = 0
        for run in runs {
            starts.append(count)
            count += run.count
        }
    }

    /// The run holding `position` and the photo's place in it.
    private func locate(_ position: Int) -> (run: Int, offset: Int) {
        precondition(position >= 0 && position < count, "PhotoList: index \(position) out of range 0..<\(count)")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }
}

extension PhotoList: CustomStringConvertible {
    public var description: String { Array(self).description }
}

/// A run of photos packed: their JSON deflated, and each one's id and size kept aside. Immutable once made.
final class PackedPhotos: Sendable {
    struct Key: Sendable {
        let id: String
        let size: PhotoList.PixelSize
    }

    let keys: [Key]
    let bytes: [UInt8]
    /// The JSON's length, for inflating it.
    let length: Int

    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    /// nil when the photos do not encode (they always do: every field of a photo has its JSON).
    init?(_ photos: [Photo]) {
        guard let json = try? Self.encoder.encode(photos), let bytes = Deflate.deflate(Array(json), level: 6) else { return nil }
        keys = photos.map { Key(id: $0.id, size: PhotoList.PixelSize($0)) }
        self.bytes = bytes
        length = json.count
    }

    /// The photos as they were packed. (Bytes this process made itself always read back; were they not to, the
    /// photos would stand as their ids alone rather than stop the program.)
    func unpacked() -> [Photo] {
        if let json = Deflate.inflate(bytes, expected: length), let photos = try? Self.decoder.decode([Photo].self, from: Data(json)),
           photos.count == keys.count {
            return photos
        }
        return keys.map { Photo(id: $0.id, width: $0.size.width, height: $0.size.height) }
    }
}
