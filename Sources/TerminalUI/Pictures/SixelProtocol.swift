import Foundation
import TerminalImage

/// Sixel (xterm, mlterm, foot, Windows Terminal; tmux built with it): pictures drawn into the cells they cover
/// (`InlinePictureLayer`), every frame of an animation paced by the program.
enum SixelProtocol: PictureProtocol {
    static let mode = GraphicsMode.sixel
    static let playback = PictureDrawer.AnimationPlayback.paced

    static func layer(_ setup: PictureLayerSetup) -> PictureLayer? {
        let layer = InlinePictureLayer(format: .sixel, followsScrolls: setup.profile.sixelScrolls)
        layer.cellsBlitter = HalfBlockBlitter(mode: setup.colorMode, unicode: setup.unicode)
        layer.encodesInBackground = true
        layer.wake = setup.wake
        return layer
    }

    static func frames(_ cells: RenderCells) -> PacedFrames { SixelFrames(cells) }

    /// Inside tmux built with Sixel, attached to a terminal that draws it (and no placeholders); elsewhere a terminal
    /// whose DA1 lists Sixel, unless its row says not to trust that, drawn for its cell (or its row's Sixel cell).
    static func chosen(_ context: inout GraphicsContext) -> GraphicsVerdict? {
        switch context.between {
        case .tmux:
            guard let tmux = context.tmux, !tmux.drawsPlaceholders, tmux.drawsSixel, context.sized else { return nil }
            return .chosen("inside tmux built with Sixel, attached to a terminal (\(context.tmuxTerminal)) that draws it")
        case .nothing:
            guard context.abilities?.sixel == true, context.row?.sixelUntrusted != true else { return nil }
            if !context.sized, let row = context.row, let cell = row.sixelCell {
                (context.cellWidth, context.cellHeight) = (cell.width, cell.height)
                return .chosen("the terminal (\(row.name)) reports Sixel, drawn for its \(cell.width)x\(cell.height) Sixel cell")
            }
            guard context.sized else { return .refused("the terminal\(context.name) has Sixel but did not say its cell size") }
            return .chosen("the terminal\(context.name) reports Sixel")
        case .zellij:
            // Zellij 0.45 passes Sixel to a terminal that draws it (and only then lists it in DA1); older ones listed it
            // whatever the terminal had.
            guard Terminals.zellijPassesSixel(context.abilities) else { return nil }
            guard context.sized else { return .refused("inside Zellij, which passes Sixel on, but the cell size was not said") }
            return .chosen("inside Zellij 0.45 or later, which passes Sixel to a terminal that draws it (its DA1 lists Sixel)")
        case .gnuScreen, .herdr:
            return nil
        }
    }
}

/// `render`'s pictures in Sixel, at the cells' pixels (a terminal does not scale Sixel): each frame's bytes made once,
/// while they come to little.
final class SixelFrames: PacedFrames {
    let cells: RenderCells
    private var made: [Int: [UInt8]] = [:]
    private var madeBytes = 0

    init(_ cells: RenderCells) {
        self.cells = cells
    }

    func frame(_ image: RGBImage, index: Int, drawn: Int) throws -> [UInt8] {
        if let sixel = made[index] { return sixel }
        let size = cells.pixels
        let sized = image.width == size.width && image.height == size.height ? image : AreaResampler.resize(image, width: size.width, height: size.height)
        guard let sixel = SixelEncoder.encode(sized) else { throw PictureProtocolFailure(description: "the picture could not be turned into Sixel") }
        let frame = sixel + Array("\n".utf8)
        if madeBytes + frame.count <= AnimationLimits.drawnFrameBytes {
            made[index] = frame
            madeBytes += frame.count
        }
        return frame
    }
}
