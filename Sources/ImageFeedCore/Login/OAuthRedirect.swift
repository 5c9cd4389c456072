import Foundation

/// What an OAuth redirect (or what the user pasted) says: a code with the state it came back with, a
/// refusal, or nothing usable.
public enum OAuthRedirect: Equatable, Sendable {
    /// A code. `state` is nil when the user pasted the bare code (the out-of-band flow shows only the code).
    case code(String, state: String?)
    /// `error=` in the redirect: the user pressed Cancel (access_denied) or the service refused.
    case denied(reason: String)
    case nothing

    /// Reads a redirect URL (`http://127.0.0.1:8765/callback?code=…&state=…`), its query alone, or a bare code.
    public static func parse(_ text: String) -> OAuthRedirect {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .nothing }
        let looksLikeRedirect = trimmed.contains("?") || trimmed.contains("=") || trimmed.contains("://")
        guard looksLikeRedirect else {
            guard trimmed.count <= 512, trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                return .nothing
            }
            return .code(trimmed, state: nil)
        }
        let query: Substring
        if let questionMark = trimmed.firstIndex(of: "?") {
            query = trimmed[trimmed.index(after: questionMark)...]
        } else {
            query = trimmed[...]
        }
        let beforeFragment = query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var values: [String: String] = [:]
        // Form encoding: pairs split on "&", "+" is a space, then percent-escapes. A value that is not valid
        // percent-encoding is unusable.
        for pair in beforeFragment.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = formDecoded(parts[0]), values[name] == nil else { continue }
            values[name] = parts.count > 1 ? formDecoded(parts[1]) ?? "" : ""
        }
        if let error = values["error"] {
            let description = values["error_description"].flatMap { $0.isEmpty ? nil : $0 }
            return .denied(reason: description ?? (error == "access_denied" ? "access was denied" : error))
        }
        guard let code = values["code"], !code.isEmpty else { return .nothing }
        return .code(code, state: values["state"] ?? "")
    }

    static func formDecoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
