// Shared by the layer and the dynamics tables (KineticLayers, KineticDynamics), so it lives here.

/// The values a property takes, as the scene file writes them. The animatable ones map
/// to `AnimatableValue.Kind`; the rest are read by the loader alone (choices, lists of
/// layers, filters…) and described here for the docs and the JSON schema.
public enum PropertyKind: Sendable, Equatable {
    case number
    /// Radians, or degrees written `"45deg"`.
    case angle
    /// A whole number.
    case integer
    case point, size, rect
    /// `[w, h]` or `[x, y, w, h]` (`bounds`).
    case sizeOrRect
    case color, colors, numbers, transform, path, bool
    /// An image asset (a PNG beside the scene).
    case image
    case string
    /// One of these names.
    case choice([String])
    /// A list of these names (`maskedCorners`).
    case names([String])
    /// `[{gaussianBlur: RADIUS}]`.
    case filters
    /// An inline layer (`mask`), a list of layers (`sublayers`).
    case layer, layers
    /// `{NAME: number}` (`properties`).
    case numberMap
    /// A list of emitter cells; a cell's contents (an image or `{path, size, fillColor}`).
    case cells, cellContents
    /// An animation's value of the animated key path's kind; a list of them.
    case value, values
    /// A timing function (a name or a cubic Bézier); a list of them.
    case timingFunction, timingFunctions
    /// A number of times, or `forever`.
    case countOrForever
    /// A mapping the schema describes under this name (`spring`); a list of them.
    case mapping(String), mappings(String)
    /// A mapping from layer ids to mappings described under this name (`dynamics.items`).
    case mappingsByLayerID(String)
    /// A layer id (a dynamic item); a list of them.
    case layerID, layerIDs
    /// `[a, b, …]` of exactly this many numbers (`insets`, `attachmentRange`).
    case fixedNumbers(Int)
    /// A path, or `"@ID"` for that shape layer's path (a collision boundary).
    case pathOrShapeLayer
    /// One of these whole numbers (the format version).
    case integerChoice([Int])
    /// A list of values of this kind (a polyline's points), each number within the range.
    indirect case list(PropertyKind)
    /// A value of any of these kinds (`background`: a color or a gradient), each number
    /// within the range.
    case anyOf([PropertyKind])
    /// `[a, b, …]` of between so many numbers (`translate`: 2 or 3).
    case numberList(ClosedRange<Int>)
    /// A share written as a percentage, `"5%"`.
    case percentage
    /// `{ID.KEYPATH: value}`: values by key path (an event's `set:`).
    case keyPathValues

    /// The kind of value animations and `set:` carry; nil for what only the loader reads.
    public var valueKind: AnimatableValue.Kind? {
        switch self {
        case .number, .angle, .integer: .number
        case .point: .point
        case .size: .size
        case .rect, .sizeOrRect: .rect
        case .color: .color
        case .colors: .colors
        case .numbers: .numbers
        case .transform: .transform
        case .path: .path
        case .bool: .bool
        case .image: .image
        default: nil
        }
    }
}

