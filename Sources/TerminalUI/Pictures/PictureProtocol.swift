import Foundation
import TerminalImage

/// One picture protocol, and everything the program does in it: the session's layer (what the terminal keeps and what
/// goes with each frame), how the terminal plays an animation where nothing more is known of it, and what `render`
/// writes at the cursor for a still or a frame it paces (`frames`), or for frames the terminal plays (`playedFrames`).
/// It also says which terminals it draws (`chosen`, reading their rows in `Terminals`) and how their animations play.
/// `PictureProtocols.table` lists them, the way `Terminals.rows` lists terminals: a new protocol is its `GraphicsMode`
/// case, its encoder (TerminalImage), its type (in its layer's file) and its line in the table.
protocol PictureProtocol {
    static var mode: GraphicsMode { get }
    /// How an animation plays where the terminal's answers say nothing more.
    static var playback: PictureDrawer.AnimationPlayback { get }
    /// The terminal shows any part of a picture it keeps over any cells (Kitty's placements): a zoomed view is placed
    /// from the same upload.
    static var cropsPlacements: Bool { get }
    /// The layer that sends a session's pictures (nil: curses draws them with the rest, as characters).
    static func layer(_ setup: PictureLayerSetup) -> PictureLayer?
    /// Its rule for what the session draws with: whether it draws this terminal's pictures, or would but cannot, and
    /// why (nil: no word on this terminal). Asked in the table's order; a rule may supply the cell's size.
    static func chosen(_ context: inout GraphicsContext) -> GraphicsVerdict?
    /// Its rule where the settings name it (nil: it draws, as named).
    static func chosen(bySetting context: GraphicsContext) -> GraphicsChoice?
    /// How the terminal plays an animation in it, where that depends on the terminal (nil: `playback`).
    static func animation(in context: GraphicsContext) -> (PictureDrawer.AnimationPlayback, String)?
    /// `render`'s pictures in this protocol, each at the cursor over the last, the program pacing them.
    static func frames(_ cells: RenderCells) -> PacedFrames
    /// `render`'s animation handed to the terminal to play (nil: the terminal plays none in this protocol).
    static func playedFrames(_ cells: RenderCells) -> PlayedFrames?
    /// Whether the terminal plays an animation file of `format` sent as it came.
    static func playsFile(_ format: AnimationFormat) -> Bool
    /// `render`'s animation file as the terminal plays it (`playsFile`), sent as it came over the cells.
    static func playedFile(_ data: Data, cells: RenderCells) -> [UInt8]
}

extension PictureProtocol {
    static func chosen(_ context: inout GraphicsContext) -> GraphicsVerdict? { nil }
    static func chosen(bySetting context: GraphicsContext) -> GraphicsChoice? { nil }
    static func animation(in context: GraphicsContext) -> (PictureDrawer.AnimationPlayback, String)? { nil }
    static var cropsPlacements: Bool { false }
    static func playedFrames(_ cells: RenderCells) -> PlayedFrames? { nil }
    static func playsFile(_ format: AnimationFormat) -> Bool { false }
    static func playedFile(_ data: Data, cells: RenderCells) -> [UInt8] { [] }
}

/// What a session's layer is made for: the terminal's profile, the colours and characters, and how to wake the loop
/// when something made off it is ready.
struct PictureLayerSetup {
    var profile: TerminalProfile
    var colorMode: ColorMode
    var unicode: Bool
    var wake: @Sendable () -> Void
}

/// Where `render` draws: the cells its picture takes, a cell's pixels (the characters' own for characters), and the
/// characters and colours.
public struct RenderCells: Sendable {
    public var columns: Int
    public var rows: Int
    public var cellWidth: Int
    public var cellHeight: Int
    public var colorMode: ColorMode
    public var unicode: Bool
    public var blitter: BlitterKind

    public init(columns: Int, rows: Int, cellWidth: Int, cellHeight: Int, colorMode: ColorMode, unicode: Bool, blitter: BlitterKind = .half) {
        self.columns = columns
        self.rows = rows
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.colorMode = colorMode
        self.unicode = unicode
        self.blitter = blitter
    }

    /// The cells' pixels.
    public var pixels: (width: Int, height: Int) { (max(1, columns * cellWidth), max(1, rows * cellHeight)) }
}

/// `render`'s pictures in one protocol: each at the cursor, over the one before, the cursor ending under it.
public protocol PacedFrames: AnyObject {
    /// Frame `index` of the file (0 for a still), the `drawn`th drawn: its bytes.
    func frame(_ image: RGBImage, index: Int, drawn: Int) throws -> [UInt8]
    /// What ends the play once `drawn` frames were drawn (what the terminal holds of them let go, but the last).
    func end(drawn: Int) -> [UInt8]
}

extension PacedFrames {
    func end(drawn: Int) -> [UInt8] { [] }
}

/// `render`'s animation given to the terminal, which keeps its frames and plays them.
public protocol PlayedFrames: AnyObject {
    /// Frame `index` as it is read (the first shows it at the cursor), shown `delay` seconds.
    func frame(_ image: RGBImage, index: Int, delay: Double) throws -> [UInt8]
    /// Every frame sent: it plays `loops` times (0: for ever); the cursor goes under it.
    func play(loops: Int) -> [UInt8]
    /// It stops where it is.
    func stop() -> [UInt8]
    /// Stopped while the frames went: what was sent stays, the cursor under it.
    func cut() -> [UInt8]
}

/// A protocol's failure to make a picture, in the words `render` prints.
public struct PictureProtocolFailure: Error, CustomStringConvertible {
    public var description: String
}

/// The picture protocols, by mode: the one place a mode becomes what draws it.
public enum PictureProtocols {
    static let table: [any PictureProtocol.Type] = [
        // In the order they are preferred where more than one draws a terminal's pictures.
        KittyProtocol.self, KittyPlaceholdersProtocol.self, ITerm2Protocol.self, SixelProtocol.self, CellsProtocol.self,
    ]

    static func of(_ mode: GraphicsMode) -> any PictureProtocol.Type {
        table.first { $0.mode == mode } ?? CellsProtocol.self
    }

    /// `render`'s paced pictures in `mode`.
    public static func frames(_ mode: GraphicsMode, _ cells: RenderCells) -> PacedFrames {
        of(mode).frames(cells)
    }

    /// `render`'s animation played by the terminal in `mode`, where the terminal plays one.
    public static func playedFrames(_ mode: GraphicsMode, _ cells: RenderCells) -> PlayedFrames? {
        of(mode).playedFrames(cells)
    }

    /// Whether the terminal plays an animation file of `format` sent as it came, in `mode`.
    public static func playsFile(_ mode: GraphicsMode, _ format: AnimationFormat) -> Bool {
        of(mode).playsFile(format)
    }

    /// `render`'s animation file sent as it came for the terminal to play (`playsFile`).
    public static func playedFile(_ mode: GraphicsMode, _ data: Data, cells: RenderCells) -> [UInt8] {
        of(mode).playedFile(data, cells: cells)
    }
}

/// The layer that sends pictures in `mode`, as the terminal's profile says. `wake`: wakes the run loop when a picture
/// made off it is ready.
func makePictureLayer(_ mode: GraphicsMode, profile: TerminalProfile, colorMode: ColorMode, unicode: Bool,
                      wake: @escaping @Sendable () -> Void) -> PictureLayer? {
    PictureProtocols.of(mode).layer(PictureLayerSetup(profile: profile, colorMode: colorMode, unicode: unicode, wake: wake))
}

extension GraphicsMode {
    /// How the mode's terminal plays an animation (its protocol's; where the terminal answers otherwise, `GraphicsChoice`
    /// paces them).
    var playsAnimations: PictureDrawer.AnimationPlayback { PictureProtocols.of(self).playback }
}
