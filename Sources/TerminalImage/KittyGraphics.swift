import Deflate
import Foundation

/// The Kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole): `ESC _ G keys ; payload ESC \`.
///
/// A picture is sent once, zlib-compressed 24-bit RGB under its id (`a=t`); it is then shown by placements
/// (`a=p`) that name a part of it in pixels and the cells it covers, and taken away by deleting the placement
/// (`a=d,d=i`) or the picture with its data (`a=d,d=I`). Every command carries `q=2`: the terminal answers
/// nothing, so no reply is ever read as keys.
public enum KittyGraphics {
    /// Base64 characters per escape sequence, as the protocol asks (at most 4096).
    static let chunkSize = 4096

    /// Uploads a picture's pixels under its id, without showing them.
    public static func transmit(_ picture: PixelPicture) -> [UInt8] {
        transmit(picture.image, id: picture.id)
    }

    /// `display`: also shows it at the cursor over that many cells (`a=T`), as a previewer prints a picture.
    /// `virtualPlacement`: also makes a virtual placement of that many cells (`a=T,U=1`) for Unicode
    /// placeholders to show.
    /// `frameGap`: sends it as the next frame of the animation `id` (`a=f`), shown for that many milliseconds.
    /// `prepared`: the payload `payload(of:)` made of this image beforehand (off the run loop).
    public static func transmit(_ image: RGBImage, id: UInt32, display: (columns: Int, rows: Int)? = nil,
                                virtualPlacement: (columns: Int, rows: Int)? = nil, frameGap: Int? = nil,
                                prepared: Payload? = nil) -> [UInt8] {
        let made = prepared ?? payload(of: image)
        let compressed: [UInt8]? = made.compressed ? [] : nil
        let payload = made.base64
        var output: [UInt8] = []
        output.reserveCapacity(payload.count + payload.count / chunkSize * 16 + 64)
        var start = 0
        repeat {
            let end = min(payload.count, start + chunkSize)
            let more = end < payload.count ? 1 : 0
            let action = frameGap.map { "a=f,z=\(max(1, $0))" } ?? display.map { "a=T,c=\($0.columns),r=\($0.rows),C=1" }
                ?? virtualPlacement.map { "a=T,U=1,c=\($0.columns),r=\($0.rows)" } ?? "a=t"
            var keys = start == 0
                ? "\(action),f=24,s=\(image.width),v=\(image.height),i=\(id),q=2\(compressed == nil ? "" : ",o=z"),m=\(more)"
                // A frame's later chunks name the action again: kitty reads a chunk without one as the picture's own
                // data, and the frame would replace the first.
                : frameGap == nil ? "m=\(more),q=2" : "a=f,m=\(more),q=2"
            if payload.isEmpty { keys = "\(action),f=24,s=\(image.width),v=\(image.height),i=\(id),q=2" }
            output += Array("\u{1B}_G\(keys);".utf8)
            output += payload[start..<end]
            output += [0x1B, 0x5C]
            start = end
        } while start < payload.count
        return output
    }

    /// Shows the part of picture `id` at pixels (`x`, `y`, `width`, `height`) over `columns` x `rows` cells
    /// from the cursor, without moving it. The same `placement` id replaces an earlier placement.
    public static func place(id: UInt32, placement: UInt32, x: Int, y: Int, width: Int, height: Int, columns: Int, rows: Int) -> String {
        "\u{1B}_Ga=p,i=\(id),p=\(placement),x=\(x),y=\(y),w=\(width),h=\(height),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\"
    }

    /// Takes one placement off the screen; the picture stays uploaded.
    public static func deletePlacement(id: UInt32, placement: UInt32) -> String {
        "\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\"
    }

    /// Forgets a picture: its placements and its data. Beware: kitty before 0.38.1 frees with it every picture that
    /// has no placement at that moment (`filter_refs` in its graphics.c applied the freeing to every image, a bug fixed
    /// in 0.38.1): where pictures are kept uploaded while off screen, `retire(id:)` is the way to let one go.
    public static func deletePicture(id: UInt32) -> String {
        "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"
    }

    /// Lets one picture go and no other, in every kitty: its placements taken off (a delete that frees no data), then
    /// its pixels replaced by a single one under the same id (sending an image under an id already held replaces it).
    /// The id may then carry another picture.
    public static func retire(id: UInt32) -> String {
        deletePlacements(id: id) + "\u{1B}_Ga=t,f=24,s=1,v=1,i=\(id),q=2;AAAA\u{1B}\\"
    }

    /// Takes every placement of picture `id` off the screen, freeing nothing.
    public static func deletePlacements(id: UInt32) -> String {
        "\u{1B}_Ga=d,d=i,i=\(id),q=2\u{1B}\\"
    }

    /// A picture's pixels as they travel: zlib-compressed (when that is smaller) and in base64.
    public struct Payload: Sendable {
        public let base64: [UInt8]
        public let compressed: Bool
    }

    /// The payload of `image`: the compression and base64 a transmission costs, done once (off the run loop for an
    /// animation's frames).
    public static func payload(of image: RGBImage) -> Payload {
        // Level 1: most of the saving for photos at a fraction of the time (pictures are sent once).
        let compressed = Deflate.deflate(image.pixels, level: 1)
        return Payload(base64: Array(Data(compressed ?? image.pixels).base64EncodedString().utf8), compressed: compressed != nil)
    }

    // MARK: Animation: the terminal plays the frames it was given, nothing is sent per loop.

    /// How long the first frame of animation `id` shows (its other frames say so as they are sent).
    public static func firstFrameGap(id: UInt32, milliseconds: Int) -> String {
        "\u{1B}_Ga=a,i=\(id),r=1,z=\(max(1, milliseconds)),q=2\u{1B}\\"
    }

    /// Plays animation `id` from the frame it stands at, `loops` times (0: for ever).
    public static func play(id: UInt32, loops: Int) -> String {
        // v=1 loops for ever; otherwise one more than the plays.
        "\u{1B}_Ga=a,i=\(id),s=3,v=\(loops <= 0 ? 1 : loops + 1),q=2\u{1B}\\"
    }

    /// Stops animation `id` at frame `frame` (0-based).
    public static func stop(id: UInt32, atFrame frame: Int) -> String {
        "\u{1B}_Ga=a,i=\(id),s=1,q=2\u{1B}\\\u{1B}_Ga=a,i=\(id),c=\(frame + 1),q=2\u{1B}\\"
    }

    /// Every frame after the first of an animation already sent as picture `id`, then the first frame's gap:
    /// `frames` and `delays` (milliseconds) are the whole animation's.
    /// As kitty's own `icat` sends them: the first frame's gap, the second frame, "play what has come" (`s=2`), the rest;
    /// `play` then runs it in loops (kitty was seen to leave an animation standing when told `s=3` only at the end).
    /// `prepared`: each frame's payload, made beforehand (nil: made here).
    public static func animationFrames(_ frames: [RGBImage], delays: [Int], id: UInt32, prepared: [Payload]? = nil) -> [UInt8] {
        var output: [UInt8] = []
        animationFrames(count: frames.count, delays: delays, id: id,
                        frame: { index in (frames[index], prepared.flatMap { $0.indices.contains(index) ? $0[index] : nil }) },
                        emit: { output += $0 })
        return output
    }

    /// The same, a frame at a time: `frame` gives frame `index` (and its payload, if made beforehand) only when it is
    /// sent, and `emit` takes each frame's bytes, so that no more than one frame is made and held at once.
    public static func animationFrames(count: Int, delays: [Int], id: UInt32, frame: (Int) throws -> (image: RGBImage, prepared: Payload?),
                                       emit: ([UInt8]) throws -> Void) rethrows {
        try emit(Array(firstFrameGap(id: id, milliseconds: delays.first ?? 100).utf8))
        for index in 1..<max(1, count) {
            let made = try frame(index)
            try emit(animationFrame(made.image, index: index, delay: delays.indices.contains(index) ? delays[index] : 100, id: id,
                                    prepared: made.prepared))
        }
    }

    /// Frame `index` (from 1; the first went as the picture, then `firstFrameGap`) of animation `id`, shown for `delay`
    /// milliseconds; after the second frame, "play what has come" (`s=2`), so that it moves while the rest arrive.
    public static func animationFrame(_ image: RGBImage, index: Int, delay: Int, id: UInt32, prepared: Payload? = nil) -> [UInt8] {
        var bytes = transmit(image, id: id, frameGap: delay, prepared: prepared)
        if index == 1 { bytes += Array("\u{1B}_Ga=a,i=\(id),s=2,q=2\u{1B}\\".utf8) }
        return bytes
    }

    /// Forgets every picture this program sent, placements and data (on the way out).
    public static let deleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"

    /// Asks whether the terminal speaks the protocol: one pixel, queried and not kept. A terminal that does
    /// answers `ESC _ G i=31;OK ESC \`.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"

    /// Asks whether the terminal plays an animation's frames: a one-pixel picture kept under `animationQueryID`
    /// (quietly), one frame added to it with the answer asked for, then the picture retired. kitty answers
    /// `ESC _ G i=32,r=2;OK ESC \`; a terminal that keeps pictures but not frames answers with an error (Zellij
    /// `ENOTSUPPORTED`, xterm.js `EINVAL`, Contour `ENOTSUP`) or not at all (Ghostty, Konsole, Warp).
    public static let animationQuery = "\u{1B}_Ga=t,i=\(animationQueryID),s=1,v=1,t=d,f=24,q=2;AAAA\u{1B}\\"
        + "\u{1B}_Ga=f,i=\(animationQueryID),s=1,v=1,t=d,f=24,z=100;AAAA\u{1B}\\"
        + retire(id: animationQueryID)

    /// The picture id the animation question uses (any later picture under it replaces what it left).
    public static let animationQueryID: UInt32 = 32

    /// What a terminal's answer (an APC body, `G` first) says of picture `id`: nil when it is not about it, "OK", or
    /// the error it gave ("ENOTSUPPORTED", "EINVAL:unsupported action").
    public static func answer(_ body: String, about id: UInt32) -> String? {
        guard body.hasPrefix("G"), let semicolon = body.firstIndex(of: ";") else { return nil }
        let keys = body[body.index(after: body.startIndex)..<semicolon].split(separator: ",")
        guard keys.contains(where: { $0 == "i=\(id)" }) else { return nil }
        return String(body[body.index(after: semicolon)...])
    }

    // MARK: Reading it back (tests, and the benchmark's byte counts)

    /// One command: its keys and, for a transmission put together from its chunks, the pixels.
    public struct Command: Equatable, Sendable {
        public var keys: [String: String]
        public var payload: [UInt8]

        public subscript(key: String) -> String? { keys[key] }
        public func int(_ key: String) -> Int? { keys[key].flatMap { Int($0) } }
    }

    /// Every graphics command in `bytes`, with chunked transmissions joined (keys of their first chunk,
    /// payload base64-decoded and, with `o=z`, inflated).
    public static func commands(in bytes: [UInt8]) -> [Command] {
        var commands: [Command] = []
        var pending: (keys: [String: String], base64: [UInt8])?
        var index = 0
        while index + 2 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == 0x5F, bytes[index + 2] == 0x47 else {
                index += 1
                continue
            }
            var end = index + 3
            while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
            guard end + 1 < bytes.count else { break }
            let body = bytes[(index + 3)..<end]
            index = end + 2
            let semicolon = body.firstIndex(of: 0x3B) ?? body.endIndex
            var keys: [String: String] = [:]
            for pair in String(decoding: body[body.startIndex..<semicolon], as: UTF8.self).split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
            }
            let data = semicolon < body.endIndex ? Array(body[(semicolon + 1)...]) : []
            if var chunked = pending {
                chunked.base64 += data
                if keys["m"] == "1" {
                    pending = chunked
                    continue
                }
                pending = nil
                commands.append(finish(chunked.keys, chunked.base64))
            } else if keys["m"] == "1" {
                pending = (keys, data)
            } else {
                commands.append(finish(keys, data))
            }
        }
        return commands
    }

    private static func finish(_ keys: [String: String], _ base64: [UInt8]) -> Command {
        var payload = Data(base64Encoded: Data(base64)).map { [UInt8]($0) } ?? []
        if keys["o"] == "z", let width = keys["s"].flatMap({ Int($0) }), let height = keys["v"].flatMap({ Int($0) }) {
            let channels = keys["f"] == "32" ? 4 : 3
            payload = Deflate.inflate(payload, expected: width * height * channels) ?? []
        }
        return Command(keys: keys, payload: payload)
    }
}
