// GIFLZW against giflib's compressor on the images of real GIFs, by hand (not a test, not
// a target; no timing belongs in the tests). Each image is decoded with giflib, then
// encoded again both ways — EGifPutImageDesc + EGifPutLine, and EGifPutImageDesc +
// GIFLZW + EGifPutCode — the GIFs checked identical, best of REPS (3) timed:
//
//   swiftc -O -parse-as-library -I Sources/CGif Tests/bench/gif-lzw.swift \
//       Sources/KineticEncode/GIFLZW.swift -o /tmp/gif-lzw
//   /tmp/gif-lzw out/*.gif     # e.g. after `kinetic batch scenes -o out --jobs 1`
import CGif
import Foundation

struct Raster { var indices: [UInt8]; var width: Int32; var height: Int32; var bits: Int; var local: [GifColorType]? }

func load(_ path: String) -> (rasters: [Raster], global: [GifColorType]?, w: Int32, h: Int32) {
    var error: Int32 = 0
    guard let gif = DGifOpenFileName(path, &error) else { fatalError("cannot open \(path): giflib error \(error)") }
    precondition(DGifSlurp(gif) == GIF_OK)
    var out: [Raster] = []
    func colors(_ m: UnsafeMutablePointer<ColorMapObject>?) -> [GifColorType]? {
        m.map { Array(UnsafeBufferPointer(start: $0.pointee.Colors, count: Int($0.pointee.ColorCount))) }
    }
    for i in 0..<Int(gif.pointee.ImageCount) {
        let image = gif.pointee.SavedImages[i]
        let d = image.ImageDesc
        guard let map = d.ColorMap ?? gif.pointee.SColorMap else { fatalError("\(path): image without colour table") }
        out.append(Raster(indices: Array(UnsafeBufferPointer(start: image.RasterBits, count: Int(d.Width * d.Height))),
                          width: d.Width, height: d.Height, bits: Int(map.pointee.BitsPerPixel), local: colors(d.ColorMap)))
    }
    let g = colors(gif.pointee.SColorMap)
    let w = gif.pointee.SWidth, h = gif.pointee.SHeight
    DGifCloseFile(gif, &error)
    return (out, g, w, h)
}

final class Sink { var bytes: [UInt8] = []; init() { bytes.reserveCapacity(1 << 26) } }

func encode(_ file: (rasters: [Raster], global: [GifColorType]?, w: Int32, h: Int32), ours: Bool, lzw: inout GIFLZW) -> [UInt8] {
    let sink = Sink()
    var error: Int32 = 0
    let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, bytes, length in
        guard let gif, let bytes, let user = gif.pointee.UserData else { return 0 }
        let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
        return length
    }, &error)!
    let gmap = file.global.map { GifMakeMapObject(Int32($0.count), $0) }
    precondition(EGifPutScreenDesc(gif, file.w, file.h, 8, 0, gmap ?? nil) == GIF_OK)
    for var r in file.rasters {
        let lmap = r.local.map { GifMakeMapObject(Int32($0.count), $0) }
        precondition(EGifPutImageDesc(gif, 0, 0, r.width, r.height, false, lmap ?? nil) == GIF_OK)
        if ours {
            let blocks = lzw.encode(r.indices, bitsPerPixel: r.bits)
            blocks.withUnsafeBufferPointer { b in
                var o = 0
                while o < b.count { precondition(EGifPutCodeNext(gif, b.baseAddress! + o) == GIF_OK); o += Int(b[o]) + 1 }
            }
            precondition(EGifPutCodeNext(gif, nil) == GIF_OK)
        } else {
            r.indices.withUnsafeMutableBufferPointer { p in precondition(EGifPutLine(gif, p.baseAddress, Int32(p.count)) == GIF_OK) }
        }
        if let lmap { GifFreeMapObject(lmap) }
    }
    EGifCloseFile(gif, &error)
    if let gmap { GifFreeMapObject(gmap) }
    return sink.bytes
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

@main
enum GIFLZWBench {
    static func main() {
        let paths = Array(CommandLine.arguments.dropFirst())
        let reps = Int(ProcessInfo.processInfo.environment["REPS"] ?? "") ?? 3
        var totalPixels = 0
        var best = (giflib: 0.0, ours: 0.0, lzwOnly: 0.0)
        var lzw = GIFLZW()
        for path in paths {
            let file = load(path)
            let pixels = file.rasters.reduce(0) { $0 + $1.indices.count }
            totalPixels += pixels
            precondition(encode(file, ours: true, lzw: &lzw) == encode(file, ours: false, lzw: &lzw), "bytes differ: \(path)")
            var g = Double.infinity, o = Double.infinity, l = Double.infinity
            for _ in 0..<reps {
                var t = now(); _ = encode(file, ours: false, lzw: &lzw); g = min(g, Double(now() - t))
                t = now(); _ = encode(file, ours: true, lzw: &lzw); o = min(o, Double(now() - t))
                t = now(); for r in file.rasters { _ = lzw.encode(r.indices, bitsPerPixel: r.bits) }; l = min(l, Double(now() - t))
            }
            best.giflib += g; best.ours += o; best.lzwOnly += l
            if paths.count <= 12 {
                print(String(format: "%@: %d images, %.1f Mpx: giflib %.2f ns/px, ours %.2f ns/px (GIFLZW alone %.2f)",
                             (path as NSString).lastPathComponent, file.rasters.count, Double(pixels) / 1e6,
                             g / Double(pixels), o / Double(pixels), l / Double(pixels)))
            }
        }
        print(String(format: "all %d GIFs, %.1f Mpx: giflib %.2f ns/px (%.2f s), ours %.2f ns/px (%.2f s), GIFLZW alone %.2f ns/px; bytes identical",
                     paths.count, Double(totalPixels) / 1e6, best.giflib / Double(totalPixels), best.giflib / 1e9,
                     best.ours / Double(totalPixels), best.ours / 1e9, best.lzwOnly / Double(totalPixels)))
    }
}
