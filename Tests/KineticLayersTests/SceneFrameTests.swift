import KineticGeometry
import Testing
@testable import KineticLayers

/// `SceneFrame.drawsLike`: two frames draw alike when everything a renderer reads is
/// equal, whatever their index and time; anything drawn that differs tells them apart.
@Suite struct SceneFrameTests {
    static func frame(index: Int = 0, time: Double = 0, opacity: Double = 1,
                      background: Background = .color(Color(red: 1, green: 1, blue: 1, alpha: 1))) -> SceneFrame {
        var layer = Layer(place: "layers[0]")
        layer.opacity = opacity
        return SceneFrame(index: index, time: time, size: Size(width: 10, height: 10), background: background, layers: [layer])
    }

    @Test func indexAndTimeAreNotDrawn() {
        #expect(Self.frame(index: 3, time: 0.06).drawsLike(Self.frame(index: 4, time: 0.08)))
    }

    @Test func aLayerOrTheBackgroundOrTheCanvasTellsFramesApart() {
        let a = Self.frame()
        #expect(!a.drawsLike(Self.frame(opacity: 0.5)))
        #expect(!a.drawsLike(Self.frame(background: .color(Color(red: 0, green: 0, blue: 0, alpha: 1)))))
        var wider = a
        wider.size = Size(width: 11, height: 10)
        #expect(!a.drawsLike(wider))
        var more = a
        more.layers.append(Layer(place: "layers[1]"))
        #expect(!a.drawsLike(more))
    }

    /// A frame that must not be drawn draws like nothing.
    @Test func aRefusedFrameDrawsLikeNoOther() {
        var refused = Self.frame()
        refused.refusal = "too many layers"
        #expect(!refused.drawsLike(Self.frame()))
        #expect(!Self.frame().drawsLike(refused))
    }
}
