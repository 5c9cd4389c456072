import Foundation
import TerminalImage
import UnsplashSandbox

/// The characters photos are drawn with when a terminal has no pixels (half blocks, quadrants, sextants),
/// against chafa with the same symbols, size and colours: how close each comes to the photo (PSNR of the
/// cells drawn back to pixels, against the photo at the same size) and how long it takes.
struct BlitterBenchmark {
    let iterations: Int
    let columns = 40
    let rows = 20

    func run(into report: inout Report) throws {
        guard let assets = SandboxCatalog.locateAssets() else { return }
        let jpeg = try ThumbnailBenchmark.photo1080(assets: assets)
        let source = try ImageCodec.decode(jpeg).image
        // Each cell drawn back as 2x6 pixels (the common multiple of 1x2, 2x2 and 2x3).
        let reference = AreaResampler.resize(source, width: columns * 2, height: rows * 6)
        let chafa = ThumbnailBenchmark.chafaPath()
        if let chafa {
            try measureRender(chafa: chafa, jpeg: jpeg, into: &report)
            try measureHalfBlocks(chafa: chafa, assets: assets, into: &report)
        }
        for mode in [ColorMode.palette256, .truecolor] {
            for kind in BlitterKind.allCases {
                let label = "cells \(kind.rawValue) 40x20, \(mode.name)"
                let blitter = MosaicBlitter(kind: kind, mode: mode)
                var samples = Samples()
                var picture = CellPicture(columns: 0, rows: 0, cells: [])
                for index in 0..<(iterations + 5) {
                    let start = now()
                    let decoded = try ImageCodec.decode(jpeg, minimumWidth: columns * 2, minimumHeight: rows * 3,
                                                        oversampling: ImageCodec.cellsOversampling)
                    picture = blitter.render(decoded.image, columns: columns, rows: rows)
                    if index >= 5 { samples.add(now() - start) }
                }
                let ours = Self.raster(picture).psnr(reference)
                report.add("\(label): PSNR", String(format: "%.2f dB", ours))
                report.add("\(label): decode + draw, median", milliseconds(samples.median))
                guard let chafa else { continue }
                let symbols = Self.chafaSymbols(kind)
                let output = try Self.chafaOutput(chafa, jpeg: jpeg, mode: mode, symbols: symbols, columns: columns, rows: rows)
                let theirs = Self.parseCells(output, columns: columns, rows: rows)
                report.add("chafa --symbols \(symbols), same: PSNR", String(format: "%.2f dB", Self.raster(theirs).psnr(reference)))
                let time = try ThumbnailBenchmark.chafaTime(chafa, jpeg: jpeg, mode: mode, symbols: symbols, stretch: true)
                report.add("chafa --symbols \(symbols), same: per picture", milliseconds(time))
            }
        }
    }

    /// Half blocks in 24-bit colour against chafa's, photo by photo: every demo photo (384 to 660 pixels, portrait,
    /// square and landscape) and the 1080-pixel enlargement, at 40x20 and 80x40 cells, each decoded as the
    /// pipeline decodes for those cells (libjpeg's DCT scaling from the cells' size). PSNR of the cells drawn back
    /// as two flat squares each against the whole photo resampled to 4x4 pixels a square; the worst margin is the figure that counts.
    func measureHalfBlocks(chafa: String, assets: URL, into report: inout Report) throws {
        let folder = assets.appendingPathComponent("photos")
        var photos: [(String, Data)] = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".jpg") }.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
        photos.append(("coffee enlarged to 1080 px", try ThumbnailBenchmark.photo1080(assets: assets)))
        let blitter = MosaicBlitter(kind: .half, mode: .truecolor)
        var worst: (margin: Double, name: String) = (.infinity, "")
        var oursTotal = 0.0, theirsTotal = 0.0, count = 0
        for (columns, rows) in [(40, 20), (80, 40)] {
            for (name, jpeg) in photos {
                let whole = try ImageCodec.decode(jpeg).image
                // A half block is two flat squares, one above the other: the cells drawn back so, 4x4 pixels each,
                // against the photo at that finer size (the detail no flat square can show counts against both).
                let reference = AreaResampler.resize(whole, width: columns * 4, height: rows * 8)
                func pixels(_ picture: CellPicture) -> RGBImage {
                    Self.enlarged(AreaResampler.resize(Self.raster(picture), width: columns, height: rows * 2), by: 4)
                }
                let decoded = try ImageCodec.decode(jpeg, minimumWidth: columns, minimumHeight: rows * 2,
                                                    oversampling: ImageCodec.cellsOversampling)
                let ours = pixels(blitter.render(decoded.image, columns: columns, rows: rows)).psnr(reference)
                let output = try Self.chafaOutput(chafa, jpeg: jpeg, mode: .truecolor, symbols: "vhalf", columns: columns, rows: rows)
                let theirs = pixels(Self.parseCells(output, columns: columns, rows: rows)).psnr(reference)
                report.add("half blocks \(columns)x\(rows), truecolor, \(name) (\(whole.width)x\(whole.height)): PSNR ours; chafa",
                           String(format: "%.2f; %.2f dB", ours, theirs))
                if ours - theirs < worst.margin { worst = (ours - theirs, "\(name) at \(columns)x\(rows)") }
                oursTotal += ours
                theirsTotal += theirs
                count += 1
            }
        }
        report.add("half blocks, truecolor: mean PSNR ours; chafa (\(count) pictures)",
                   String(format: "%.2f; %.2f dB", oursTotal / Double(count), theirsTotal / Double(count)))
        report.add("half blocks, truecolor: worst margin over chafa (\(worst.name))", String(format: "%+.2f dB", worst.margin),
                   target: ">= -0.5 dB")
    }

    /// `image-feed render` as a file manager's previewer runs it, a process per picture, against chafa doing
    /// the same (half blocks, 256 colours, 40x20 cells): whole-process time, start-up included.
    func measureRender(chafa: String, jpeg: Data, into report: inout Report) throws {
        guard let program = ScrollBenchmark.sibling("image-feed") else {
            report.note("render: skipped, image-feed is not built beside the benchmark (make bench builds both)")
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-render.jpg")
        try jpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        func median(_ arguments: [String], _ executable: String) throws -> Double {
            var samples = Samples()
            for index in 0..<25 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let start = now()
                try process.run()
                process.waitUntilExit()
                if index >= 3 { samples.add(now() - start) }
            }
            return samples.median
        }
        let ours = try median(["render", file.path, "--cols", "40", "--rows", "20", "--colors", "256"], program.path)
        let theirs = try median(["--format", "symbols", "--size", "40x20", "--colors", "256", "--symbols", "vhalf",
                                 "--animate", "off", "--polite", "on", file.path], chafa)
        report.add("render, whole process, 1080px JPEG -> 40x20 cells, 256 colours", milliseconds(ours))
        report.add("chafa, whole process, same", milliseconds(theirs))
        report.add("render / chafa, whole process", String(format: "%.2f", ours / theirs), target: "<= 0.6")
        report.add("image-feed --help, whole process", milliseconds(try median(["--help"], program.path)))
    }

    static func chafaSymbols(_ kind: BlitterKind) -> String {
        switch kind {
        case .half: "space+solid+vhalf"
        case .quadrant: "space+solid+half+quad"
        case .sextant: "space+solid+half+sextant"
        case .blocks: "space+solid+block"
        }
    }

    static func chafaOutput(_ chafa: String, jpeg: Data, mode: ColorMode, symbols: String, columns: Int, rows: Int) throws -> [UInt8] {
        try chafaOutput(chafa, jpeg: jpeg, arguments: ["--format", "symbols", "--size", "\(columns)x\(rows)", "--stretch", "--colors",
                                                      mode == .truecolor ? "full" : "256", "--symbols", symbols, "--animate", "off",
                                                      "--polite", "on", "-O", "0"])
    }

    /// What chafa writes for `jpeg` (a file of its own) with `arguments` before the file's name.
    static func chafaOutput(_ chafa: String, jpeg: Data, arguments: [String]) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-chafa.jpg")
        try jpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chafa)
        process.arguments = arguments + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// chafa's output as cells: its SGR colours (indexed and direct, reverse video) and glyphs, row by row.
    static func parseCells(_ bytes: [UInt8], columns: Int, rows: Int) -> CellPicture {
        var cells: [CellPicture.Cell] = []
        var foreground = TerminalColor.rgb(RGB(255, 255, 255))
        var background = TerminalColor.rgb(RGB(0, 0, 0))
        var reverse = false
        let text = String(decoding: bytes, as: UTF8.self)
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}" {
                guard scalars.first == "[" else { continue }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.popFirst() {
                    if (0x40...0x7E).contains(next.value) {
                        if next == "m" {
                            let values = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                            var index = 0
                            while index < values.count {
                                switch values[index] {
                                case 0:
                                    foreground = .rgb(RGB(255, 255, 255)); background = .rgb(RGB(0, 0, 0)); reverse = false
                                case 7: reverse = true
                                case 27: reverse = false
                                case 38, 48:
                                    let isForeground = values[index] == 38
                                    var colour: TerminalColor?
                                    if index + 2 < values.count, values[index + 1] == 5 {
                                        colour = .indexed(UInt8(clamping: values[index + 2])); index += 2
                                    } else if index + 4 < values.count, values[index + 1] == 2 {
                                        colour = .rgb(RGB(UInt8(clamping: values[index + 2]), UInt8(clamping: values[index + 3]),
                                                          UInt8(clamping: values[index + 4]))); index += 4
                                    }
                                    if let colour { if isForeground { foreground = colour } else { background = colour } }
                                case 39: foreground = .rgb(RGB(255, 255, 255))
                                case 49: background = .rgb(RGB(0, 0, 0))
                                default: break
                                }
                                index += 1
                            }
                        }
                        break
                    }
                    parameters.unicodeScalars.append(next)
                }
                continue
            }
            if scalar == "\n" || scalar == "\r" || scalar.value < 0x20 { continue }
            let glyph = Character(scalar)
            cells.append(reverse ? .init(glyph: glyph, foreground: background, background: foreground)
                                 : .init(glyph: glyph, foreground: foreground, background: background))
        }
        let wanted = columns * rows
        if cells.count < wanted { cells += Array(repeating: .init(glyph: " ", foreground: .standard, background: .standard), count: wanted - cells.count) }
        return CellPicture(columns: columns, rows: rows, cells: Array(cells.prefix(wanted)))
    }

    /// Which of a cell's 2x6 pixels a glyph inks (row-major); nil for glyphs drawn as a mix.
    static func mask(_ glyph: Character) -> [Bool]? {
        let value = glyph.unicodeScalars.first!.value
        func quarters(_ tl: Bool, _ tr: Bool, _ bl: Bool, _ br: Bool) -> [Bool] {
            (0..<12).map { i in
                let right = i % 2 == 1
                let lower = i / 2 >= 3
                return lower ? (right ? br : bl) : (right ? tr : tl)
            }
        }
        switch glyph {
        case " ": return Array(repeating: false, count: 12)
        case "█": return Array(repeating: true, count: 12)
        case "▀": return quarters(true, true, false, false)
        case "▄": return quarters(false, false, true, true)
        case "▌": return quarters(true, false, true, false)
        case "▐": return quarters(false, true, false, true)
        case "▘": return quarters(true, false, false, false)
        case "▝": return quarters(false, true, false, false)
        case "▖": return quarters(false, false, true, false)
        case "▗": return quarters(false, false, false, true)
        case "▚": return quarters(true, false, false, true)
        case "▞": return quarters(false, true, true, false)
        case "▛": return quarters(true, true, true, false)
        case "▜": return quarters(true, true, false, true)
        case "▙": return quarters(true, false, true, true)
        case "▟": return quarters(false, true, true, true)
        default:
            guard (0x1FB00...0x1FB3B).contains(value) else { return nil }
            var pattern = Int(value - 0x1FB00) + 1
            if pattern >= 21 { pattern += 1 }
            if pattern >= 42 { pattern += 1 }
            return (0..<12).map { i in
                let bit = (i / 4) * 2 + i % 2 // row third, then column
                return (pattern >> bit) & 1 == 1
            }
        }
    }

    static func rgb(_ colour: TerminalColor) -> RGB {
        switch colour {
        case .standard: RGB(0, 0, 0)
        case let .indexed(index): Palette.xterm256[Int(index)]
        case let .rgb(value): value
        }
    }

    /// Each pixel as a square of `factor` x `factor`.
    static func enlarged(_ image: RGBImage, by factor: Int) -> RGBImage {
        let width = image.width * factor
        var pixels = [UInt8](repeating: 0, count: width * image.height * factor * 3)
        for y in 0..<(image.height * factor) {
            for x in 0..<width {
                let from = ((y / factor) * image.width + x / factor) * 3
                let to = (y * width + x) * 3
                pixels[to] = image.pixels[from]
                pixels[to + 1] = image.pixels[from + 1]
                pixels[to + 2] = image.pixels[from + 2]
            }
        }
        return RGBImage(width: width, height: image.height * factor, pixels: pixels)
    }

    /// The cells drawn back as pixels, 2x6 a cell.
    static func raster(_ picture: CellPicture) -> RGBImage {
        let width = picture.columns * 2
        var pixels = [UInt8](repeating: 0, count: width * picture.rows * 6 * 3)
        for row in 0..<picture.rows {
            for column in 0..<picture.columns {
                let cell = picture[column, row]
                let ink = rgb(cell.foreground)
                let paper = rgb(cell.background)
                let mask = mask(cell.glyph)
                for i in 0..<12 {
                    let colour: RGB
                    if let mask { colour = mask[i] ? ink : paper } else {
                        colour = RGB(UInt8((Int(ink.red) + Int(paper.red)) / 2), UInt8((Int(ink.green) + Int(paper.green)) / 2),
                                     UInt8((Int(ink.blue) + Int(paper.blue)) / 2))
                    }
                    let x = column * 2 + i % 2
                    let y = row * 6 + i / 2
                    let index = (y * width + x) * 3
                    pixels[index] = colour.red
                    pixels[index + 1] = colour.green
                    pixels[index + 2] = colour.blue
                }
            }
        }
        return RGBImage(width: width, height: picture.rows * 6, pixels: pixels)
    }
}
