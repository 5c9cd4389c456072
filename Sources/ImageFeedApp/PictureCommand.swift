import Foundation
import ImageFeedCore
import TerminalImage
import UnsplashAPI

/// `image-feed render`: one photo, from a file or a URL, drawn as terminal text.
public enum PictureCommand {
    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        public var description: String {
            switch self {
            case let .unreadable(detail): detail
            }
        }
    }

    /// Reads the picture's bytes from a path or an http(s) URL.
    public static func load(_ source: String, http: any HTTPClient) async throws -> Data {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            if scheme == "http", !UnsplashConfiguration.isLoopback(host: url.host ?? "") {
                throw Failure.unreadable("\(source): plain http is allowed only on a loopback address; use https.")
            }
            let response = try await http.send(HTTPRequest(url: url))
            guard (200..<300).contains(response.status) else {
                throw Failure.unreadable("\(source): HTTP \(response.status)")
            }
            return response.body
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw Failure.unreadable("\(source): cannot be read (\(error.localizedDescription))")
        }
    }

    /// The picture fitted in `columns` x `rows` cells, as text with colour escapes.
    public static func render(_ data: Data, columns: Int, rows: Int, mode: ColorMode, unicode: Bool) throws -> String {
        guard let format = ImageFormat(sniffing: data) else { throw ImageDecodingError.unknownFormat }
        var size: (width: Int, height: Int)? = nil
        if format == .jpeg { size = try ImageCodec.jpegSize(data) }
        let fit = size.map { CellPicture.fittedSize(pixelWidth: $0.width, pixelHeight: $0.height, columns: columns, rows: rows) }
        let decoded = try ImageCodec.decode(data, minimumWidth: fit?.columns ?? columns, minimumHeight: (fit?.rows ?? rows) * 2)
        let image = decoded.image
        let cells = fit ?? CellPicture.fittedSize(pixelWidth: image.width, pixelHeight: image.height, columns: columns, rows: rows)
        let picture = HalfBlockBlitter(mode: mode, unicode: unicode).render(image, columns: cells.columns, rows: cells.rows)
        return ANSIPictureWriter.text(picture)
    }
}
