import Foundation
import KineticGeometry

/// UIAttachmentBehavior: ties an item to an anchor point or to another item.
public struct AttachmentBehavior: Hashable, Sendable {
    /// The other end.
    public enum Attached: Hashable, Sendable {
        /// A point in reference-bounds coordinates (`anchorPoint`).
        case anchor(Point)
        /// Another item, at an offset from its center in its own (rotating) coordinates.
        case item(String, offsetFromCenter: Point)
    }

    /// UIAttachmentBehavior's types, the iOS 9 forms included.
    public enum Kind: Hashable, Sendable {
        /// `length` apart: a rigid rod when `frequency` is 0, else a spring.
        case distance
        /// Both ends held at one point; rotation free (`pinAttachment`), resisted by `frictionTorque`.
        case pin
        /// Both ends held at one point and relative rotation locked (`fixedAttachment`).
        case fixed
        /// At most `length` apart, like a rope (`limitAttachment`).
        case limit
        /// Slides along `axisOfTranslation` through the anchor within `attachmentRange`,
        /// without turning (`slidingAttachment`).
        case sliding(axisOfTranslation: Point)
    }

    public var kind: Kind
    public var item: String
    /// The attach point on `item`, relative to its center, in its own coordinates.
    public var offsetFromCenter: Point
    public var attachedTo: Attached
    /// The distance kept (`.distance`) or allowed (`.limit`); nil = the distance when the
    /// behavior first becomes live.
    public var length: Double?
    /// Oscillation frequency in Hz; 0 = rigid.
    public var frequency: Double
    /// Damping ratio (1 = critical), used when `frequency` > 0.
    public var damping: Double
    /// The most torque the joint's friction resists relative rotation with, in UIKit
    /// mass units × pt²/s² (0 = turns freely); for pin, distance and limit attachments.
    public var frictionTorque: Double
    /// The travel allowed along a sliding attachment's axis, relative to the anchor.
    public var attachmentRange: ClosedRange<Double>?

    public init(kind: Kind = .distance, item: String, offsetFromCenter: Point = .zero, attachedTo: Attached,
                length: Double? = nil, frequency: Double = 0, damping: Double = 0,
                frictionTorque: Double = 0, attachmentRange: ClosedRange<Double>? = nil) {
        self.kind = kind
        self.item = item
        self.offsetFromCenter = offsetFromCenter
        self.attachedTo = attachedTo
        self.length = length
        self.frequency = frequency
        self.damping = damping
        self.frictionTorque = frictionTorque
        self.attachmentRange = attachmentRange
    }

    /// The anchor point of an item–anchor attachment (nil for item–item); setting it on
    /// an item–item attachment does nothing.
    public var anchorPoint: Point? {
        get { if case .anchor(let p) = attachedTo { return p } else { return nil } }
        set { if let newValue, case .anchor = attachedTo { attachedTo = .anchor(newValue) } }
    }
}

extension AttachmentBehavior {
    /// Checks the values against `DynamicsSchema` ("attachment"); the error's path is the key.
    func validate() throws(DynamicsError) {
        func check(_ values: Double..., key: String) throws(DynamicsError) {
            try DynamicsSchema.check(values, key, in: "attachment")
        }
        try check(offsetFromCenter.x, offsetFromCenter.y, key: "offsetFromCenter")
        switch attachedTo {
        case .anchor(let p): try check(p.x, p.y, key: "anchorPoint")
        case .item(let other, let o):
            try check(o.x, o.y, key: "attachedOffsetFromCenter")
            guard other != item else {
                throw .invalidValue(path: "attachedTo", reason: "an item cannot be attached to itself")
            }
        }
        if let length { try check(length, key: "length") }
        try check(frequency, key: "frequency")
        try check(damping, key: "damping")
        try check(frictionTorque, key: "frictionTorque")
        if let r = attachmentRange { try check(r.lowerBound, r.upperBound, key: "attachmentRange") }
        if case .sliding(let axis) = kind {
            try check(axis.x, axis.y, key: "axisOfTranslation")
            guard axis.length > 0 else {
                throw .invalidValue(path: "axisOfTranslation", reason: "must not be the zero vector")
            }
        }
    }
}
