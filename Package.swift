// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ImageFeed",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "image-feed", targets: ["image-feed"]),
        .executable(name: "unsplash-sandbox", targets: ["unsplash-sandbox"]),
        .executable(name: "image-feed-bench", targets: ["image-feed-bench"]),
        .library(name: "ImageFeedCore", targets: ["ImageFeedCore"]),
        .library(name: "UnsplashAPI", targets: ["UnsplashAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // MARK: C libraries, wrapped as system-library shims with their Debian providers.
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/Shims/CNcursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            path: "Sources/Shims/CJPEG",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            path: "Sources/Shims/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            path: "Sources/Shims/CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // Sixel pictures: libsixel's palette quantiser and encoder (and its decoder, for the tests).
        .systemLibrary(
            name: "CSixel",
            path: "Sources/Shims/CSixel",
            pkgConfig: "libsixel",
            providers: [.apt(["libsixel-dev"])]
        ),
        // The formats beyond JPEG and PNG (a previewer is handed anything; Imgur albums hold GIFs): giflib, libwebp
        // with its demuxer (an animation's first frame) and libtiff; BMP is read in CImageCodec (stb_image, its usual
        // library, clashes with the copy of it inside libsixel).
        .systemLibrary(
            name: "CGIF",
            path: "Sources/Shims/CGIF",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            path: "Sources/Shims/CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // libtiff's header only: the library is loaded at the first TIFF (CImageCodec's tiff.c), not linked, so that a
        // start does not load it and the six libraries it brings.
        .systemLibrary(
            name: "CTIFF",
            path: "Sources/Shims/CTIFF",
            providers: [.apt(["libtiff-dev"])]
        ),
        // FFmpeg's libavformat, libavcodec and libswscale: video items (Imgur's gifv and mp4), the first video
        // stream a frame at a time. Their headers only: the libraries are loaded when the first video is opened
        // (CImageCodec's ffmpeg.c), not linked, so that a start (and the previewer's `render`) does not load the
        // hundred libraries they bring.
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/Shims/CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // zlib, for the Kitty graphics protocol's compressed pixels and the photos a long list keeps packed.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/Shims/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libcurl, for HTTP: the transfer reads the socket only as fast as the body is taken. Its header only: the
        // library is loaded at the first request (CHTTPTransfer), not linked.
        .systemLibrary(
            name: "CCurl",
            path: "Sources/Shims/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // One request through libcurl with its body limit, deadlines and cancellation on the transferring thread.
        .target(name: "CHTTPTransfer", dependencies: ["CCurl"], path: "Sources/Shims/CHTTPTransfer"),
        // glibc's malloc tuning (arenas, giving free memory back), for a long-running full-screen session.
        .target(name: "CMemory", path: "Sources/Shims/CMemory"),
        // libFuzzer's driver entry, declared for the fuzzing build of image-feed-fuzz.
        .target(name: "CFuzzDriver", path: "Sources/Shims/CFuzzDriver"),
        // libjpeg reports errors by longjmp; this small C target keeps that inside C.
        .target(
            name: "CImageCodec",
            dependencies: ["CJPEG", "CPNG", "CGIF", "CWebP", "CTIFF", "CFFmpeg"],
            path: "Sources/Shims/CImageCodec",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("gif"), .linkedLibrary("webp"),
                             .linkedLibrary("webpdemux")]
        ),

        // zlib's one-call compression in Swift, for Kitty's pixels and a long list's packed photos.
        .target(name: "Deflate", dependencies: ["CZlib"]),

        // MARK: The domain: models, ports, view models. Foundation, and Deflate for the photos a long list keeps packed.
        .target(name: "ImageFeedCore", dependencies: ["Deflate"]),

        // MARK: Adapters.
        // The HTTP port (request, response, client) and its libcurl adapter, shared by the photo sources.
        .target(name: "HTTPTransport", dependencies: ["ImageFeedCore", "CHTTPTransfer"]),
        .target(name: "UnsplashAPI", dependencies: ["ImageFeedCore", "HTTPTransport"]),
        .target(name: "ImgurAPI", dependencies: ["ImageFeedCore", "HTTPTransport"]),
        .target(name: "TerminalImage", dependencies: ["CImageCodec", "CQRencode", "CSixel", "Deflate"]),
        .target(
            name: "LocalStore",
            dependencies: ["ImageFeedCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "TerminalUI", dependencies: ["ImageFeedCore", "TerminalImage", "CNcursesw", "CMemory"]),
        .target(
            name: "UnsplashSandbox",
            dependencies: [
                "TerminalImage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "ImageFeedApp",
            dependencies: [
                "ImageFeedCore",
                "HTTPTransport",
                "UnsplashAPI",
                "ImgurAPI",
                "UnsplashSandbox",
                "TerminalImage",
                "TerminalUI",
                "LocalStore",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The parsers of outside input as fuzz targets (scripts/fuzz.sh; replayed by the tests).
        .target(
            name: "FuzzTargets",
            dependencies: ["ImageFeedApp", "ImageFeedCore", "UnsplashAPI", "ImgurAPI", "TerminalImage", "TerminalUI", "LocalStore"]
        ),

        // MARK: Executables.
        .executableTarget(
            name: "image-feed",
            dependencies: [
                "ImageFeedApp",
                "ImageFeedCore",
                "TerminalImage",
                "TerminalUI",
                "UnsplashAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // A release build is the program as installed: the Swift runtime and Foundation linked in (a previewer's
            // `render` starts in half the time, and the libraries' pages resident are some 6 MB fewer). Compiled with the
            // option too, the program's module imports Foundation's static modules, whose link names bring in their
            // own libraries (_FoundationICU, _FoundationCollections, CoreFoundation). Debug builds and the tests keep
            // the shared runtime. lld packs the relative relocations (DT_RELR, glibc 2.36) and nothing is exported:
            // nothing looks the program's symbols up.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"]),
                .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
            ]
        ),
        .executableTarget(
            name: "image-feed-bench",
            dependencies: [
                "ImageFeedApp",
                "HTTPTransport",
                "UnsplashAPI",
                "LocalStore",
                "ImageFeedCore",
                "TerminalImage",
                "TerminalUI",
                "UnsplashSandbox",
                "CMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "image-feed-fuzz", dependencies: ["FuzzTargets", "CFuzzDriver"]),
        .executableTarget(
            name: "unsplash-sandbox",
            dependencies: [
                "UnsplashSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests.
        // What several test targets need: temporary folders, a stub HTTP transport, GIF and WebP files written here.
        .target(name: "TestSupport", dependencies: ["HTTPTransport", "ImageFeedCore"], path: "Tests/TestSupport"),
        .testTarget(name: "ImageFeedCoreTests", dependencies: ["ImageFeedCore", "TestSupport"]),
        .testTarget(name: "UnsplashAPITests", dependencies: ["UnsplashAPI", "UnsplashSandbox", "TerminalImage", "TestSupport"]),
        .testTarget(name: "TerminalImageTests", dependencies: ["TerminalImage", "CNcursesw", "TestSupport"],
                    // Pictures in every format read, with ImageMagick's decoding of each: read from the source tree.
                    exclude: ["Formats"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "ImageFeedCore", "TerminalImage", "TestSupport"],
                    // The golden frames are read from the source tree, not bundled.
                    exclude: ["Golden"]),
        .testTarget(name: "ImageFeedAppTests", dependencies: ["ImageFeedApp", "ImageFeedCore", "LocalStore", "UnsplashAPI", "UnsplashSandbox",
                                                            "TerminalImage", "TerminalUI", "HTTPTransport", "TestSupport"]),
        .testTarget(name: "ImgurAPITests", dependencies: ["ImgurAPI", "HTTPTransport", "ImageFeedCore", "UnsplashSandbox", "TerminalImage",
                                                        "TestSupport"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"], exclude: ["input.dict"], resources: [.copy("Inputs")]),
        .testTarget(name: "LocalStoreTests", dependencies: ["LocalStore", "ImageFeedCore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ]
)
