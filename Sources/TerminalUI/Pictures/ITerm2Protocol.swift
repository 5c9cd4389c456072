import Foundation
import TerminalImage

/// iTerm2's inline images (iTerm2, WezTerm, VS Code where its images are on): pictures drawn into the cells they cover
/// (`InlinePictureLayer`), stretched by the terminal over them; a GIF sent as it came plays by itself.
enum ITerm2Protocol: PictureProtocol {
    static let mode = GraphicsMode.iterm2
    static let playback = PictureDrawer.AnimationPlayback.terminalGIF

    static func layer(_ setup: PictureLayerSetup) -> PictureLayer? {
        let layer = InlinePictureLayer(format: .iterm2, followsScrolls: setup.profile.sixelScrolls)
        layer.encodesInBackground = true
        layer.wake = setup.wake
        return layer
    }

    static func frames(_ cells: RenderCells) -> PacedFrames { ITerm2Frames(cells) }

    /// A terminal whose row has iTerm2's images: always, or where its DA1 lists Sixel (its images are on).
    static func chosen(_ context: inout GraphicsContext) -> GraphicsVerdict? {
        guard context.between == .nothing, let row = context.row else { return nil }
        switch row.inlineImages {
        case .always:
            return .chosen("the terminal is \(row.name): its own inline images" + context.unsizedNote)
        case .whenSixelReported where context.abilities?.sixel == true:
            return .chosen("the terminal is \(row.name), with its images on: iTerm2's inline images" + context.unsizedNote)
        default:
            return nil
        }
    }

    static func playsFile(_ format: AnimationFormat) -> Bool { format == .gif }

    static func playedFile(_ data: Data, cells: RenderCells) -> [UInt8] {
        ITerm2Images.inline(file: data, columns: cells.columns, rows: cells.rows) + Array("\n".utf8)
    }
}

/// `render`'s pictures as iTerm2 images over the cells.
final class ITerm2Frames: PacedFrames {
    let cells: RenderCells

    init(_ cells: RenderCells) {
        self.cells = cells
    }

    func frame(_ image: RGBImage, index: Int, drawn: Int) throws -> [UInt8] {
        guard let inline = ITerm2Images.inline(image, columns: cells.columns, rows: cells.rows) else {
            throw PictureProtocolFailure(description: "the picture could not be turned into an iTerm2 image")
        }
        return inline + Array("\n".utf8)
    }
}
