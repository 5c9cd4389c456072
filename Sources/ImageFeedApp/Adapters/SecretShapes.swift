/// What has the shape of a credential in a log line, taken out: an `Authorization` value, a `Bearer` or
/// `Client-ID` token, a `code`, `client_id`, `client_secret`, token or password parameter, and a token in a JSON
/// answer. Each shape is one pass over the line's bytes, in this order, names matched without regard to case:
///
/// 1. `Bearer` or `Client-ID` (a word of its own), spaces, then a token: the token is replaced.
/// 2. `authorization`, then `:` or `=` (spaces and a quote around it allowed): the rest of the line up to a quote.
/// 3. `client_id=`, `client_secret=`, `code=`, `access_token=`, `refresh_token=`, `token=` or `password=`
///    (the name a word of its own): the value, up to `&`, a space or a quote.
/// 4. `"access_token"`, `"refresh_token"` or `"client_secret"`, `:`, then a JSON string: the string.
///
/// A scan of bytes rather than regular expressions: Foundation's are ICU's, which the log would load (1.6 MB
/// more resident) for four fixed shapes.
enum SecretShapes {
    static let replacement = Array("[secret]".utf8)

    static func redact(_ text: String) -> String {
        var bytes = Array(text.utf8)
        bytes = tokensAfterSchemes(bytes)
        bytes = authorizationValues(bytes)
        bytes = parameters(bytes)
        bytes = jsonTokens(bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: The four shapes

    private static let schemes = ["bearer", "client-id"].map { Array($0.utf8) }
    private static let parameterNames = ["client_id", "client_secret", "code", "access_token", "refresh_token", "token",
                                         "password"].map { Array($0.utf8) }
    private static let jsonNames = ["access_token", "refresh_token", "client_secret"].map { Array($0.utf8) }

    /// "Bearer abc" → "Bearer [secret]".
    private static func tokensAfterSchemes(_ bytes: [UInt8]) -> [UInt8] {
        rewrite(bytes) { bytes, start in
            guard startsWord(bytes, at: start), let word = matchedName(schemes, in: bytes, at: start) else { return nil }
            let spaces = skipSpaces(bytes, from: word)
            guard spaces > word else { return nil }
            let end = run(bytes, from: spaces) { !isSpace($0) && !"\",;".utf8.contains($0) }
            guard end > spaces else { return nil }
            return (end, Array(bytes[start..<word]) + [UInt8(ascii: " ")] + replacement)
        }
    }

    /// "Authorization: anything" → "Authorization: [secret]".
    private static func authorizationValues(_ bytes: [UInt8]) -> [UInt8] {
        let name = Array("authorization".utf8)
        return rewrite(bytes) { bytes, start in
            guard startsWord(bytes, at: start), let word = matchedName([name], in: bytes, at: start) else { return nil }
            var index = word
            if index < bytes.count, isQuote(bytes[index]) { index += 1 }
            index = skipSpaces(bytes, from: index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: "=") else { return nil }
            let separator = index
            index = skipSpaces(bytes, from: index + 1)
            if index < bytes.count, isQuote(bytes[index]) { index += 1 }
            let inValue: (UInt8) -> Bool = { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\"") }
            var end = run(bytes, from: index, while: inValue)
            if end == index {
                // Nothing after the spaces and quote: the value is the last of them that can be one (a space or `'`
                // but not a line break), as a regular expression giving characters back would have it.
                guard let last = bytes[(separator + 1)..<index].lastIndex(where: inValue) else { return nil }
                index = last
                end = last + 1
            }
            return (end, Array(bytes[start..<index]) + replacement)
        }
    }

    /// "code=abc&state=s" → "code=[secret]&state=s".
    private static func parameters(_ bytes: [UInt8]) -> [UInt8] {
        rewrite(bytes) { bytes, start in
            guard startsWord(bytes, at: start) else { return nil }
            for name in parameterNames {
                guard let word = matchedName([name], in: bytes, at: start), word < bytes.count,
                      bytes[word] == UInt8(ascii: "=") else { continue }
                let end = run(bytes, from: word + 1) { !isSpace($0) && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "\"") }
                guard end > word + 1 else { continue }
                return (end, Array(bytes[start...word]) + replacement)
            }
            return nil
        }
    }

    /// `"access_token": "abc"` → `"access_token": "[secret]"`.
    private static func jsonTokens(_ bytes: [UInt8]) -> [UInt8] {
        rewrite(bytes) { bytes, start in
            guard bytes[start] == UInt8(ascii: "\"") else { return nil }
            for name in jsonNames {
                guard let word = matchedName([name], in: bytes, at: start + 1), word < bytes.count,
                      bytes[word] == UInt8(ascii: "\"") else { continue }
                var index = skipSpaces(bytes, from: word + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { continue }
                index = skipSpaces(bytes, from: index + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { continue }
                let close = run(bytes, from: index + 1) { $0 != UInt8(ascii: "\"") }
                guard close < bytes.count else { continue }
                return (close + 1, [UInt8(ascii: "\"")] + Array(bytes[(start + 1)..<word]) + Array("\": \"".utf8) + replacement
                                   + [UInt8(ascii: "\"")])
            }
            return nil
        }
    }

    // MARK: Scanning

    /// `bytes` with every match `shape` finds, left to right, replaced: `shape` answers, for a start, where its
    /// match ends and what takes its place, or nil where none starts.
    private static func rewrite(_ bytes: [UInt8], _ shape: ([UInt8], Int) -> (end: Int, with: [UInt8])?) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let match = shape(bytes, index) {
                result += match.with
                index = match.end
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// Where the first of `names` that `bytes` holds at `start` (any case) ends.
    private static func matchedName(_ names: [[UInt8]], in bytes: [UInt8], at start: Int) -> Int? {
        for name in names where start + name.count <= bytes.count {
            if zip(name, bytes[start..<(start + name.count)]).allSatisfy({ $0 == lowered($1) }) { return start + name.count }
        }
        return nil
    }

    /// Whether a word starts at `index`: the character before it is not part of a word (a letter, mark, digit or
    /// connector such as `_`, in any script, as a regular expression's word boundary has it).
    private static func startsWord(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index > 0 else { return true }
        guard bytes[index - 1] >= 0x80 else { return !isWordByte(bytes[index - 1]) }
        // The character before, outside ASCII: back to its first byte, then read it.
        var first = index - 1
        while first > 0, (0x80...0xBF).contains(bytes[first]) { first -= 1 }
        guard let scalar = String(decoding: bytes[first..<index], as: UTF8.self).unicodeScalars.first else { return true }
        let properties = scalar.properties
        let word = properties.isAlphabetic || properties.numericType == .decimal || scalar == "\u{200C}" || scalar == "\u{200D}"
            || [.nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation].contains(properties.generalCategory)
        return !word
    }

    private static func run(_ bytes: [UInt8], from start: Int, while included: (UInt8) -> Bool) -> Int {
        var index = start
        while index < bytes.count, included(bytes[index]) { index += 1 }
        return index
    }

    private static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        run(bytes, from: start, while: isSpace)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowered(byte))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
