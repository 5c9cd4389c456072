import Foundation
import ImageFeedCore

/// Reads Unsplash JSON: snake_case keys, ISO 8601 dates with offsets, and any optional field null,
/// missing or of the wrong type (it is then treated as missing). Only identity fields are required.
enum UnsplashJSON {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ServiceError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            // Not JSON at all (an HTML error page, a cut-off body) is reported as the body, not a field.
            guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
                throw .malformedResponse(field: "body")
            }
            throw .malformedResponse(field: fieldPath(of: error))
        } catch {
            throw .malformedResponse(field: "body")
        }
    }

    /// "results[3].urls" from a decoding error's coding path; "body" when the JSON itself is broken.
    static func fieldPath(of error: DecodingError) -> String {
        let context: DecodingError.Context
        var missingKey: CodingKey?
        switch error {
        case let .keyNotFound(key, errorContext):
            context = errorContext
            missingKey = key
        case let .typeMismatch(_, errorContext), let .valueNotFound(_, errorContext), let .dataCorrupted(errorContext):
            context = errorContext
        @unknown default:
            return "body"
        }
        let path = context.codingPath + (missingKey.map { [$0] } ?? [])
        if path.isEmpty {
            return context.underlyingError == nil ? "top level" : "body"
        }
        return render(path)
    }

    static func render(_ path: [CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// "2016-05-03T11:00:28-04:00", "2016-05-03T15:00:28Z", "2016-05-03T15:00:28.123Z".
    static func date(from text: String) -> Date? {
        CivilTime.internetDate(text)
    }
}

/// A key for containers whose keys are read by name.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// The value, or nil when it is missing, null, or not of the expected type.
    func optional<T: Decodable>(_ name: String, as type: T.Type = T.self) -> T? {
        (try? decodeIfPresent(T.self, forKey: AnyKey(name))) ?? nil
    }

    /// A non-empty string after trimming, or nil.
    func text(_ name: String) -> String? {
        guard let value = optional(name, as: String.self)?.trimmingCharacters(in: .whitespacesAndNewlines),
              !value.isEmpty else { return nil }
        return value
    }

    func url(_ name: String) -> URL? {
        text(name).flatMap { URL(string: $0) }
    }

    func date(_ name: String) -> Date? {
        text(name).flatMap(UnsplashJSON.date(from:))
    }

    /// Integers sometimes arrive as strings ("iso": "100"); both are read.
    func integer(_ name: String) -> Int? {
        optional(name, as: Int.self) ?? text(name).flatMap { Int($0) }
    }

    func double(_ name: String) -> Double? {
        optional(name, as: Double.self) ?? text(name).flatMap { Double($0) }
    }

    func nested(_ name: String) -> KeyedDecodingContainer<AnyKey>? {
        guard (try? decodeNil(forKey: AnyKey(name))) == false else { return nil }
        return try? nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(name))
    }

    /// A required identity field: a missing or wrong one makes the whole item malformed.
    func required(_ name: String) throws -> String {
        let value = try decode(String.self, forKey: AnyKey(name))
        guard !value.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: AnyKey(name), in: self, debugDescription: "empty")
        }
        return value
    }
}

/// Decodes each element on its own, so one malformed item does not lose the rest of the page.
struct LossyList<Element: Decodable>: Decodable {
    var elements: [Element]
    /// The path of each element that could not be read.
    var failures: [String]

    init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        elements = []
        failures = []
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch let error as DecodingError {
                failures.append(UnsplashJSON.fieldPath(of: error))
                // Step over the element that failed, whatever it is.
                if container.currentIndex == index { _ = try? container.decode(Skip.self) }
            }
            if container.currentIndex == index { break }
        }
    }

    private struct Skip: Decodable {
        init(from decoder: Decoder) throws {}
    }
}
