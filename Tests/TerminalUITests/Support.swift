import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI

/// Pictures for screen tests: every slot answers as told, drawn with one glyph.
final class StubPictures: PictureProvider {
    var slot: (CellPicture) -> PictureSlot = { .ready($0) }
    private(set) var requests: [(String, Int, Int)] = []

    func picture(for photo: Photo, url: URL?, columns: Int, rows: Int) -> PictureSlot {
        requests.append((photo.id, columns, rows))
        return slot(Self.picture(columns: columns, rows: rows, glyph: "#"))
    }

    func viewerPicture(for photo: Photo, columns: Int, rows: Int, view: ViewTransform) -> PictureSlot {
        slot(Self.picture(columns: columns, rows: rows, glyph: "@"))
    }

    static func picture(columns: Int, rows: Int, glyph: Character) -> CellPicture {
        CellPicture(columns: columns, rows: rows, cells: Array(repeating: .init(glyph: glyph, foreground: .standard, background: .standard),
                                                              count: columns * rows))
    }
}

/// A picture in pixels for the picture layers' tests: `columns` x `rows` cells of `cellWidth` x `cellHeight` pixels,
/// each byte differing from the next, so any two parts of it differ.
func pixelPicture(columns: Int, rows: Int, cellWidth: Int = 8, cellHeight: Int = 16) -> CellPicture {
    var pixels = [UInt8](repeating: 0, count: columns * cellWidth * rows * cellHeight * 3)
    for index in pixels.indices { pixels[index] = UInt8(index % 251) }
    return CellPicture(pixels: PixelPicture(image: RGBImage(width: columns * cellWidth, height: rows * cellHeight, pixels: pixels),
                                            columns: columns, rows: rows))
}

/// Plain ASCII and no colour, so goldens are readable text.
let asciiTheme = Theme(colorMode: .none, unicode: false)
let unicodeTheme = Theme(colorMode: .palette256, unicode: true)

func photo(_ id: String, width: Int = 400, height: Int = 100, liked: Bool = false, likes: Int = 3,
           author: String = "Ann Author", description: String? = "A photo") -> Photo {
    Photo(id: id, createdAt: Date(timeIntervalSince1970: 1_763_726_400), width: width, height: height, likes: likes,
          likedByUser: liked, description: description,
          urls: PhotoURLs(small: URL(string: "https://images.test/\(id)?w=400")),
          links: PhotoLinks(html: URL(string: "https://unsplash.test/photos/\(id)")),
          user: User(id: "u", username: "ann", name: author))
}

func loadedState(_ photos: [Photo], next: Int? = 2) -> AppState {
    var state = AppState()
    _ = AppViewModel.update(&state, .start)
    _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .success(Page(items: photos, number: 1, perPage: 30, nextPage: next)))))
    return state
}

func render(_ state: AppState, ui: UIState = UIState(), width: Int = 40, height: Int = 12, theme: Theme = asciiTheme,
            pictures: StubPictures = StubPictures(), keyMap: KeyMap = .standard) -> [String] {
    var buffer = CellBuffer(width: width, height: height)
    AppFrame(theme: theme, keyMap: keyMap).render(state, ui: ui, pictures: pictures, into: &buffer)
    return buffer.lines
}

func renderBuffer(_ state: AppState, ui: UIState = UIState(), width: Int = 40, height: Int = 12, theme: Theme = asciiTheme,
                  pictures: StubPictures = StubPictures()) -> CellBuffer {
    var buffer = CellBuffer(width: width, height: height)
    AppFrame(theme: theme).render(state, ui: ui, pictures: pictures, into: &buffer)
    return buffer
}

/// A terminal that draws into a buffer and replays scripted input.
final class TestBackend: TerminalBackend {
    var width: Int
    var height: Int
    var frames: [CellBuffer] = []
    var input: [InputEvent] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    func draw(_ buffer: CellBuffer) { frames.append(buffer) }
    func readInput(timeout: Int) -> InputEvent? { input.isEmpty ? nil : input.removeFirst() }
    private(set) var invalidations = 0
    func invalidate() { invalidations += 1 }
    func restore() {}
    /// What the app put on the terminal's clipboard.
    private(set) var copied: [String] = []
    func copyToClipboard(_ text: String) -> CopyOutcome {
        copied.append(text)
        return CopyOutcome(said: "Copied the link", reached: true)
    }
    /// A signal the test pretends arrived.
    var quitSignal: Int32?
    /// The colour scheme the test pretends the terminal reported (mode 2031).
    var reportedLightScheme: Bool?
}
