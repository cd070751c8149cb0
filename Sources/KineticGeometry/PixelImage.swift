/// A frame's pixels as Cairo's ARGB32 stores them: premultiplied alpha, one
/// native-endian 32-bit word per pixel (bytes B, G, R, A on little-endian machines),
/// rows `stride` bytes apart. The hand-off between the rasterizer and the encoders.
public struct PixelImage: Sendable {
    public var width: Int
    public var height: Int
    public var stride: Int
    public var bytes: [UInt8]

    public init(width: Int, height: Int, stride: Int, bytes: [UInt8]) {
        precondition(stride >= width * 4 && bytes.count >= stride * height)
        self.width = width; self.height = height; self.stride = stride; self.bytes = bytes
    }

    /// A fully transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, stride: width * 4,
                  bytes: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The pixel at (x, y) un-premultiplied to straight RGBA bytes.
    public func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = y * stride + x * 4
        let b = bytes[i], g = bytes[i + 1], r = bytes[i + 2], a = bytes[i + 3]
        guard a != 0 else { return (0, 0, 0, 0) }
        if a == 255 { return (r, g, b, a) }
        func un(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a))) }
        return (un(r), un(g), un(b), a)
    }
}
