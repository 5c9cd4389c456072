/// Turns what the terminal sends (characters, control codes and escape sequences) into keys and clicks.
///
/// Every CSI (`ESC [`) and SS3 (`ESC O`) sequence is read whole, whatever terminal sent it: the xterm,
/// VT220, rxvt, Linux console and PuTTY forms of Home, End, Insert, Delete, the arrows and the function
/// keys (with modifiers), the mouse in the X10 and SGR encodings, focus reports. Known sequences become
/// keys; unknown ones are dropped whole, so none of their characters is ever read as a key.
///
/// It is a pure state machine over Unicode scalars: `feed` takes one, `flush` ends what is pending when no
/// more input came in time (a lone Esc is the Escape key).
public struct InputDecoder: Sendable {
    private enum Phase: Sendable, Equatable {
        case ground
        /// After ESC.
        case escape
        /// Inside `ESC [`: the bytes after the bracket so far.
        case csi([UInt8])
        /// `ESC [ [`: the Linux console's F1–F5 (`ESC [ [ A` … `ESC [ [ E`).
        case linuxFunction
        /// Inside `ESC O`: parameter digits so far (some terminals send `ESC O 5 A`).
        case ss3([UInt8])
        /// `ESC [ M`: the X10 mouse encoding's three bytes so far.
        case x10Mouse([UInt32])
        /// A sequence too long to be a key: its bytes are skipped up to its final byte.
        case discarding
        /// Inside a control string (DCS `ESC P`, OSC `ESC ]`, APC `ESC _`, PM `ESC ^`, SOS `ESC X`): a terminal's
        /// reply, never a key. It ends at ST (`ESC \`), BEL, CAN or SUB, at an Esc that starts another sequence
        /// (as terminals' own parsers end it), or when no more input comes in time: one that never ends
        /// cannot turn what the user types after a pause into anything but keys. `empty`: nothing came after
        /// the introducer yet (Esc then the letter alone is Alt and the key).
        case string(introducer: UInt8, empty: Bool)
        /// An Esc inside a control string: `\` ends the string, anything else starts a new sequence.
        case stringEscape
    }

    private var phase: Phase = .ground
    /// How many device attributes answers (`CSI ? … c`, the terminal's reply to DA1) went by: the backend asks
    /// DA1 behind pictures to learn when they have crossed the link. They are not keys.
    public private(set) var deviceAttributesAnswers = 0
    /// The last visibility report (`CSI ? 999 ; 1 n`: the window may be seen; `; 2 n`: it is hidden), where the terminal
    /// reports it (mode 2033: kitty, Ghostty), until taken.
    public private(set) var visibility: Bool?

    /// The last colour-scheme report (`CSI ? 997 ; 1 n`: dark; `; 2 n`: light), where the terminal reports changes of its
    /// scheme (mode 2031: kitty, Ghostty, Contour), until taken: true for light.
    public private(set) var scheme: Bool?

    /// The colour scheme reported since last asked, if any (true: light).
    public mutating func takeScheme() -> Bool? {
        defer { scheme = nil }
        return scheme
    }

    /// The visibility reported since last asked, if any.
    public mutating func takeVisibility() -> Bool? {
        defer { visibility = nil }
        return visibility
    }
    /// The sequence pending began with an 8-bit CSI or SS3 (no Esc key was pressed to give back on a timeout).
    private var eightBit = false
    /// A sequence longer than this is not a key: it is dropped.
    private static let maximumLength = 64

    public init() {}

    /// A decoder that starts inside a control string: the terminal's answers to the start-up questions ended in
    /// one (`introducer`: P, ], _, ^ or X) whose rest is still on its way. Its letters are the reply's, not keys.
    public init(insideString introducer: UInt8?) {
        if let introducer { phase = .string(introducer: introducer, empty: false) }
    }

    /// The introducer of the control string the input ended inside, if it did (what `init(insideString:)` takes);
    /// nil right after the introducer (Esc and the letter alone may still be Alt and the key).
    public var openString: UInt8? {
        switch phase {
        case let .string(introducer, false): introducer
        case .stringEscape: 0x5C
        default: nil
        }
    }

    /// Whether a sequence has begun and not ended: the caller waits a little for the rest, then `flush`es.
    public var isPending: Bool { phase != .ground }

    /// The events a scalar completes (none while a sequence goes on).
    public mutating func feed(_ scalar: Unicode.Scalar) -> [InputEvent] {
        let value = scalar.value
        switch phase {
        case .ground:
            return ground(scalar)

        case .escape:
            switch value {
            case 0x5B: // [
                phase = .csi([])
                return []
            case 0x4F: // O
                phase = .ss3([])
                return []
            case 0x1B:
                // Esc pressed twice: the first is a key, the second may start a sequence.
                return [.key(.escape)]
            case 0x50, 0x5D, 0x5F, 0x5E, 0x58: // P ] _ ^ X: a control string
                phase = .string(introducer: UInt8(value), empty: true)
                return []
            default:
                // Esc then a key in the same read (Alt-key, or keys typed quickly): both, in order.
                phase = .ground
                return [.key(.escape)] + ground(scalar)
            }

        case let .csi(bytes):
            if bytes.isEmpty, value == 0x5B { // ESC [ [
                phase = .linuxFunction
                return []
            }
            if bytes.isEmpty, value == 0x4D { // ESC [ M: X10 mouse, three raw bytes follow
                phase = .x10Mouse([])
                return []
            }
            // rxvt ends modified keys with `$` (Shift-Home is ESC [ 7 $), which is an intermediate byte in ECMA-48:
            // a `$` followed by something that cannot end a sequence ended it.
            if bytes.last == 0x24, !(0x40...0x7E).contains(value) {
                phase = .ground
                return Self.csi(bytes.dropLast(), final: 0x24) + feed(scalar)
            }
            switch value {
            case 0x20...0x3F: // parameter and intermediate bytes
                guard bytes.count < Self.maximumLength else {
                    phase = .discarding // far too long for a key: dropped whole
                    return []
                }
                phase = .csi(bytes + [UInt8(value)])
                return []
            case 0x40...0x7E: // the final byte
                phase = .ground
                if value == 0x63, bytes.first == 0x3F { deviceAttributesAnswers += 1 }
                if value == 0x6E, bytes.first == 0x3F {
                    let numbers = Self.parameters(bytes[...])
                    if numbers.count == 2, numbers[0] == 999, [1, 2].contains(numbers[1]) { visibility = numbers[1] == 1 }
                    if numbers.count == 2, numbers[0] == 997, [1, 2].contains(numbers[1]) { scheme = numbers[1] == 2 }
                }
                return Self.csi(bytes, final: UInt8(value))
            default:
                // Not part of a sequence (a control code, or text): the broken sequence is dropped, this one counts.
                phase = .ground
                return feed(scalar)
            }

        case .linuxFunction:
            phase = .ground
            if (0x41...0x45).contains(value) { return [.key(.function(Int(value) - 0x40))] }
            return value < 0x20 || value == 0x7F ? feed(scalar) : []

        case let .ss3(digits):
            if (0x30...0x39).contains(value) || value == 0x3B, digits.count < 8 {
                phase = .ss3(digits + [UInt8(value)])
                return []
            }
            phase = .ground
            if value < 0x20 || value == 0x7F { return feed(scalar) }
            return Self.ss3(final: value)

        case .discarding:
            switch value {
            case 0x20...0x3F: return []
            case 0x40...0x7E:
                phase = .ground
                return []
            default:
                phase = .ground
                return feed(scalar)
            }

        case let .string(introducer, _):
            switch value {
            case 0x1B:
                phase = .stringEscape
            case 0x07, 0x18, 0x1A, 0x9C: // BEL, CAN, SUB, the 8-bit ST
                phase = .ground
            default:
                phase = .string(introducer: introducer, empty: false)
            }
            return []

        case .stringEscape:
            if value == 0x5C { // ST
                phase = .ground
                return []
            }
            phase = .escape
            eightBit = false
            return feed(scalar)

        case let .x10Mouse(bytes):
            let all = bytes + [value]
            guard all.count == 3 else {
                phase = .x10Mouse(all)
                return []
            }
            phase = .ground
            // Each byte is 32 more than the button code or the 1-based column and row.
            guard all[0] >= 32, all[1] >= 33, all[2] >= 33 else { return [] }
            return Self.mouse(button: Int(all[0] - 32), x: Int(all[1] - 33), y: Int(all[2] - 33), released: false)
        }
    }

    /// No more input came in time: a lone Esc is the Escape key, `ESC O` and `ESC [` are Esc and the
    /// character (Alt-O, Alt-[), anything longer that did not end is dropped.
    public mutating func flush() -> [InputEvent] {
        defer { phase = .ground }
        switch phase {
        case .ground: return []
        case .escape: return [.key(.escape)]
        case .csi([]) where !eightBit: return [.key(.escape), .key(.character("["))]
        case let .csi(bytes) where bytes.last == 0x24: return Self.csi(bytes.dropLast(), final: 0x24)
        case .ss3([]) where !eightBit: return [.key(.escape), .key(.character("O"))]
        // Esc then P, ], _, ^ or X and nothing after: Alt and the key, not a reply.
        case let .string(introducer, true): return [.key(.escape), .key(.character(Character(Unicode.Scalar(introducer))))]
        case .stringEscape: return [.key(.escape)]
        default: return []
        }
    }

    /// Decodes a whole string (tests, the fuzz target): every scalar, then a flush.
    public static func decode<S: Sequence>(_ scalars: S) -> [InputEvent] where S.Element == Unicode.Scalar {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for scalar in scalars { events += decoder.feed(scalar) }
        return events + decoder.flush()
    }

    // MARK: Single characters

    private mutating func ground(_ scalar: Unicode.Scalar) -> [InputEvent] {
        switch scalar.value {
        case 0x1B:
            phase = .escape
            eightBit = false
            return []
        case 0x9B: // the 8-bit CSI
            phase = .csi([])
            eightBit = true
            return []
        case 0x8F: // the 8-bit SS3
            phase = .ss3([])
            eightBit = true
            return []
        default:
            return Self.control(scalar).map { [.key($0)] } ?? []
        }
    }

    /// A key for a character or control code (nil for control codes that mean nothing here).
    static func control(_ scalar: Unicode.Scalar) -> Key? {
        switch scalar.value {
        case 3: .interrupt
        case 5: .lineDown
        case 12: .redraw
        case 26: .suspend
        case 25: .lineUp
        case 9: .tab
        case 10, 13: .enter
        case 8, 127: .backspace
        // Ctrl and a letter, where it is not one of the keys above, flow control (Ctrl-Q, Ctrl-S) or a signal's.
        case 1, 2, 4, 6, 7, 11, 14, 15, 16, 18, 20, 21, 22, 23, 24:
            .control(Character(Unicode.Scalar(scalar.value + 0x60)!))
        case 0..<32, 0x80..<0xA0: nil
        default: .character(Character(scalar))
        }
    }

    // MARK: Sequences

    /// The numbers of a CSI's parameters (`1;5` → [1, 5]); empty ones are 0, a private marker (`<`, `?`) is skipped.
    private static func parameters(_ bytes: ArraySlice<UInt8>) -> [Int] {
        var numbers: [Int] = []
        var current: Int?
        for byte in bytes {
            switch byte {
            case 0x30...0x39:
                current = min(99_999, (current ?? 0) * 10 + Int(byte - 0x30))
            case 0x3B, 0x3A:
                numbers.append(current ?? 0)
                current = nil
            default:
                continue
            }
        }
        if let current { numbers.append(current) } else if bytes.last == 0x3B { numbers.append(0) }
        return numbers
    }

    private static func csi(_ bytes: ArraySlice<UInt8>, final: UInt8) -> [InputEvent] {
        csi(Array(bytes), final: final)
    }

    private static func csi(_ bytes: [UInt8], final: UInt8) -> [InputEvent] {
        let private_ = bytes.first.map { (0x3C...0x3F).contains($0) } ?? false
        let numbers = parameters(bytes[...])
        if bytes.first == 0x3C, final == 0x4D || final == 0x6D { // SGR mouse: ESC [ < b ; x ; y M (m: released)
            guard numbers.count == 3, numbers[1] >= 1, numbers[2] >= 1 else { return [] }
            return mouse(button: numbers[0], x: numbers[1] - 1, y: numbers[2] - 1, released: final == 0x6D)
        }
        // Intermediate bytes other than rxvt's `$` mark replies and reports, not keys.
        guard !private_, !bytes.contains(where: { (0x20...0x2F).contains($0) }) else { return [] }
        if let key = cursorKey(UInt32(final)) { return [.key(key)] }
        switch final {
        case 0x5A: return [.key(.backTab)]
        // F1–F4 with modifiers (ESC [ 1 ; 2 P); without parameters they are SS3 P–S.
        case 0x50...0x53 where numbers.count == 2 && numbers[0] == 1 && (2...16).contains(numbers[1]):
            return [.key(.function(Int(final) - 0x4F))]
        case 0x7E, 0x5E, 0x24, 0x40: // VT220 keys: ~ plain, and rxvt's ^ (Ctrl), $ (Shift), @ (Ctrl-Shift)
            guard let number = numbers.first else { return [] }
            return vt220(number).map { [.key($0)] } ?? []
        case 0x75: // CSI code ; modifiers u (the kitty keyboard protocol and fixterms)
            guard let code = numbers.first else { return [] }
            let modifiers = numbers.count > 1 ? numbers[1] - 1 : 0
            switch code {
            case 13: return [.key(.enter)]
            case 27: return [.key(.escape)]
            case 9: return [.key(modifiers & 1 != 0 ? .backTab : .tab)]
            case 127: return [.key(.backspace)]
            default:
                // Printable and without Ctrl or Alt: the character.
                guard modifiers & 0b110 == 0, code >= 32, let scalar = Unicode.Scalar(UInt32(code)),
                      let key = control(scalar) else { return [] }
                return [.key(key)]
            }
        default:
            return [] // focus reports, cursor reports, keys nobody maps: dropped whole
        }
    }

    /// `ESC [ n ~`: the VT220 editing and function keys, as xterm, rxvt, the Linux console and PuTTY number them.
    private static func vt220(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home // 1: Linux console, PuTTY, VT220 "Find"; 7: rxvt
        case 4, 8: .end // 4: Linux console, PuTTY, VT220 "Select"; 8: rxvt
        case 2: .insert
        case 3: .delete
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23...26: .function(number - 12)
        case 28, 29: .function(number - 13)
        case 31...34: .function(number - 14)
        default: nil
        }
    }

    /// The arrows, Home and End, whose final byte is the same after CSI and SS3; rxvt sends a–d for the
    /// arrows with Shift (after CSI) or Ctrl (after SS3).
    private static func cursorKey(_ final: UInt32) -> Key? {
        switch final {
        case 0x41, 0x61: .up
        case 0x42, 0x62: .down
        case 0x43, 0x63: .right
        case 0x44, 0x64: .left
        case 0x48: .home
        case 0x46: .end
        default: nil
        }
    }

    private static func ss3(final value: UInt32) -> [InputEvent] {
        if let key = cursorKey(value) { return [.key(key)] }
        switch value {
        case 0x50...0x53: return [.key(.function(Int(value) - 0x4F))]
        case 0x4D: return [.key(.enter)] // the keypad's Enter in application mode
        // The keypad in application mode: its characters.
        case 0x6A: return [.key(.character("*"))]
        case 0x6B: return [.key(.character("+"))]
        case 0x6C: return [.key(.character(","))]
        case 0x6D: return [.key(.character("-"))]
        case 0x6E: return [.key(.character("."))]
        case 0x6F: return [.key(.character("/"))]
        case 0x70...0x79: return [.key(.character(Character(Unicode.Scalar(UInt8(value - 0x70 + 0x30)))))]
        case 0x58: return [.key(.character("="))]
        default: return []
        }
    }

    private static func mouse(button: Int, x: Int, y: Int, released: Bool) -> [InputEvent] {
        // Motion (32) and releases are not used; the wheel is 64 and 65; modifiers (4, 8, 16) are ignored.
        guard !released, button & 32 == 0 else { return [] }
        let base = button & ~0b11100
        switch base {
        case 0: return [.mouse(MouseEvent(x: x, y: y, kind: .press))]
        case 64: return [.mouse(MouseEvent(x: x, y: y, kind: .wheelUp))]
        case 65: return [.mouse(MouseEvent(x: x, y: y, kind: .wheelDown))]
        default: return []
        }
    }
}
