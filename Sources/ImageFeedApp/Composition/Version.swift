/// The program's version, as `image-feed --version` prints it.
public enum ImageFeedVersion {
    public static let number = "0.9.0"
    public static var line: String { "image-feed \(number)" }
}
