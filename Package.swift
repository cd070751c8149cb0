// swift-tools-version:6.0
// Kinetic: UIKit Dynamics and Core Animation scenes rendered off the iPhone.
//
// Targets follow the pipeline, dependencies pointing one way:
//   KineticGeometry ← KineticAnimation / KineticLayers / KineticDynamics / KineticExpressions
//   ← KineticScene (reading SVG files through KineticXML)
//   ← KineticRender / KineticEncode / KineticLottie ← Kinetic (the library) ← KineticCLI ← kinetic
//   Kinetic ← KineticSnapshotTesting (strategies for swift-snapshot-testing)
// KineticPreview (the web server of `kinetic preview`) knows no scene: KineticCLI hands it one.
// C libraries are reached only through their system-library targets (C*),
// each wrapped by exactly one Swift file set in the stage that owns it (Cairo, which
// both the renderer and the encoders use, in its own KineticCairo; libxml2, which reads
// SVG files, in its own KineticXML beside the files and geometry it serves; librsvg, which draws SVG contents, in the renderer). CResample,
// CPNG (PNG files deflated by libdeflate) and CComposite are our own C: the projected-layer pixel loop, called only by
// ProjectiveResampler.swift, and a tint through an alpha image (a cached shadow), called
// only by KineticCairo.
import PackageDescription

let package = Package(
    name: "Kinetic",
    products: [
        .executable(name: "kinetic", targets: ["KineticTool"]),
        // The library: scenes loaded or built in Swift, their frames and states.
        .library(name: "Kinetic", targets: ["Kinetic"]),
        // Animation snapshot strategies for swift-snapshot-testing.
        .library(name: "KineticSnapshotTesting", targets: ["KineticSnapshotTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // System libraries (installed by `make deps`).
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(name: "CChipmunk", providers: [.apt(["libchipmunk-dev"])]),
        // Headers only (the default include path has them): FFmpeg is loaded with dlopen when
        // a video is written (Sources/CFFmpeg/shim.h), so pkg-config's -lavformat stays out.
        .systemLibrary(name: "CFFmpeg",
                       providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswscale-dev", "libavutil-dev"])]),
        // Headers only, as FFmpeg: libwebp is loaded with dlopen when a WebP is written (Sources/CWebP/shim.h).
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        // SVG: libxml2 reads the geometry `path: {svg: FILE}` imports (the loader), librsvg
        // draws `contents: FILE.svg` (the renderer), loaded with dlopen (Sources/CRsvg/shim.h):
        // GIO's flags only, whose libraries Pango loads anyway.
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CRsvg", pkgConfig: "gio-2.0", providers: [.apt(["librsvg2-dev"])]),
        // libzip: the dotLottie archive (`-o NAME.lottie`), written by DotLottieArchive.swift only;
        // headers only, loaded with dlopen when an archive is written (Sources/CZip/shim.h).
        .systemLibrary(name: "CZip", providers: [.apt(["libzip-dev"])]),

        // Stage 0: the one guarded way files are read (regular files, bounded sizes, kept
        // inside a root, PNG chunks walked before decoding).
        .target(name: "KineticFiles"),
        // Stage 1: plain geometry and values.
        .target(name: "KineticGeometry"),
        // Stage 2: what moves — timing and interpolation; the layer model.
        .target(name: "KineticAnimation", dependencies: ["KineticGeometry"]),
        .target(name: "KineticLayers", dependencies: ["KineticGeometry"]),
        .target(name: "KineticDynamics", dependencies: ["KineticGeometry", "CChipmunk"]),
        .target(name: "KineticExpressions", dependencies: ["KineticGeometry"]),
        // The libxml2 wrapper and the SVG files read through it (as KineticCairo wraps Cairo).
        .target(name: "KineticXML", dependencies: ["KineticFiles", "KineticGeometry", "CXML2"]),
        // Stage 3: scene files → validated model → presentation trees per frame.
        .target(name: "KineticScene", dependencies: [
            "KineticFiles", "KineticGeometry", "KineticAnimation", "KineticLayers", "KineticDynamics", "KineticExpressions",
            "KineticXML",
            .product(name: "Yams", package: "Yams"),
        ]),
        // Stage 4: pixels and files.
        .target(name: "CResample"),
        .target(name: "CComposite"),
        // PNG files: scanlines filtered and chunks written in C, deflated by libdeflate
        // (PNG.swift, the only caller).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("deflate")]),
        .target(name: "KineticCairo", dependencies: ["KineticGeometry", "CCairo", "CComposite"]),
        .target(name: "KineticRender", dependencies: ["KineticFiles", "KineticGeometry", "KineticLayers", "KineticCairo",
                                                      "CResample", "CPango", "CRsvg"]),
        // Lottie export: presentation trees → keyframes; pixels only for SVG contents, which
        // the renderer rasterizes into image assets (Lottie embeds raster images only); libzip
        // packs the JSON into a dotLottie archive.
        .target(name: "KineticLottie", dependencies: ["KineticFiles", "KineticGeometry", "KineticLayers", "KineticCairo", "KineticRender",
                                                      "CZip"]),
        .target(name: "KineticEncode", dependencies: ["KineticFiles", "KineticGeometry", "KineticCairo", "CPNG", "CGif", "CImageQuant", "CFFmpeg", "CWebP"]),
        // Stage 5: the live preview's web server (`kinetic preview`), then the command line.
        .target(name: "KineticPreview", dependencies: [
            "KineticFiles",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // Stage 5: the library users import (a facade over the stages; the inspect model, the
        // render pipeline every output is written by, and the commands' engines: golden
        // checking, frame sequences, the preview's frames, at package access).
        .target(name: "Kinetic", dependencies: [
            "KineticFiles", "KineticGeometry", "KineticLayers", "KineticScene", "KineticRender", "KineticEncode", "KineticCairo",
            "KineticLottie",
            .product(name: "Yams", package: "Yams"),
        ]),
        // Its snapshot strategies; only the SnapshotTesting target of that package is built.
        .target(name: "KineticSnapshotTesting", dependencies: [
            "Kinetic", .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ]),
        // The command: argument parsing and printing over the library (and the preview's
        // server, which knows no scene); every stage below is reached through Kinetic.
        .target(name: "KineticCLI", dependencies: [
            "Kinetic", "KineticPreview",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Named apart from the library: Sources/kinetic and Sources/Kinetic are one folder on macOS.
        .executableTarget(name: "KineticTool", dependencies: ["KineticCLI"]),

        // Each test target declares every module it imports (SwiftPM rebuilds a target only
        // when a declared dependency changes).
        .testTarget(name: "KineticFilesTests", dependencies: ["KineticFiles"]),
        .testTarget(name: "KineticGeometryTests", dependencies: ["KineticGeometry"]),
        .testTarget(name: "KineticAnimationTests", dependencies: ["KineticGeometry", "KineticAnimation"]),
        .testTarget(name: "KineticLayersTests", dependencies: ["KineticGeometry", "KineticLayers"]),
        .testTarget(name: "KineticDynamicsTests", dependencies: ["KineticGeometry", "KineticDynamics"]),
        .testTarget(name: "KineticExpressionsTests", dependencies: ["KineticGeometry", "KineticExpressions"]),
        .testTarget(name: "KineticSceneTests", dependencies: ["KineticDynamics", "KineticGeometry", "KineticLayers", "KineticScene"]),
        .testTarget(name: "KineticRenderTests", dependencies: [
            "KineticGeometry", "KineticLayers", "KineticRender", "KineticScene", "KineticCairo", "CComposite",
        ]),
        .testTarget(name: "KineticEncodeTests", dependencies: ["CGif", "KineticCairo", "KineticFiles", "KineticGeometry", "KineticEncode"]),
        // Reads archives back with libzip itself, linked (the package loads it with dlopen).
        .testTarget(name: "KineticLottieTests", dependencies: ["CZip", "KineticCairo", "KineticGeometry", "KineticLayers", "KineticLottie"],
                    linkerSettings: [.linkedLibrary("zip")]),
        .testTarget(name: "KineticCLITests", dependencies: [
            "KineticEncode", "KineticGeometry", "KineticLayers", "KineticRender", "KineticScene", "KineticCLI", "Kinetic",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "KineticTests", dependencies: ["Kinetic", "KineticEncode", "KineticLayers"]),
        .testTarget(name: "KineticSnapshotTestingTests", dependencies: ["Kinetic", 
            "KineticSnapshotTesting", .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ], exclude: ["__Snapshots__"]),
        .testTarget(name: "KineticPreviewTests", dependencies: ["KineticPreview"]),
    ],
    swiftLanguageModes: [.v6]
)
