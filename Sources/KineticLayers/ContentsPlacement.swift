import KineticGeometry

extension ContentsGravity {
    /// Where this gravity puts contents of `imageSize` (points: an image's pixels over its
    /// contentsScale) in `bounds`: the one placement the renderer draws and the Lottie
    /// export maps.
    ///
    /// As on iOS, the vertical names refer to Core Animation's unflipped axis (y up): a
    /// standalone layer's `contentsAreFlipped()` is false, so `top` puts the image against
    /// the bottom edge on screen and `bottom` against the top — the documented iOS behaviour
    /// scenes ported from iOS rely on.
    public func rect(forContentsOf imageSize: Size, in bounds: Rect) -> Rect {
        let (w, h) = (imageSize.width, imageSize.height)
        let (bw, bh) = (bounds.width, bounds.height)
        func place(_ size: Size, _ ux: Double, _ uy: Double) -> Rect {
            Rect(bounds.minX + (bw - size.width) * ux, bounds.minY + (bh - size.height) * uy,
                 size.width, size.height)
        }
        switch self {
        case .resize: return Rect(bounds.minX, bounds.minY, bw, bh)
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return Rect(bounds.minX, bounds.minY, 0, 0) }
            let s = self == .resizeAspect ? min(bw / w, bh / h) : max(bw / w, bh / h)
            return place(Size(w * s, h * s), 0.5, 0.5)
        case .center: return place(imageSize, 0.5, 0.5)
        case .top: return place(imageSize, 0.5, 1)
        case .bottom: return place(imageSize, 0.5, 0)
        case .left: return place(imageSize, 0, 0.5)
        case .right: return place(imageSize, 1, 0.5)
        case .topLeft: return place(imageSize, 0, 1)
        case .topRight: return place(imageSize, 1, 1)
        case .bottomLeft: return place(imageSize, 0, 0)
        case .bottomRight: return place(imageSize, 1, 0)
        }
    }
}
