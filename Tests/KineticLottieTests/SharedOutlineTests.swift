import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// Paints over one outline share its path in one Lottie group (styles stacked topmost
/// first, as the Lottie format stacks a group's styles and as rlottie draws them), and a
/// shadow's silhouette leaves out sublayer outlines that its own solid bounds cover.
struct SharedOutlineTests {
    private func export(_ layers: [Layer]) throws -> [LottieJSON] {
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.clear), layers: layers))
        guard case .array(let out)? = exporter.document()["layers"] else { return [] }
        return out.filter { $0["ty"] != 3 }
    }

    private func items(_ group: LottieJSON?) -> [LottieJSON] {
        if case .array(let items)? = group?["it"] { return items }
        return []
    }

    @Test func aFillAndItsStrokeShareOnePathWithTheStrokeOnTop() throws {
        var layer = Layer(id: "ring", place: "layers[0]", type: .shape)
        layer.bounds = Rect(0, 0, 40, 40)
        layer.position = Point(100, 100)
        var shape = ShapeStyle()
        shape.path = BezierPath.rect(Rect(0, 0, 40, 40))
        shape.fillColor = Color(red: 1, green: 0, blue: 0)
        shape.strokeColor = Color(red: 0, green: 0, blue: 1)
        shape.lineWidth = 4
        layer.shape = shape
        let layers = try export([layer])
        guard case .array(let groups)? = layers.first?["shapes"] else { Issue.record("no shapes"); return }
        // CAShapeLayer strokes over its fill: the stroke is listed first.
        #expect(groups.count == 1)
        #expect(items(groups.first).map { $0["ty"] } == ["sh", "st", "fl", "tr"])
    }

    @Test func aTrimmedStrokeKeepsAGroupOfItsOwn() throws {
        var layer = Layer(id: "arc", place: "layers[0]", type: .shape)
        layer.bounds = Rect(0, 0, 40, 40)
        layer.position = Point(100, 100)
        var shape = ShapeStyle()
        shape.path = BezierPath.rect(Rect(0, 0, 40, 40))
        shape.strokeColor = Color(red: 0, green: 0, blue: 1)
        shape.strokeEnd = 0.5
        layer.shape = shape
        let layers = try export([layer])
        guard case .array(let groups)? = layers.first?["shapes"] else { Issue.record("no shapes"); return }
        // A trim acts on every style after it in a group: the fill must not be trimmed.
        #expect(groups.count == 2)
        #expect(items(groups[0]).map { $0["ty"] } == ["sh", "tm", "st", "tr"])
        #expect(items(groups[1]).map { $0["ty"] } == ["sh", "fl", "tr"])
    }

    @Test func aShadowsBandsShareTheSilhouetteAndLeaveOutWhatTheCardCovers() throws {
        var card = Layer(id: "card", place: "layers[0]")
        card.bounds = Rect(0, 0, 100, 80)
        card.position = Point(100, 100)
        card.backgroundColor = .white
        card.cornerRadius = 10
        card.shadowOpacity = 0.5
        card.shadowRadius = 4
        func dot(_ frame: Rect, _ n: Int) -> Layer {
            var l = Layer(id: "dot\(n)", place: "layers[0].sublayers[\(n)]", type: .shape)
            l.bounds = Rect(0, 0, frame.width, frame.height)
            l.position = Point(frame.midX, frame.midY)
            var s = ShapeStyle()
            s.path = BezierPath.rect(Rect(0, 0, frame.width, frame.height))
            l.shape = s
            return l
        }
        // One square well inside the card, one across its rounded corner (outside the
        // radius-10 arc at (1, 1)), one hanging over its edge.
        card.sublayers = [dot(Rect(40, 30, 20, 20), 0), dot(Rect(1, 1, 10, 10), 1), dot(Rect(90, 30, 20, 10), 2)]
        let layers = try export([card])
        guard let shadow = layers.first(where: { $0["nm"] == "card/shadow" }),
              case .array(let groups)? = shadow["shapes"] else { Issue.record("no shadow layer"); return }
        #expect(groups.count == 1)
        let list = items(groups.first)
        // The card's rounded rectangle and the two squares that reach outside it.
        #expect(list.filter { $0["ty"] == "sh" }.count == 3)
        // σ = 4: six grown copies, round strokes, over one fill: the squares overlap the
        // card, so the silhouette is not shrunk and the copies' fills stack as one.
        #expect(list.filter { $0["ty"] == "fl" }.count == 1)
        #expect(list.filter { $0["ty"] == "st" }.count == 6)
        // Stacked widest at the bottom: the last listed stroke is the widest (3σ each side).
        let widths = list.filter { $0["ty"] == "st" }.map { $0["w"]?["k"] }
        #expect(widths.last == 24)
    }

    @Test func solidBoundsOfACircularCornerFollowItsArc() throws {
        let solid = try #require(SolidBounds(Rect(0, 0, 100, 100), corners: RoundedCorners(radius: 10)))
        // The arc of radius 10 about (10, 10) passes the diagonal at 10 − 10/√2 ≈ 2.93.
        #expect(solid.contains(Point(3, 3)))
        #expect(!solid.contains(Point(2.8, 2.8)))
        #expect(solid.contains(Point(0, 50)) && solid.contains(Point(50, 0)))
        #expect(!solid.contains(Point(-0.1, 50)))
        // A radius UIKit would clamp gives no region.
        #expect(SolidBounds(Rect(0, 0, 100, 15), corners: RoundedCorners(radius: 10)) == nil)
    }

    @Test func solidBoundsOfAContinuousCornerStayInsideItsOutline() throws {
        let rect = Rect(0, 0, 100, 60)
        let corners = RoundedCorners(radius: 12, curve: .continuous)
        let solid = try #require(SolidBounds(rect, corners: corners))
        // No point of the outline the renderer fills lies strictly inside the region.
        var from = Point.zero
        var outline: [Point] = []
        for element in corners.path(in: rect).elements {
            switch element {
            case .move(let p): from = p; outline.append(p)
            case .line(let p): outline.append(p); from = p
            case .curve(let p, let c1, let c2):
                for k in 1...16 {
                    let t = Double(k) / 16, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    outline.append(Point(a * from.x + b * c1.x + c * c2.x + d * p.x, a * from.y + b * c1.y + c * c2.y + d * p.y))
                }
                from = p
            case .quadCurve(let p, _): outline.append(p); from = p
            case .close: break
            }
        }
        #expect(outline.count > 20)
        for p in outline {
            let nearest = Point(min(max(p.x, solid.reach), 100 - solid.reach), min(max(p.y, solid.reach), 60 - solid.reach))
            #expect(p.distance(to: nearest) >= solid.radius - 1e-9, "outline point \(p) inside the solid region")
        }
        #expect(solid.contains(Point(50, 30)))
    }
}
