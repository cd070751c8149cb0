import KineticGeometry

/// A layer key an event's `set:` can change but no animation can (section 7 sets any
/// property; section 5 animates only some). Its new value is read, with the checks a
/// layer definition gets, into a layer of the target's type, and copied whole from there.
public enum LayerProperty: String, CaseIterable, Hashable, Sendable {
    case masksToBounds, shadowPath, contentsGravity, doubleSided, maskedCorners, cornerCurve
    case filters, backgroundFilters, compositingFilter
    // CAShapeLayer
    case fillRule, lineCap, lineJoin, lineDashPattern
    // CAGradientLayer
    case gradientType
    // CATextLayer
    case string, font, alignmentMode, isWrapped
    // CAEmitterLayer (birthRate, the geometry and the multipliers are animatable key paths)
    case emitterShape, emitterMode, renderMode

    /// The layer types the property applies to; nil for every type.
    public var layerTypes: Set<LayerType>? {
        switch self {
        case .masksToBounds, .shadowPath, .contentsGravity, .doubleSided, .maskedCorners, .cornerCurve,
             .filters, .backgroundFilters, .compositingFilter: nil
        case .fillRule, .lineCap, .lineJoin, .lineDashPattern: [.shape]
        case .gradientType: [.gradient]
        case .string, .font, .alignmentMode, .isWrapped: [.text]
        case .emitterShape, .emitterMode, .renderMode: [.emitter]
        }
    }

    /// Gives `target` the property's value in `source` (a layer of a type it applies to).
    public func copy(from source: Layer, to target: inout Layer) {
        switch self {
        case .masksToBounds: target.masksToBounds = source.masksToBounds
        case .shadowPath: target.shadowPath = source.shadowPath
        case .contentsGravity: target.contentsGravity = source.contentsGravity
        case .doubleSided: target.isDoubleSided = source.isDoubleSided
        case .maskedCorners: target.maskedCorners = source.maskedCorners
        case .cornerCurve: target.cornerCurve = source.cornerCurve
        case .filters: target.filters = source.filters
        case .backgroundFilters: target.backgroundFilters = source.backgroundFilters
        case .compositingFilter: target.compositingFilter = source.compositingFilter
        case .fillRule: if let s = source.shape { target.shape?.fillRule = s.fillRule }
        case .lineCap: if let s = source.shape { target.shape?.lineCap = s.lineCap }
        case .lineJoin: if let s = source.shape { target.shape?.lineJoin = s.lineJoin }
        case .lineDashPattern: if let s = source.shape { target.shape?.lineDashPattern = s.lineDashPattern }
        case .gradientType: if let g = source.gradient { target.gradient?.gradientType = g.gradientType }
        case .string: if let t = source.text { target.text?.string = t.string }
        case .font: if let t = source.text { target.text?.font = t.font }
        case .alignmentMode: if let t = source.text { target.text?.alignmentMode = t.alignmentMode }
        case .isWrapped: if let t = source.text { target.text?.isWrapped = t.isWrapped }
        case .emitterShape: if let e = source.emitter { target.emitter?.emitterShape = e.emitterShape }
        case .emitterMode: if let e = source.emitter { target.emitter?.emitterMode = e.emitterMode }
        case .renderMode: if let e = source.emitter { target.emitter?.renderMode = e.renderMode }
        }
    }
}

/// One change an event's `set:` makes to a layer.
public enum LayerSetting: Sendable {
    /// An animatable key path's value (the value from then on, over its animations).
    case value(LayerKeyPath, AnimatableValue)
    /// A property no animation reaches, copied from a layer read with its new value.
    case property(LayerProperty, from: Layer)
}

extension Layer {
    /// Makes the change.
    public mutating func apply(_ setting: LayerSetting) {
        switch setting {
        case .value(let keyPath, let value): setValue(value, at: keyPath)
        case .property(let property, let source): property.copy(from: source, to: &self)
        }
    }
}
