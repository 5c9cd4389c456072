import Foundation

/// A URL kept as its text, parsed when read.
///
/// A Foundation `URL` costs some 475 bytes of heap on Linux, its text about 110; a photo carries up to 13
/// of them (its sizes, links, and its author's pictures and links), and the feed keeps every photo it has
/// shown. Read as a property it is an ordinary `URL?`; encoded, it is the same string a `URL` encodes to.
@propertyWrapper
public struct StoredAsText: Hashable, Sendable {
    fileprivate var text: String?

    public init(wrappedValue: URL?) {
        text = wrappedValue?.absoluteString
    }

    public var wrappedValue: URL? {
        get { text.flatMap { URL(string: $0) } }
        set { text = newValue?.absoluteString }
    }
}

extension StoredAsText: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = nil
        } else {
            let string = try container.decode(String.self)
            // What URL(string:) refuses is refused here too, as a URL field would be.
            guard URL(string: string) != nil else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a URL: \(string)")
            }
            text = string
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let text { try container.encode(text) } else { try container.encodeNil() }
    }
}

// A missing key is a nil URL, as it is for an optional property (synthesized decoding would demand it),
// and a nil URL is left out when encoding.
extension KeyedDecodingContainer {
    public func decode(_ type: StoredAsText.Type, forKey key: Key) throws -> StoredAsText {
        try decodeIfPresent(type, forKey: key) ?? StoredAsText(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    public mutating func encode(_ value: StoredAsText, forKey key: Key) throws {
        if let text = value.text { try encode(text, forKey: key) }
    }
}
