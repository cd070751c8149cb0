import Foundation
import KineticGeometry

/// UISnapBehavior: pulls an item to `snapPoint` and turns it back to rotation 0.
///
/// Modelled as UIKit builds it (its `_associate` as disassembled): four soft distance
/// joints of `springLength` points, `frequency` Hz and damping ratio `damping`, from
/// the item's top-left and bottom-right corners to fixed points beside a copy of the
/// item at the snap point. The joints pull unevenly while the item travels, so it tilts
/// and wobbles back to 0 (an item behavior's `allowsRotation: false` turns that off).
public struct SnapBehavior: Hashable, Sendable, TabledBehavior {
    /// Each joint's frequency, in Hz (UIKit's `_frequency`, 4).
    public static let frequency = 4.0
    /// Each joint's length, in points (UIKit's `_distance`, 50).
    public static let springLength = 50.0

    public var item: String
    public var snapPoint: Point
    /// 0…1, default 0.5; 0 = the most oscillation. Each joint's damping ratio.
    public var damping: Double

    public init(item: String, snapPoint: Point, damping: Double = 0.5) {
        self.item = item
        self.snapPoint = snapPoint
        self.damping = damping
    }
}

extension SnapBehavior {
    /// The keys of `- snap: {…}`, each once: the loader reads, `setting(_:to:)` sets and
    /// `validate()` checks by these.
    public static let properties: [DynamicsProperty<SnapBehavior>] = [
        .item(\.item, doc: "The snapped item."),
        .point("snapPoint", "UISnapBehavior.snapPoint", \.snapPoint, range: DynamicsLimits.coordinate, required: true,
               doc: "Where it snaps to."),
        .number("damping", "UISnapBehavior.damping", \.damping, range: DynamicsLimits.fraction, default: 0.5,
                doc: "0 = most oscillation … 1."),
    ]
}
