import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
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

    /// Reads the picture's bytes from a path or an http(s) URL. The HTTP client is made only for a URL:
    /// setting up URLSession costs a previewer's start-up a good part of its time.
    /// A file's path is used as given (a previewer's start pays for making a URL of it).
    public static func load(_ source: String, http: () -> any HTTPClient) async throws -> Data {
        let lowered = source.prefix(8).lowercased()
        if lowered.hasPrefix("http:") || lowered.hasPrefix("https:"),
           let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            if scheme == "http", !UnsplashConfiguration.isLoopback(host: url.host ?? "") {
                throw Failure.unreadable("\(source): plain http is allowed only on a loopback address; use https.")
            }
            let response: HTTPResponse
            do {
                response = try await http().send(HTTPRequest(url: url, bodyLimit: BodyLimit.image))
            } catch {
                // The address is not a photo service's: say what happened to it in plain words.
                let failure = (error as? ServiceError) ?? .other(String(describing: error))
                throw Failure.unreadable("\(source): " + failure.message(from: url.host ?? "the server"))
            }
            guard (200..<300).contains(response.status) else {
                throw Failure.unreadable("\(source): HTTP \(response.status)")
            }
            return response.body
        }
        // The file's own error names it already.
        do {
            return try BoundedFile.read(path: source, limit: BodyLimit.image)
        } catch {
            throw Failure.unreadable(error.message)
        }
    }

    /// The picture fitted in `columns` x `rows` cells for a terminal that shows pixels (Kitty graphics, Sixel or
    /// iTerm2's images) with cells of `cellWidth` x `cellHeight` pixels: the escape sequence that draws it at the
    /// cursor, then the line under it. Anything else is drawn as characters.
    public static func render(_ data: Data, columns: Int, rows: Int, graphics: GraphicsMode, cellWidth: Int, cellHeight: Int,
                              mode: ColorMode, unicode: Bool, blitter: BlitterKind = .half) throws -> [UInt8] {
        guard graphics.rendersPixels, cellWidth > 0, cellHeight > 0 else {
            return Array(try render(data, columns: columns, rows: rows, mode: mode, unicode: unicode, blitter: blitter).utf8)
        }
        guard ImageFormat(sniffing: data) != nil else { throw ImageDecodingError.unknownFormat }
        var size: (width: Int, height: Int)?
        if ImageFormat(sniffing: data) == .jpeg { size = try ImageCodec.jpegSize(data) }
        let aspect = Double(cellHeight) / Double(cellWidth)
        func fit(_ width: Int, _ height: Int) -> (columns: Int, rows: Int) {
            CellPicture.fittedSize(pixelWidth: width, pixelHeight: height, columns: columns, rows: rows, cellAspect: aspect)
        }
        let guess = size.map { fit($0.width, $0.height) } ?? (columns: columns, rows: rows)
        let decoded = try ImageCodec.decode(data, minimumWidth: guess.columns * cellWidth, minimumHeight: guess.rows * cellHeight)
        let cells = fit(decoded.image.width, decoded.image.height)
        let drawer = PixelDrawing.size(columns: cells.columns, rows: cells.rows, cellWidth: cellWidth, cellHeight: cellHeight)
        let image = AreaResampler.resize(decoded.image, width: drawer.width, height: drawer.height)
        let cellsAt = RenderCells(columns: cells.columns, rows: cells.rows, cellWidth: cellWidth, cellHeight: cellHeight,
                                  colorMode: mode, unicode: unicode, blitter: blitter)
        do {
            return try PictureProtocols.frames(graphics, cellsAt).frame(image, index: 0, drawn: 0)
        } catch let failure as PictureProtocolFailure {
            throw Failure.unreadable(failure.description)
        }
    }

    enum PixelDrawing {
        static func size(columns: Int, rows: Int, cellWidth: Int, cellHeight: Int) -> (width: Int, height: Int) {
            (max(1, columns * cellWidth), max(1, rows * cellHeight))
        }
    }

    /// The picture fitted in `columns` x `rows` cells, as text with colour escapes.
    public static func render(_ data: Data, columns: Int, rows: Int, mode: ColorMode, unicode: Bool,
                              blitter: BlitterKind = .half) throws -> String {
        guard let format = ImageFormat(sniffing: data) else { throw ImageDecodingError.unknownFormat }
        var size: (width: Int, height: Int)? = nil
        if format == .jpeg { size = try ImageCodec.jpegSize(data) }
        let fit = size.map { CellPicture.fittedSize(pixelWidth: $0.width, pixelHeight: $0.height, columns: columns, rows: rows) }
        let cell = blitter.cellPixels
        let decoded = try ImageCodec.decode(data, minimumWidth: (fit?.columns ?? columns) * cell.width,
                                            minimumHeight: (fit?.rows ?? rows) * cell.height, oversampling: ImageCodec.cellsOversampling)
        let image = decoded.image
        let cells = fit ?? CellPicture.fittedSize(pixelWidth: image.width, pixelHeight: image.height, columns: columns, rows: rows)
        let picture = MosaicBlitter(kind: blitter, mode: mode, unicode: unicode).render(image, columns: cells.columns, rows: cells.rows)
        return ANSIPictureWriter.text(picture)
    }
}
