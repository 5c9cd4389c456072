import CImageCodec
import Foundation

/// A moving picture ready to play: its frames, already composed and scaled no larger than they are shown, each
/// with how long it shows, and how many times the whole plays.
///
/// Frames are read a frame at a time (GIF through giflib, WebP through libwebp's animation decoder, MP4 and WebM
/// through FFmpeg) and kept under one memory budget: when the next frame would pass it, every frame kept so far is
/// halved and the rest are read at that size, down to `AnimationLimits.smallestSide`; past that the animation is
/// cut, and `cut` says where. A 1000-frame GIF at full size is never held whole.
public struct AnimatedImage: Sendable {
    public struct Frame: Sendable {
        public let image: RGBImage
        /// Seconds the frame shows (a delay under 20 ms, as browsers do, is read as 100 ms).
        public let delay: Double
    }

    public let frames: [Frame]
    /// How many times the whole plays; 0 for ever.
    public let loops: Int
    /// The size the file's canvas has.
    public let width: Int
    public let height: Int
    public let format: AnimationFormat
    /// Why frames were left out ("the first 1000 of its frames"), or nil.
    public let cut: String?

    public init(frames: [Frame], loops: Int, width: Int, height: Int, format: AnimationFormat, cut: String? = nil) {
        self.frames = frames
        self.loops = loops
        self.width = width
        self.height = height
        self.format = format
        self.cut = cut
    }

    /// Whether frames were left out because the file was damaged past them (the file is not one to keep).
    public var damaged: Bool { cut == AnimatedImage.damagedCut }
    static let damagedCut = "the frames before a damaged one"

    /// One loop's length in seconds.
    public var duration: Double { frames.reduce(0) { $0 + $1.delay } }
    /// Whether it moves at all (one frame is a still).
    public var moves: Bool { frames.count > 1 }
    /// Bytes its frames hold.
    public var bytes: Int { frames.reduce(0) { $0 + $1.image.pixels.count } }
}

public enum AnimationFormat: String, Sendable, Equatable {
    case gif = "GIF"
    case webp = "WebP"
    case video = "video"

    /// Recognises an animation's file by its bytes: GIF, WebP, or an MP4/MOV or WebM video.
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if bytes.withUnsafeBufferPointer({ ifc_is_video($0.baseAddress, $0.count) != 0 }) {
            self = .video
        } else {
            return nil
        }
    }
}

/// What an animation may cost.
public struct AnimationLimits: Sendable, Equatable {
    /// Bytes every frame kept may hold together.
    public var bytes: Int
    /// Frames read at most; the rest are cut.
    public var frames: Int
    /// Seconds of one loop at most; the rest is cut.
    public var duration: Double
    /// Frames are not halved below this many pixels on their longer side.
    public var smallestSide: Int
    /// Pixels the whole file may cost to read: each frame costs the part of the canvas it changed and the frame made
    /// of it. Past that the animation is cut ("the first N of its frames"), so that a small file of huge frames (a
    /// GIF's 50-million-pixel screen redrawn a thousand times) costs seconds, not hours.
    public var work: Int

    public init(bytes: Int = 64 << 20, frames: Int = 1_000, duration: Double = 600, smallestSide: Int = 96,
                work: Int = 500_000_000) {
        self.bytes = bytes
        self.frames = frames
        self.duration = duration
        self.smallestSide = smallestSide
        self.work = work
    }

    public static let standard = AnimationLimits()
    /// Bytes of frames drawn for the terminal that a player keeps to draw again in the next loops (a short loop is
    /// drawn once), the viewer's and `render`'s alike.
    public static let drawnFrameBytes = 16 << 20
    /// The shortest delay a frame keeps; shorter ones are read as `fallbackDelay`, as browsers do.
    public static let shortestDelay = 0.02
    public static let fallbackDelay = 0.1
}

extension ImageCodec {
    /// Whether the bytes are an animation with more than one frame, or a video (which plays even with one), without
    /// decoding more than the first two frames' headers.
    public static func isAnimation(_ data: Data) -> Bool {
        guard let format = AnimationFormat(sniffing: data) else { return false }
        if format == .video { return true }
        if format == .webp {
            // An animated WebP says so in its VP8X chunk (the animation flag); a still one has no such chunk.
            let bytes = [UInt8](data.prefix(21))
            return bytes.count >= 21 && Array(bytes[12..<16]) == Array("VP8X".utf8) && bytes[20] & 0x02 != 0
        }
        // A GIF moves when a second image follows the first: count image descriptors a frame at a time.
        return (try? decodeAnimation(data, fitting: (64, 64), limits: AnimationLimits(frames: 2)).frames.count) == 2
    }

    /// Reads an animation's frames, each composed over black and scaled to fit in `fitting` (width, height; never
    /// enlarged), under `limits`. Stops (with `CancellationError`) when `stop` is set from another thread.
    /// `exactly`: the frames are made exactly `fitting`'s size (a view whose box already has the animation's shape: no
    /// frame is resized again when drawn), halved from there under the budget.
    /// `each`: given every frame as soon as it is read (with its index), on the decoding thread, so that it can be
    /// shown while the rest are read; what it throws ends the decode. (A frame given is at the size frames were kept
    /// at then: the frames returned may have been halved since.)
    public static func decodeAnimation(_ data: Data, fitting: (width: Int, height: Int)? = nil, exactly: Bool = false,
                                       limits: AnimationLimits = .standard, maximumPixels: Int? = nil,
                                       stop: DecodeStop? = nil, each: ((AnimatedImage.Frame, Int) throws -> Void)? = nil) throws -> AnimatedImage {
        ifc_begin_decode(stop?.flag)
        defer { ifc_end_decode() }
        let budget = UInt64(min(max(1, maximumPixels ?? pixelBudget), largestPixelBudget))
        return try decodeAnimationFrames(data, fitting: fitting, exactly: exactly, limits: limits, budget: budget, stop: stop, each: each)
    }

    /// `decodeAnimation` inside a decode that already began (it holds the thread's share of the budget).
    static func decodeAnimationFrames(_ data: Data, fitting: (width: Int, height: Int)?, exactly: Bool = false, limits: AnimationLimits,
                                      budget: UInt64, stop: DecodeStop?,
                                      each: ((AnimatedImage.Frame, Int) throws -> Void)? = nil) throws -> AnimatedImage {
        guard let format = AnimationFormat(sniffing: data) else { throw ImageDecodingError.unknownFormat }
        var message = [CChar](repeating: 0, count: 200)
        // The bytes stay where they are while the decoder reads them.
        let copy = [UInt8](data)
        return try copy.withUnsafeBufferPointer { buffer -> AnimatedImage in
            guard let handle = ifc_animation_open(buffer.baseAddress, buffer.count, budget, &message, message.count) else {
                if stop?.isStopped == true { throw CancellationError() }
                throw ImageDecodingError.corrupt(text(message))
            }
            defer { ifc_animation_close(handle) }
            var width: Int32 = 0, height: Int32 = 0, declared: Int32 = 0, loops: Int32 = 0
            ifc_animation_info(handle, &width, &height, &declared, &loops)
            let canvasWidth = Int(width), canvasHeight = Int(height)
            // The size frames are kept at: fitted, then halved while they do not fit the budget.
            var target = exactly && (fitting?.width ?? 0) > 0 && (fitting?.height ?? 0) > 0
                ? (width: fitting!.width, height: fitting!.height) : fitted(width: canvasWidth, height: canvasHeight, in: fitting)
            var resampler = CanvasResampler(canvasWidth: canvasWidth, canvasHeight: canvasHeight, width: target.width, height: target.height)
            var frames: [AnimatedImage.Frame] = []
            var held = 0
            var total = 0.0
            var worked = 0
            var cut: String?
            let stopped = { stop?.isStopped == true }
            while true {
                if frames.count >= limits.frames {
                    cut = "the first \(limits.frames) of its frames"
                    break
                }
                var canvas: UnsafePointer<UInt8>?
                var delayMilliseconds: Int32 = 0
                let status = ifc_animation_next(handle, &canvas, &delayMilliseconds, &message, message.count)
                if status == IFC_ANIMATION_END { break }
                guard status != IFC_ERROR, let canvas else {
                    if stopped() { throw CancellationError() }
                    // Damage after whole frames ends the animation there.
                    if !frames.isEmpty { cut = AnimatedImage.damagedCut; break }
                    throw ImageDecodingError.corrupt(text(message))
                }
                var changedX: Int32 = 0, changedY: Int32 = 0, changedWidth: Int32 = 0, changedHeight: Int32 = 0
                ifc_animation_changed(handle, &changedX, &changedY, &changedWidth, &changedHeight)
                var changed = (x: Int(changedX), y: Int(changedY), width: Int(changedWidth), height: Int(changedHeight))
                // What this frame costs: the canvas it changed and the frame made of it (the first frame is always read).
                let cost = changed.width * changed.height + target.width * target.height
                if !frames.isEmpty, worked + cost > limits.work {
                    cut = "the first \(frames.count) of its frames (the rest would take too long to read)"
                    break
                }
                worked += cost
                var delay = Double(delayMilliseconds) / 1000
                if delay < AnimationLimits.shortestDelay { delay = AnimationLimits.fallbackDelay }
                let frameBytes = target.width * target.height * 3
                if held + frameBytes > limits.bytes {
                    // Halve what is kept, and read the rest at that size, while the frames stay big enough to see.
                    let half = (width: max(1, target.width / 2), height: max(1, target.height / 2))
                    if max(half.width, half.height) >= limits.smallestSide {
                        frames = frames.map { AnimatedImage.Frame(image: AreaResampler.resize($0.image, width: half.width, height: half.height),
                                                                  delay: $0.delay) }
                        target = half
                        held = frames.reduce(0) { $0 + $1.image.pixels.count }
                        // A new size: the next frame is made whole from the canvas.
                        resampler = CanvasResampler(canvasWidth: canvasWidth, canvasHeight: canvasHeight, width: half.width, height: half.height)
                        changed = (0, 0, canvasWidth, canvasHeight)
                    }
                    if held + target.width * target.height * 3 > limits.bytes {
                        cut = "the first \(frames.count) of its frames (the rest would pass the memory it may take)"
                        break
                    }
                }
                guard let image = resampler.frame(canvas: canvas, changed: changed, stopped: stopped) else { throw CancellationError() }
                let frame = AnimatedImage.Frame(image: image, delay: delay)
                frames.append(frame)
                try each?(frame, frames.count - 1)
                held += image.pixels.count
                total += delay
                if total >= limits.duration {
                    cut = "its first \(Int(limits.duration)) seconds"
                    break
                }
            }
            guard !frames.isEmpty else { throw ImageDecodingError.corrupt("the animation holds no frame") }
            // A GIF says how it loops in a block between its frames: read now.
            ifc_animation_info(handle, &width, &height, &declared, &loops)
            return AnimatedImage(frames: frames, loops: Int(loops), width: canvasWidth, height: canvasHeight, format: format, cut: cut)
        }
    }

    /// `width` x `height` shrunk (never enlarged) to fit in `box`, keeping its shape.
    static func fitted(width: Int, height: Int, in box: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        guard let box, box.width > 0, box.height > 0, width > box.width || height > box.height else { return (width, height) }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    private static func text(_ message: [CChar]) -> String {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "unknown error" : text
    }
}
