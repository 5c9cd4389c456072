import Foundation
import TerminalImage

/// How a frame goes out when most of it moved or most of it changed: the scroll curses is shown in steps it takes
/// (rows moved further than curses takes at once), and, on a slow link, the part of a frame that goes first. Pure
/// functions of the frames, for the backend.
enum ScrollPlan {
    /// The seconds of the link one part of a staged frame may take.
    static let stageSeconds = 0.25
    /// The first part of `frame` over `shown`: its rows from the top while their changed cells fit `budget`
    /// bytes, the rest as shown. Nil when the whole frame fits, or pictures placed are in it (they are placed by the
    /// frame as a whole, and their own layer paces them).
    static func stage(_ frame: CellBuffer, over shown: CellBuffer, budget: Int, bytesPerCell: Int) -> CellBuffer? {
        guard frame.width == shown.width, frame.height == shown.height, (frame.placements.isEmpty && frame.cellPlacements.isEmpty) || !frame.cells.contains(.picture) else {
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
        let areas = buffer.placements.map(\.area) + buffer.cellPlacements.map(\.area)
        for placement in areas {
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(buffer.height, area.maxY)) {
                let row = y - placement.y
                let tag = UInt8(16 + Int((UInt64(placement.pictureID) &* 131 &+ UInt64(max(0, row))) % 216))
                let cell = Cell(Cell.pictureGlyph, style: CellStyle(foreground: .indexed(tag)))
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

    /// A hash of each row's cells. Only compared with other rows' (a scroll is planned from them; the cells are
    /// still compared one by one as they go to curses, so two rows that only hash alike cost bytes, never a wrong
    /// screen): a multiply-and-rotate mix of each cell's packed style and text, several times quicker than
    /// `Hasher` over the same cells, which frames of 12,000 cells and more felt.
    static func rowHashes(_ buffer: CellBuffer) -> [Int] {
        buffer.cells.withUnsafeBufferPointer { cells in
            (0..<buffer.height).map { y in
                var hash: UInt64 = 0x243F_6A88_85A3_08D3
                for x in 0..<buffer.width { hash = mix(hash, cells[y * buffer.width + x]) }
                return Int(truncatingIfNeeded: hash)
            }
        }
    }

    static func blankRowHash(_ width: Int) -> Int {
        var hash: UInt64 = 0x243F_6A88_85A3_08D3
        for _ in 0..<width { hash = mix(hash, Cell.blank) }
        return Int(truncatingIfNeeded: hash)
    }

    @inline(__always)
    static func mix(_ hash: UInt64, _ cell: Cell) -> UInt64 {
        let (low, high) = cell.glyph.words
        let value = pack(cell.style) ^ low ^ (high &<< 31 | high &>> 33)
        let mixed = (hash ^ value) &* 0x9E37_79B9_7F4A_7C15
        return mixed &<< 29 | mixed &>> 35
    }

    @inline(__always)
    static func pack(_ style: CellStyle) -> UInt64 {
        var bits = pack(style.foreground) | pack(style.background) << 26
        if style.bold { bits |= 1 << 52 }
        if style.dim { bits |= 1 << 53 }
        if style.reverse { bits |= 1 << 54 }
        if style.underline { bits |= 1 << 55 }
        return bits
    }

    @inline(__always)
    static func pack(_ color: TerminalColor) -> UInt64 {
        switch color {
        case .standard: return 0
        case let .indexed(index): return 1 << 24 | UInt64(index)
        case let .rgb(rgb): return 2 << 24 | UInt64(UInt32(truncatingIfNeeded: rgb.packed) & 0xFF_FFFF)
        }
    }

}
