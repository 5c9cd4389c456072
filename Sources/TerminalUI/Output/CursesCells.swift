import CNcursesw
import Foundation
import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// Frames into curses: the changed cells in runs, their attributes and colour pairs, and what curses wrote for them
/// (captured from a file in memory, then queued for the terminal).
extension NcursesBackend {
    /// Copies the cells that changed since the last frame into curses, which sends the terminal what differs.
    /// Returns what curses wrote.
    @discardableResult
    func present(_ buffer: CellBuffer) -> [UInt8] {
        // Changed cells go to curses in runs (one call per run, not per cell); wide characters alone.
        var run: [cchar_t] = []
        run.reserveCapacity(buffer.width)
        var runStart = 0
        var style = CellStyle.plain
        var styleBits: (attributes: attr_t, pair: Int32) = (0, 0)
        func flush(_ y: Int) {
            guard !run.isEmpty else { return }
            _ = run.withUnsafeBufferPointer { mvwadd_wchnstr(window, Int32(y), Int32(runStart), $0.baseAddress, Int32($0.count)) }
            run.removeAll(keepingCapacity: true)
        }
        for y in 0..<buffer.height {
            // A row with wide characters (猫, 🐱), now or in the frame before, is written whole on a cleared
            // row: writing only the changed cells over curses' old wide characters left stale halves that
            // blanked the new ones. doupdate still sends the terminal only what differs.
            let wideRow = Self.hasWideCharacter(buffer, row: y) || previous.map { Self.hasWideCharacter($0, row: y) } == true
            if wideRow, previous != nil {
                wmove(window, Int32(y), 0)
                wclrtoeol(window)
            }
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                if !wideRow, let previous, previous[x, y] == cell {
                    flush(y)
                    continue
                }
                if cell.glyph.isEmpty { // the right half of a wide character: curses fills it in
                    flush(y)
                    continue
                }
                if cell.style != style {
                    style = cell.style
                    styleBits = (attributes(style), pairNumber(style))
                }
                var character = cchar_t()
                // As setcchar stores a pair: the number, and its low byte in the attribute's colour bits.
                character.attr = styleBits.attributes | (attr_t(min(styleBits.pair, 255)) << 8)
                character.ext_color = styleBits.pair
                if cell.isPicture {
                    // A cell a picture shows in: a blank that curses tells from an ordinary blank, so that when the
                    // picture goes, curses rewrites the cell (and the picture's pixels or characters there go with it).
                    character.attr = Self.invisible | (attr_t(min(styleBits.pair, 255)) << 8)
                    withUnsafeMutableBytes(of: &character.chars) { raw in raw.bindMemory(to: wchar_t.self)[0] = 32 }
                    if run.isEmpty { runStart = x }
                    run.append(character)
                    continue
                }
                let glyph = unicode || cell.glyph.isASCII ? cell.glyph : Self.question
                var first: UInt32 = 32
                withUnsafeMutableBytes(of: &character.chars) { raw in
                    let chars = raw.bindMemory(to: wchar_t.self)
                    var count = 0
                    glyph.withUTF8 { bytes in
                        var decoder = UTF8()
                        var iterator = bytes.makeIterator()
                        while count < chars.count - 1, case let .scalarValue(scalar) = decoder.decode(&iterator) {
                            chars[count] = wchar_t(bitPattern: scalar.value)
                            count += 1
                        }
                    }
                    if count > 0 { first = UInt32(bitPattern: chars[0]) }
                }
                // (Past U+F0000 only private use: narrow, and every Kitty placeholder cell is one.)
                if first >= 0x1100, first < 0xF0000, !DisplayWidth.isBoxOrBlock(first), DisplayWidth.of(cell.text) > 1 {
                    flush(y)
                    var single = character
                    mvwadd_wch(window, Int32(y), Int32(x), &single)
                    continue
                }
                if run.isEmpty { runStart = x }
                run.append(character)
            }
            flush(y)
        }
        previous = buffer
        wnoutrefresh(window)
        return captured { doupdate() }
    }

    /// Whether a row holds a wide character (its right half is a cell without text).
    static func hasWideCharacter(_ buffer: CellBuffer, row y: Int) -> Bool {
        for x in 1..<max(1, buffer.width) where buffer[x, y].glyph.isEmpty { return true }
        return false
    }

    func attributes(_ style: CellStyle) -> attr_t {
        var bits: attr_t = 0
        if style.bold { bits |= Self.bold }
        if style.dim { bits |= Self.dim }
        if style.reverse { bits |= Self.reverse }
        if style.underline { bits |= Self.underline }
        return bits
    }

    func colorNumber(_ color: TerminalColor) -> Int32 {
        guard colorMode != .none else { return -1 }
        switch color.nearest(in: colorMode) {
        case .standard: return -1
        case let .indexed(index): return Int32(index)
        // Direct colours below 8 would be read as palette indexes.
        case let .rgb(rgb): return Int32(max(8, rgb.packed))
        }
    }

    func pairNumber(_ style: CellStyle) -> Int32 {
        let key = PairKey(foreground: colorNumber(style.foreground), background: colorNumber(style.background))
        if key.foreground == -1, key.background == -1 { return 0 }
        let packed = UInt64(UInt32(bitPattern: key.foreground)) << 32 | UInt64(UInt32(bitPattern: key.background))
        let slot = Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.pairCacheBits))
        if pairCacheKeys[slot] == packed { return pairCacheValues[slot] }
        let pair: Int32
        if let known = pairs[key] {
            pair = known
        } else {
            var made = alloc_pair(key.foreground, key.background)
            if made < 0 {
                // Out of pairs: start afresh (nothing on screen keeps its old pair once everything is redrawn).
                reset_color_pairs()
                pairs.removeAll()
                pairCacheKeys = [UInt64](repeating: .max, count: pairCacheKeys.count)
                previous = nil
                made = alloc_pair(key.foreground, key.background)
            }
            pair = max(0, made)
            pairs[key] = pair
        }
        pairCacheKeys[slot] = packed
        pairCacheValues[slot] = pair
        return pair
    }

    /// Runs `body` (curses drawing) with curses' descriptor pointing at the frame's file, then queues what it wrote.
    @discardableResult
    func captured(_ body: () -> Void) -> [UInt8] {
        guard captureDescriptor >= 0, terminalCopy >= 0 else {
            body()
            return []
        }
        fflush(outputFile)
        dup2(captureDescriptor, outputDescriptor)
        body()
        fflush(outputFile)
        dup2(terminalCopy, outputDescriptor)
        let size = Int(lseek(captureDescriptor, 0, SEEK_CUR))
        var bytes = [UInt8](repeating: 0, count: max(0, size))
        if size > 0 {
            let read = bytes.withUnsafeMutableBufferPointer { pread(captureDescriptor, $0.baseAddress!, size, 0) }
            if read < size { bytes.removeSubrange(max(0, read)...) }
            output.queue(bytes)
        }
        _ = ftruncate(captureDescriptor, 0)
        _ = lseek(captureDescriptor, 0, SEEK_SET)
        return bytes
    }

}
