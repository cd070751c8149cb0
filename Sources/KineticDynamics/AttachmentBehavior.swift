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

    /// UIAttachmentBehavior's types, the iOS 9 forms included, in the docs' order.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `length` apart: a rigid rod when `frequency` is 0, else a spring.
        case distance
        /// Slides along `axisOfTranslation` through the anchor within `attachmentRange`,
        /// without turning (`slidingAttachment`).
        case sliding
        /// Both ends held at one point and relative rotation locked (`fixedAttachment`).
        case fixed
        /// Both ends held at one point; rotation free (`pinAttachment`), resisted by `frictionTorque`.
        case pin
        /// At most `length` apart, like a rope (`limitAttachment`).
        case limit
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
    /// The axis a `.sliding` attachment's item slides along (other kinds ignore it).
    public var axisOfTranslation: Point

    public init(kind: Kind = .distance, item: String, offsetFromCenter: Point = .zero, attachedTo: Attached,
                length: Double? = nil, frequency: Double = 0, damping: Double = 0,
                frictionTorque: Double = 0, attachmentRange: ClosedRange<Double>? = nil,
                axisOfTranslation: Point = .zero) {
        self.kind = kind
        self.item = item
        self.offsetFromCenter = offsetFromCenter
        self.attachedTo = attachedTo
        self.length = length
        self.frequency = frequency
        self.damping = damping
        self.frictionTorque = frictionTorque
        self.attachmentRange = attachmentRange
        self.axisOfTranslation = axisOfTranslation
    }

    /// The anchor point of an item–anchor attachment (nil for item–item); setting it on
    /// an item–item attachment does nothing.
    public var anchorPoint: Point? {
        get { if case .anchor(let p) = attachedTo { return p } else { return nil } }
        set { if let newValue, case .anchor = attachedTo { attachedTo = .anchor(newValue) } }
    }
}

extension AttachmentBehavior {
    /// The keys of `- attachment: {…}`, each once: the loader reads, `setting(_:to:)`
    /// sets and `validate()` checks by these. The ends (`item`, `attachedTo`, the anchor's
    /// three spellings, the other item's offset, the range) are read by the decoder, which
    /// measures the iOS 9 forms' offsets from the anchor.
    public static let properties: [DynamicsProperty<AttachmentBehavior>] = {
        typealias L = DynamicsLimits
        return [
            .option("kind", "UIAttachmentBehavior.attachedBehaviorType", \.kind,
                    Kind.allCases.map { ($0.rawValue, $0) }, default: "distance",
                    doc: "The attachment form (iOS 9 kinds)."),
            .described("item", nil, .layerID, doc: "The attached item."),
            .described("attachedTo", nil, .layerID, doc: "The other item."),
            .point("offsetFromCenter", "UIAttachmentBehavior.init(item:offsetFromCenter:…)", \.offsetFromCenter,
                   range: L.coordinate, default: .zero, settable: false, writtenAs: ["offsetFromCenter", "attachmentAnchor"],
                   doc: "Attachment point on the item, from its center."),
            .described("attachedToAnchor", "UIAttachmentBehavior.init(item:attachedToAnchor:)", .point, range: L.coordinate,
                       doc: "A fixed anchor, instead of an item."),
            // Settable only on an item–anchor attachment; its two other spellings set it too.
            DynamicsProperty("anchorPoint", "UIAttachmentBehavior.anchorPoint", .point, range: L.coordinate, settable: true,
                             readByItsDecoder: true, writtenAs: ["attachedToAnchor", "anchorPoint", "attachmentAnchor"],
                             doc: "The anchor (animatable: a scripted pan).",
                             assign: DynamicsProperty.assigning(\AttachmentBehavior.anchorPoint) {
                                 $0.pointValue.map(Optional.some)
                             },
                             checked: { $0.anchorPoint.map { [$0.x, $0.y] } ?? [] },
                             refusal: { $0.anchorPoint == nil ? "an item–anchor attachment" : nil }),
            .described("attachmentAnchor", "UIAttachmentBehavior.slidingAttachment(with:…attachmentAnchor:…)", .point,
                       range: L.coordinate, doc: "The anchor of sliding, fixed, pin and limit attachments."),
            DynamicsProperty("attachedOffsetFromCenter", "UIAttachmentBehavior.init(…attachedTo:offsetFromCenter:)", .point,
                             range: L.coordinate, default: .numbers([0, 0]),
                             writtenAs: ["attachedOffsetFromCenter", "attachmentAnchor"],
                             doc: "Attachment point on the other item.",
                             checked: { a in
                                 guard case .item(_, let o) = a.attachedTo else { return [] }
                                 return [o.x, o.y]
                             }),
            .number("length", "UIAttachmentBehavior.length", \.length, range: L.length,
                    doc: "Rest length (default: the initial distance)."),
            .number("frequency", "UIAttachmentBehavior.frequency", \.frequency, range: L.spring, default: 0,
                    doc: "Spring frequency in Hz (0: a rigid rod)."),
            .number("damping", "UIAttachmentBehavior.damping", \.damping, range: L.spring, default: 0,
                    doc: "Damping ratio of the spring."),
            .number("frictionTorque", "UIAttachmentBehavior.frictionTorque", \.frictionTorque, range: L.material, default: 0,
                    doc: "Resistance to rotation about the attachment."),
            DynamicsProperty("attachmentRange", "UIAttachmentBehavior.attachmentRange", .fixedNumbers(2), range: L.coordinate,
                             doc: "[min, max] of a sliding or limit attachment.",
                             checked: { $0.attachmentRange.map { [$0.lowerBound, $0.upperBound] } ?? [] }),
            // Checked on every form, as the schema checks it, though only a sliding one uses it.
            .point("axisOfTranslation", "UIAttachmentBehavior.slidingAttachment(with:…axisOfTranslation:)",
                   \.axisOfTranslation, range: L.coordinate, settable: false,
                   doc: "The axis a sliding attachment allows."),
        ]
    }()

    /// Checks the values against `properties`, and what no one key says; the error's
    /// path is the key.
    func validate() throws(DynamicsError) {
        for p in Self.properties { try p.check(self) }
        if case .item(let other, _) = attachedTo, other == item {
            throw .invalidValue(path: "attachedTo", reason: "an item cannot be attached to itself")
        }
        if kind == .sliding, !(axisOfTranslation.length > 0) {
            throw .invalidValue(path: "axisOfTranslation", reason: "must not be [0, 0]")
        }
    }
}
