import Foundation

/// How a frame goes out when most of it moved or most of it changed: the scroll curses is shown in steps it takes
/// (rows moved further than curses takes at once), and, on a slow link, the part of a frame that goes first. Pure
/// functions of the frames, for the backend.
enum ScrollPlan {
    /// The seconds of the link one part of a staged frame may take.
    static let stageSeconds = 0.25
    /// The first part of `frame` over `shown`: its rows from the top while their changed cells fit `budget`
    /// bytes, the rest as shown. Nil when the whole frame fits, or pictures in pixels are in it (they are
    /// placed by the frame as a whole).
    static func stage(_ frame: CellBuffer, over shown: CellBuffer, budget: Int, bytesPerCell: Int) -> CellBuffer? {
        guard frame.width == shown.width, frame.height == shown.height, frame.placements.isEmpty || !frame.cells.contains(.picture) else {
            return nil
        }
        var changed: [Int] = []
        var total = 0
        for y in 0..<frame.height {
            var count = 0
            for x in 0..<frame.width where frame.cells[y * frame.width + x] != shown.cells[y * frame.width + x] { count += 1 }
            changed.append(count)
            total += count
        }
        guard total * bytesPerCell > budget * 2 else { return nil }
        var part = shown
        var spent = 0
        for y in 0..<frame.height where changed[y] > 0 {
            if spent > 0, spent + changed[y] * bytesPerCell > budget { break }
            spent += changed[y] * bytesPerCell
            for x in 0..<frame.width { part[x, y] = frame[x, y] }
        }
        return part
    }

    /// `buffer` with each picture cell marked by its picture and row (a foreground colour, which a blank does
    /// not show): rows of different pictures, or of one picture's different rows, differ for curses.
    static func tagged(_ buffer: CellBuffer) -> CellBuffer {
        var tagged = buffer
        for placement in buffer.placements {
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(buffer.height, area.maxY)) {
                let row = y - placement.y
                let tag = UInt8(16 + Int((UInt64(placement.picture.id) &* 131 &+ UInt64(max(0, row))) % 216))
                let cell = Cell(Cell.picture.text, style: CellStyle(foreground: .indexed(tag)))
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    tagged[x, y] = cell
                }
            }
        }
        return tagged
    }

    /// The largest move curses takes for the rows of `move` in one frame (it judges each block of moved rows
    /// alone, and skips one moved further than it is tall).
    static func scrollStep(_ move: ScrollMove) -> Int {
        max(1, (move.bottom - move.top + 1) / 4)
    }

    /// A move of rows `top…bottom` by `shift` (positive: up) that makes the rows of `old` match most of `new`.
    struct ScrollMove: Equatable {
        var top: Int
        var bottom: Int
        var shift: Int
    }

    /// The scroll that turns most changed rows of `old` into those of `new`, if it saves enough to be worth
    /// it: at least 3 rows with text that land where `new` has them, and a quarter of the changed rows.
    static func scrollMove(from old: CellBuffer, to new: CellBuffer) -> ScrollMove? {
        guard old.width == new.width else { return nil }
        return scrollMove(before: rowHashes(old), after: rowHashes(new), blankRow: blankRowHash(new.width))
    }

    /// The same, from each frame's row hashes (`rowHashes`); `blankRow` is the hash of an empty row.
    static func scrollMove(before: [Int], after: [Int], blankRow: Int) -> ScrollMove? {
        guard before.count == after.count, after.count > 3,
              let top = after.indices.first(where: { before[$0] != after[$0] }),
              let bottom = after.indices.last(where: { before[$0] != after[$0] }), bottom - top >= 3 else { return nil }
        var best = (shift: 0, matches: 0)
        for shift in (-(bottom - top))...(bottom - top) where shift != 0 {
            var matches = 0
            for y in top...bottom {
                let from = y + shift
                guard from >= top, from <= bottom else { continue }
                if after[y] == before[from], after[y] != blankRow, after[y] != before[y] { matches += 1 }
            }
            if matches > best.matches { best = (shift, matches) }
        }
        guard best.matches >= 3, best.matches * 4 >= bottom - top + 1 else { return nil }
        return ScrollMove(top: top, bottom: bottom, shift: best.shift)
    }

    /// A hash of each row's cells.
    static func rowHashes(_ buffer: CellBuffer) -> [Int] {
        (0..<buffer.height).map { y in
            var hasher = Hasher()
            for x in 0..<buffer.width { hasher.combine(buffer.cells[y * buffer.width + x]) }
            return hasher.finalize()
        }
    }

    static func blankRowHash(_ width: Int) -> Int {
        var hasher = Hasher()
        for _ in 0..<width { hasher.combine(Cell.blank) }
        return hasher.finalize()
    }

}
