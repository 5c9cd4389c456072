import Foundation
import UnsplashAPI

/// The part of TOML a config file may use, checked line by line before the TOML parser reads the file:
/// blank lines, comments, and `key = value` with a quoted string, a number or true/false as the value.
///
/// Every setting is one of those, and the parser (toml++, through TOMLKit) aborts on an assertion in debug
/// builds for some malformed input instead of reporting it ("[[[", "a=[}", found by fuzzing). What passes
/// this check is plain enough that the parser only ever reports.
enum ConfigFileSyntax {
    static func check(_ text: String, file: URL) throws(ConfigurationError) {
        // Split on scalars: "\r\n" is one Character, so splitting the String on "\n" would miss it.
        for (index, line) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var scanner = LineScanner(Array(line))
            if let problem = scanner.problem() {
                let key = scanner.key.map { ", key \($0)" } ?? ""
                throw ConfigurationError(message: "\(file.path), line \(index + 1)\(key): \(problem)")
            }
        }
    }

    struct LineScanner {
        let scalars: [Unicode.Scalar]
        var position = 0
        /// The setting's name once read (for messages).
        var key: String?

        init(_ scalars: [Unicode.Scalar]) {
            // A Windows line ending.
            self.scalars = scalars.last == "\r" ? Array(scalars.dropLast()) : scalars
        }

        var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func skipSpaces() {
            while current == " " || current == "\t" { position += 1 }
        }

        /// What is wrong with the line, or nil when it is fine.
        mutating func problem() -> String? {
            skipSpaces()
            guard let first = current else { return nil }
            if first == "#" { return comment() }
            if first == "[" { return section() }
            let keyStart = position
            guard readKey() else { return "expected a setting's name (letters, digits, - and _) at the start of the line." }
            key = String(String.UnicodeScalarView(scalars[keyStart..<position])).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            skipSpaces()
            guard current == "=" else { return "expected `=` after the setting's name." }
            position += 1
            skipSpaces()
            guard let valueProblem = value() else {
                skipSpaces()
                if current == nil { return nil }
                if current == "#" { return comment() }
                return "unexpected text after the value."
            }
            return valueProblem
        }

        /// The sections a file may have: `[colors]` and `[keys]`, each a header on its own line.
        static let sections: Set<String> = ["colors", "keys"]

        mutating func section() -> String? {
            position += 1
            skipSpaces()
            let start = position
            while let scalar = current, Self.isBareKey(scalar) { position += 1 }
            let name = String(String.UnicodeScalarView(scalars[start..<position]))
            skipSpaces()
            guard current == "]", Self.sections.contains(name) else {
                return "the only sections are [colors] and [keys]; every other setting is a `key = value` line at the top of the file."
            }
            position += 1
            skipSpaces()
            if current == nil { return nil }
            if current == "#" { return comment() }
            return "unexpected text after the section's name."
        }

        mutating func comment() -> String? {
            // TOML allows no control characters in comments but tab.
            for scalar in scalars[position...] where Self.isControl(scalar) {
                return "a control character in a comment."
            }
            position = scalars.count
            return nil
        }

        mutating func readKey() -> Bool {
            switch current {
            case "\"":
                return basicString() == nil
            case "'":
                return literalString() == nil
            default:
                let start = position
                while let scalar = current, Self.isBareKey(scalar) { position += 1 }
                guard position > start else { return false }
                // A dotted key (`viewer.like`, in [keys]): another bare key after each dot.
                if current == "." {
                    position += 1
                    return readKey()
                }
                return true
            }
        }

        /// TOML allows no control characters in strings and comments but tab.
        static func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
        }

        static func isBareKey(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-"
        }

        /// A problem with the value, or nil when a whole value was read.
        mutating func value() -> String? {
            switch current {
            case nil:
                return "expected a value after `=`."
            case "\"":
                if scalars[position...].starts(with: ["\"", "\"", "\""]) { return "multi-line strings are not supported." }
                return basicString()
            case "'":
                if scalars[position...].starts(with: ["'", "'", "'"]) { return "multi-line strings are not supported." }
                return literalString()
            default:
                let start = position
                while let scalar = current, scalar != " ", scalar != "\t", scalar != "#" { position += 1 }
                let word = String(String.UnicodeScalarView(scalars[start..<position]))
                return Self.isPlainValue(word) ? nil
                    : "expected a value in quotes, a number, or true or false (arrays and tables are not used)."
            }
        }

        /// Decimal integers and floats (underscores between digits), inf, nan, true and false.
        static func isPlainValue(_ word: String) -> Bool {
            if ["true", "false", "inf", "+inf", "-inf", "nan", "+nan", "-nan"].contains(word) { return true }
            var body = Substring(word)
            if body.first == "+" || body.first == "-" { body = body.dropFirst() }
            let parts = body.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
                .flatMap { $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false) }
            guard let mantissa = parts.first, parts.count <= 2 else { return false }
            let halves = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard halves.allSatisfy(isDigits) else { return false }
            if parts.count == 2 {
                var exponent = parts[1]
                if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
                guard isDigits(exponent) else { return false }
            }
            return true
        }

        /// Digits, with single underscores between them.
        static func isDigits(_ text: Substring) -> Bool {
            guard let first = text.first, let last = text.last, first.isASCII, first.isNumber, last.isASCII, last.isNumber,
                  !text.contains("__") else { return false }
            return text.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "_" }
        }

        mutating func basicString() -> String? {
            position += 1
            while let scalar = current {
                position += 1
                switch scalar {
                case "\"":
                    return nil
                case "\\":
                    guard let escaped = current else { return "a string is not closed." }
                    position += 1
                    switch escaped {
                    case "b", "t", "n", "f", "r", "\"", "\\":
                        continue
                    case "u", "U":
                        let count = escaped == "u" ? 4 : 8
                        let digits = scalars[position..<min(scalars.count, position + count)]
                        guard digits.count == count, digits.allSatisfy({ $0.properties.isASCIIHexDigit }),
                              let value = UInt32(String(String.UnicodeScalarView(digits)), radix: 16),
                              Unicode.Scalar(value) != nil else { return "a \\u escape that is not a character." }
                        position += count
                    default:
                        return "an unknown escape \\\(escaped) in a string."
                    }
                default:
                    if Self.isControl(scalar) { return "a control character in a string." }
                }
            }
            return "a string is not closed."
        }

        mutating func literalString() -> String? {
            position += 1
            while let scalar = current {
                position += 1
                if scalar == "'" { return nil }
                if Self.isControl(scalar) { return "a control character in a string." }
            }
            return "a string is not closed."
        }
    }
}
