import Foundation
import KineticGeometry

/// A vector given either as UIKit's `…Direction` (its length is the magnitude) or as
/// `angle` (radians from +x, clockwise on screen) and `magnitude`; both views stay in sync.
public protocol DirectedBehavior {
    var direction: Point { get set }
    /// The angle last set or last seen on a non-zero direction: UIKit keeps `angle` and
    /// `magnitude` apart, so an angle set while the magnitude is 0 is not lost.
    var heading: Double { get set }
}

extension DirectedBehavior {
    /// The direction's angle in radians (0 = +x, π/2 = down the screen).
    public var angle: Double {
        get { direction == .zero ? heading : atan2(direction.y, direction.x) }
        set {
            heading = newValue
            direction = Point(cos(newValue), sin(newValue)) * magnitude
        }
    }

    /// The direction's length.
    public var magnitude: Double {
        get { direction.length }
        set { direction = Point(cos(angle), sin(angle)) * newValue }
    }
}
