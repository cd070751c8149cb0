/// CAEdgeAntialiasingMask: which edges of a layer's own drawing are antialiased when
/// `allowsEdgeAntialiasing` is true. Edges are named in Core Animation's layer
/// coordinates, as its raw values are: Bottom is the edge at minY (in UIKit's y-down
/// points, the top of the layer on screen, as CACornerMask's MinY corners are).
public struct EdgeAntialiasingMask: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    // Apple's raw values (kCALayerLeftEdge = 1 << 0, …).
    public static let layerLeftEdge = EdgeAntialiasingMask(rawValue: 1 << 0)
    public static let layerRightEdge = EdgeAntialiasingMask(rawValue: 1 << 1)
    public static let layerBottomEdge = EdgeAntialiasingMask(rawValue: 1 << 2)
    public static let layerTopEdge = EdgeAntialiasingMask(rawValue: 1 << 3)
    public static let all: EdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]

    /// Apple's names, as a scene lists them.
    public static let names: [(String, EdgeAntialiasingMask)] = [
        ("layerLeftEdge", .layerLeftEdge), ("layerRightEdge", .layerRightEdge),
        ("layerBottomEdge", .layerBottomEdge), ("layerTopEdge", .layerTopEdge),
    ]
}
