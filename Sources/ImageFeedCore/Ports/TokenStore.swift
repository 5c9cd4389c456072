/// Keeps the user's access token between runs. Implementations keep it readable by its owner only.
public protocol TokenStore: Sendable {
    func loadToken() throws -> String?
    func saveToken(_ token: String) throws
    func removeToken() throws
}
