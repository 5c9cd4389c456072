/// Where the terminal's rows went while it was sent some bytes: a line-level reading of curses' output that
/// follows only what moves rows (scrolling regions, index and reverse index at their margins, scroll up and
/// down, insert and delete lines, clearing the screen) and the cursor's row, which decides where those act.
/// Sixel pixels move with the rows in xterm, mlterm and foot, and kitty moves its placements with them, so the
/// picture layer learns from this which pieces it drew are still on screen, and where.
struct RowMoves: Equatable {
    /// For each row now, the row it held before (nil: a row scrolled in, blank, or rewritten whole).
    private(set) var origin: [Int?]
    private var top: Int
    private var bottom: Int
    private var row = 0
    private var savedRow = 0

    /// `cursorRow`: where the terminal's cursor is before the bytes (curses' output starts from where it left the
    /// cursor: a scroll of one line is a line feed at the bottom margin, with no move before it).
    init(height: Int, cursorRow: Int = 0) {
        origin = Array(0..<height)
        top = 0
        bottom = height - 1
        row = min(max(0, cursorRow), max(0, height - 1))
    }

    /// The screen was cleared (ED 2 or 3, RIS): kitty drops then the pictures it holds that were not placed.
    private(set) var cleared = false

    var height: Int { origin.count }
    var isIdentity: Bool { origin.enumerated().allSatisfy { $0.element == $0.offset } }

    /// Where the row that was at `old` is now, if it is still on screen.
    func destination(of old: Int) -> Int? { origin.firstIndex(of: old) }

    /// Reads `bytes` (as written to the terminal) for what moves rows.
    mutating func read(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x0A, 0x0B, 0x0C: lineFeed()
            case 0x1B:
                guard index < bytes.count else { return }
                let next = bytes[index]
                index += 1
                switch next {
                case 0x5B: // CSI
                    var parameters: [Int] = []
                    var current: Int?
                    var privateMarker = false
                    while index < bytes.count {
                        let c = bytes[index]
                        index += 1
                        if c >= 0x30, c <= 0x39 {
                            current = (current ?? 0) * 10 + Int(c - 0x30)
                            current = min(current!, 100_000)
                        } else if c == 0x3B {
                            parameters.append(current ?? 0)
                            current = nil
                        } else if c >= 0x3C, c <= 0x3F {
                            privateMarker = true
                        } else if c >= 0x40, c <= 0x7E {
                            parameters.append(current ?? 0)
                            if !privateMarker { control(c, parameters) }
                            break
                        }
                    }
                case 0x44: lineFeed() // IND
                case 0x45: lineFeed() // NEL
                case 0x4D: reverseIndex() // RI
                case 0x50, 0x5D, 0x5F, 0x5E, 0x58: // DCS, OSC, APC, PM, SOS: skip the string
                    while index < bytes.count {
                        if bytes[index] == 0x07, next == 0x5D { index += 1; break }
                        if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == 0x5C { index += 2; break }
                        index += 1
                    }
                case 0x37: savedRow = row // DECSC
                case 0x38: row = savedRow // DECRC
                case 0x63: // RIS
                    clearAll()
                default:
                    break
                }
            default:
                break
            }
        }
    }

    private mutating func control(_ final: UInt8, _ parameters: [Int]) {
        let first = parameters.first ?? 0
        let count = max(1, first)
        switch final {
        case 0x48, 0x66: row = clamp(max(1, first) - 1) // CUP, HVP
        case 0x64: row = clamp(count - 1) // VPA
        case 0x41: row = max(row >= top ? top : 0, row - count) // CUU
        case 0x42: row = min(row <= bottom ? bottom : height - 1, row + count) // CUD
        case 0x45: row = min(row <= bottom ? bottom : height - 1, row + count) // CNL
        case 0x46: row = max(row >= top ? top : 0, row - count) // CPL
        case 0x72: // DECSTBM; the cursor goes home
            let newTop = max(1, first) - 1
            let newBottom = (parameters.count > 1 && parameters[1] > 0 ? parameters[1] : height) - 1
            if newTop < newBottom, newBottom < height {
                top = newTop
                bottom = newBottom
            } else {
                top = 0
                bottom = height - 1
            }
            row = 0
        case 0x53: scroll(up: count, from: top) // SU
        case 0x54: scroll(down: count, from: top) // SD
        case 0x4C: // IL
            guard row >= top, row <= bottom else { return }
            scroll(down: count, from: row)
        case 0x4D: // DL
            guard row >= top, row <= bottom else { return }
            scroll(up: count, from: row)
        case 0x4A: // ED
            if first == 2 || first == 3 { clearAll() }
        default:
            break
        }
    }

    private func clamp(_ value: Int) -> Int { min(max(0, value), height - 1) }

    private mutating func lineFeed() {
        if row == bottom { scroll(up: 1, from: top) } else if row < height - 1 { row += 1 }
    }

    private mutating func reverseIndex() {
        if row == top { scroll(down: 1, from: top) } else if row > 0 { row -= 1 }
    }

    /// Rows `from…bottom` move up by `count`; blank rows come in at the bottom.
    private mutating func scroll(up count: Int, from start: Int) {
        guard start <= bottom else { return }
        for y in start...bottom {
            origin[y] = y + count <= bottom ? origin[y + count] : nil
        }
    }

    /// Rows `from…bottom` move down by `count`; blank rows come in at `from`.
    private mutating func scroll(down count: Int, from start: Int) {
        guard start <= bottom else { return }
        for y in stride(from: bottom, through: start, by: -1) {
            origin[y] = y - count >= start ? origin[y - count] : nil
        }
    }

    private mutating func clearAll() {
        origin = Array(repeating: nil, count: height)
        cleared = true
    }
}
