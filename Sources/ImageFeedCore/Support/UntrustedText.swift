import Foundation

/// Text from the network made safe to show in a terminal: no control characters, no escape
/// sequences, no bidirectional overrides. Line breaks and tabs become spaces.
public enum UntrustedText {
    /// Text from elsewhere ended as a sentence: a period added only when it has no closing punctuation yet
    /// (an error description that ends in "." is not given a second one).
    public static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return trimmed }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }

    public static func sanitize(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var previousWasSpace = false
        while let scalar = scalars.next() {
            let value = scalar.value
            if value == 0x1B || value == 0x9B {
                // ESC or CSI: drop the whole sequence up to its final byte (or the string terminator).
                skipEscapeSequence(&scalars, introducer: value)
                continue
            }
            if value == 0x09 || value == 0x0A || value == 0x0D {
                if !previousWasSpace { output.append(" ") }
                previousWasSpace = true
                continue
            }
            if isUnsafe(value) { continue }
            output.append(scalar)
            previousWasSpace = scalar == " "
        }
        return String(output).trimmingCharacters(in: .whitespaces)
    }

    static func isUnsafe(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
            // Bidirectional embeddings, overrides and isolates can reorder what follows them.
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }

    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator, introducer: UInt32) {
        let kind: UInt32? = introducer == 0x9B ? 0x5B : scalars.next()?.value
        switch kind {
        case 0x5B: // CSI: parameters, then a final byte in 0x40...0x7E
            while let next = scalars.next()?.value {
                if (0x40...0x7E).contains(next) { return }
            }
        case 0x5D, 0x50, 0x5F, 0x5E, 0x58: // OSC, DCS, APC, PM, SOS: up to BEL or ESC \
            while let next = scalars.next()?.value {
                if next == 0x07 || next == 0x9C { return }
                if next == 0x1B { _ = scalars.next(); return }
            }
        default: // a two-byte escape: the byte after ESC is dropped with it
            return
        }
    }
}
