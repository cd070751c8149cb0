import KineticGeometry

/// An animatable key path of section 5, parsed once at load time, with typed access to
/// the layer's value. Sub-paths of `transform` read and write through the transform's
/// components, as Core Animation's `transform.rotation.z` does.
public enum LayerKeyPath: Hashable, Sendable {
    case position, positionX, positionY
    case bounds, boundsSize, boundsWidth, boundsHeight
    case anchorPoint, opacity, backgroundColor, cornerRadius, borderWidth, borderColor
    case transform, sublayerTransform
    case transformRotationX, transformRotationY, transformRotationZ
    case transformScale, transformScaleX, transformScaleY
    case transformTranslationX, transformTranslationY, transformTranslationZ
    case shadowOpacity, shadowRadius, shadowOffset, shadowColor
    case zPosition, contents, hidden
    // CAShapeLayer
    case path, fillColor, strokeColor, lineWidth, miterLimit, strokeStart, strokeEnd, lineDashPhase
    // CAGradientLayer
    case colors, locations, startPoint, endPoint
    // CATextLayer
    case foregroundColor, fontSize
    // CAReplicatorLayer
    case instanceDelay, instanceTransform, instanceColor
    case instanceCount, instanceRedOffset, instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset
    /// A custom `properties` key.
    case property(String)
    /// `path.PARAM`: a parameter of a named shape, with the parameter's kind.
    case pathParameter(String, kind: AnimatableValue.Kind)
    // CAEmitterLayer (`lifetime`, `velocity`, `scale` and `spin` are its multipliers)
    case birthRate, emitterPosition, emitterSize, emitterZPosition, emitterDepth
    case lifetime, velocity, scale, spin
    /// `emitterCells.NAME.KEY` (`names` follows nested `emitterCells.NAME` steps).
    case emitterCell(names: [String], key: EmitterCellKey)

    /// Key paths by their scene-file spelling (custom properties excluded).
    public static let named: [String: LayerKeyPath] = [
        "position": .position, "position.x": .positionX, "position.y": .positionY,
        "bounds": .bounds, "bounds.size": .boundsSize,
        "bounds.size.width": .boundsWidth, "bounds.size.height": .boundsHeight,
        "anchorPoint": .anchorPoint, "opacity": .opacity, "backgroundColor": .backgroundColor,
        "cornerRadius": .cornerRadius, "borderWidth": .borderWidth, "borderColor": .borderColor,
        "transform": .transform, "sublayerTransform": .sublayerTransform,
        "transform.rotation": .transformRotationZ, "transform.rotation.z": .transformRotationZ,
        "transform.rotation.x": .transformRotationX, "transform.rotation.y": .transformRotationY,
        "transform.scale": .transformScale, "transform.scale.x": .transformScaleX,
        "transform.scale.y": .transformScaleY,
        "transform.translation.x": .transformTranslationX,
        "transform.translation.y": .transformTranslationY,
        "transform.translation.z": .transformTranslationZ,
        "shadowOpacity": .shadowOpacity, "shadowRadius": .shadowRadius,
        "shadowOffset": .shadowOffset, "shadowColor": .shadowColor,
        "zPosition": .zPosition, "contents": .contents, "hidden": .hidden,
        "path": .path, "fillColor": .fillColor, "strokeColor": .strokeColor,
        "lineWidth": .lineWidth, "miterLimit": .miterLimit, "strokeStart": .strokeStart, "strokeEnd": .strokeEnd,
        "lineDashPhase": .lineDashPhase,
        "colors": .colors, "locations": .locations, "startPoint": .startPoint, "endPoint": .endPoint,
        "foregroundColor": .foregroundColor, "fontSize": .fontSize,
        "instanceDelay": .instanceDelay, "instanceTransform": .instanceTransform, "instanceColor": .instanceColor,
        "instanceCount": .instanceCount, "instanceRedOffset": .instanceRedOffset,
        "instanceGreenOffset": .instanceGreenOffset, "instanceBlueOffset": .instanceBlueOffset,
        "instanceAlphaOffset": .instanceAlphaOffset,
        "birthRate": .birthRate, "emitterPosition": .emitterPosition, "emitterSize": .emitterSize,
        "emitterZPosition": .emitterZPosition, "emitterDepth": .emitterDepth,
        "lifetime": .lifetime, "velocity": .velocity, "scale": .scale, "spin": .spin,
    ]

    /// Parses `emitterCells.NAME.KEY` (or `emitterCells.A.emitterCells.B.KEY`); nil when
    /// the text is not of that form.
    public static func emitterCell(parsing text: String) -> LayerKeyPath? {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts.count % 2 == 1, let key = EmitterCellKey(rawValue: parts.removeLast()) else { return nil }
        var names: [String] = []
        while !parts.isEmpty {
            guard parts[0] == "emitterCells", !parts[1].isEmpty else { return nil }
            names.append(parts[1])
            parts.removeFirst(2)
        }
        return .emitterCell(names: names, key: key)
    }

    /// The kind of value the key path carries.
    public var valueKind: AnimatableValue.Kind {
        switch self {
        case .position, .anchorPoint, .startPoint, .endPoint, .emitterPosition: .point
        case .boundsSize, .shadowOffset, .emitterSize: .size
        case .emitterCell(_, let key): key.valueKind
        case .bounds: .rect
        case .backgroundColor, .borderColor, .shadowColor, .fillColor, .strokeColor, .foregroundColor,
             .instanceColor: .color
        case .transform, .sublayerTransform, .instanceTransform: .transform
        case .path: .path
        case .colors: .colors
        case .locations: .numbers
        case .hidden: .bool
        case .contents: .image
        case .pathParameter(_, let kind): kind
        default: .number
        }
    }

    /// The layer types the key path applies to; nil for every type.
    public var layerTypes: Set<LayerType>? {
        switch self {
        case .path, .fillColor, .strokeColor, .lineWidth, .miterLimit, .strokeStart, .strokeEnd, .lineDashPhase, .pathParameter:
            [.shape]
        case .colors, .locations, .startPoint, .endPoint: [.gradient]
        case .foregroundColor, .fontSize: [.text]
        case .instanceDelay, .instanceTransform, .instanceColor, .instanceCount, .instanceRedOffset, .instanceGreenOffset,
             .instanceBlueOffset, .instanceAlphaOffset: [.replicator]
        case .birthRate, .emitterPosition, .emitterSize, .emitterZPosition, .emitterDepth, .emitterCell,
             .lifetime, .velocity, .scale, .spin: [.emitter]
        default: nil
        }
    }

    /// Whether values must stay within 0…1 (opacity, stroke trimming).
    public var isUnitInterval: Bool {
        switch self {
        case .opacity, .shadowOpacity, .strokeStart, .strokeEnd: true
        default: false
        }
    }
}

extension Layer {
    /// The value at `keyPath`, or nil when the layer has no such property (a shape key
    /// on a plain layer, an undeclared custom property).
    public func value(at keyPath: LayerKeyPath) -> AnimatableValue? {
        // Decomposed only when a transform sub-key path asks.
        var c: Transform3D.Components { transformComponents }
        switch keyPath {
        case .position: return .point(position)
        case .positionX: return .number(position.x)
        case .positionY: return .number(position.y)
        case .bounds: return .rect(bounds)
        case .boundsSize: return .size(bounds.size)
        case .boundsWidth: return .number(bounds.size.width)
        case .boundsHeight: return .number(bounds.size.height)
        case .anchorPoint: return .point(anchorPoint)
        case .opacity: return .number(opacity)
        case .backgroundColor: return .color(backgroundColor ?? .clear)
        case .cornerRadius: return .number(cornerRadius)
        case .borderWidth: return .number(borderWidth)
        case .borderColor: return .color(borderColor)
        case .transform: return .transform(transform)
        case .sublayerTransform: return .transform(sublayerTransform)
        case .transformRotationX: return .number(c.rotationX)
        case .transformRotationY: return .number(c.rotationY)
        case .transformRotationZ: return .number(c.rotationZ)
        case .transformScale: return .number(c.sx)
        case .transformScaleX: return .number(c.sx)
        case .transformScaleY: return .number(c.sy)
        case .transformTranslationX: return .number(c.tx)
        case .transformTranslationY: return .number(c.ty)
        case .transformTranslationZ: return .number(c.tz)
        case .shadowOpacity: return .number(shadowOpacity)
        case .shadowRadius: return .number(shadowRadius)
        case .shadowOffset: return .size(shadowOffset)
        case .shadowColor: return .color(shadowColor)
        case .zPosition: return .number(zPosition)
        case .contents: return .image(contents)
        case .hidden: return .bool(isHidden)
        case .path: return shape.map { .path($0.path) }
        case .fillColor: return shape.map { .color($0.fillColor ?? .clear) }
        case .strokeColor: return shape.map { .color($0.strokeColor ?? .clear) }
        case .lineWidth: return shape.map { .number($0.lineWidth) }
        case .miterLimit: return shape.map { .number($0.miterLimit) }
        case .strokeStart: return shape.map { .number($0.strokeStart) }
        case .strokeEnd: return shape.map { .number($0.strokeEnd) }
        case .lineDashPhase: return shape.map { .number($0.lineDashPhase) }
        case .colors: return gradient.map { .colors($0.colors) }
        case .locations: return gradient.map { g in .numbers(g.locations ?? Self.evenLocations(g.colors.count)) }
        case .startPoint: return gradient.map { .point($0.startPoint) }
        case .endPoint: return gradient.map { .point($0.endPoint) }
        case .foregroundColor: return text.map { .color($0.foregroundColor) }
        case .fontSize: return text.map { .number($0.fontSize) }
        case .instanceDelay: return replicator.map { .number($0.instanceDelay) }
        case .instanceTransform: return replicator.map { .transform($0.instanceTransform) }
        case .instanceColor: return replicator.map { .color($0.instanceColor) }
        case .instanceCount: return replicator.map { .number(Double($0.instanceCount)) }
        case .instanceRedOffset: return replicator.map { .number($0.instanceRedOffset) }
        case .instanceGreenOffset: return replicator.map { .number($0.instanceGreenOffset) }
        case .instanceBlueOffset: return replicator.map { .number($0.instanceBlueOffset) }
        case .instanceAlphaOffset: return replicator.map { .number($0.instanceAlphaOffset) }
        case .property(let name): return properties[name].map { .number($0) }
        case .pathParameter(let name, _): return shape?.namedShape?.parameters[name]
        case .birthRate: return emitter.map { .number($0.birthRate) }
        case .emitterPosition: return emitter.map { .point($0.emitterPosition) }
        case .emitterSize: return emitter.map { .size($0.emitterSize) }
        case .emitterZPosition: return emitter.map { .number($0.emitterZPosition) }
        case .emitterDepth: return emitter.map { .number($0.emitterDepth) }
        case .lifetime: return emitter.map { .number($0.lifetime) }
        case .velocity: return emitter.map { .number($0.velocity) }
        case .scale: return emitter.map { .number($0.scale) }
        case .spin: return emitter.map { .number($0.spin) }
        case .emitterCell(let names, let key): return emitter?.cell(at: names)?.value(for: key)
        }
    }

    /// Sets the value at `keyPath`; a value of the wrong kind is ignored (the loader
    /// has checked kinds before any frame is computed).
    public mutating func setValue(_ value: AnimatableValue, at keyPath: LayerKeyPath) {
        switch (keyPath, value) {
        case (.position, .point(let p)): position = p
        case (.positionX, .number(let v)): position.x = v
        case (.positionY, .number(let v)): position.y = v
        case (.bounds, .rect(let r)): bounds = r
        case (.boundsSize, .size(let s)): bounds.size = s
        case (.boundsWidth, .number(let v)): bounds.size.width = v
        case (.boundsHeight, .number(let v)): bounds.size.height = v
        case (.anchorPoint, .point(let p)): anchorPoint = p
        case (.opacity, .number(let v)): opacity = v
        case (.backgroundColor, .color(let c)): backgroundColor = c
        case (.cornerRadius, .number(let v)): cornerRadius = v
        case (.borderWidth, .number(let v)): borderWidth = v
        case (.borderColor, .color(let c)): borderColor = c
        case (.transform, .transform(let t)): transform = t
        case (.sublayerTransform, .transform(let t)): sublayerTransform = t
        case (.transformRotationX, .number(let v)): updateTransform { $0.rotationX = v }
        case (.transformRotationY, .number(let v)): updateTransform { $0.rotationY = v }
        case (.transformRotationZ, .number(let v)): updateTransform { $0.rotationZ = v }
        case (.transformScale, .number(let v)): updateTransform { $0.sx = v; $0.sy = v; $0.sz = v }
        case (.transformScaleX, .number(let v)): updateTransform { $0.sx = v }
        case (.transformScaleY, .number(let v)): updateTransform { $0.sy = v }
        case (.transformTranslationX, .number(let v)): updateTransform { $0.tx = v }
        case (.transformTranslationY, .number(let v)): updateTransform { $0.ty = v }
        case (.transformTranslationZ, .number(let v)): updateTransform { $0.tz = v }
        case (.shadowOpacity, .number(let v)): shadowOpacity = v
        case (.shadowRadius, .number(let v)): shadowRadius = v
        case (.shadowOffset, .size(let s)): shadowOffset = s
        case (.shadowColor, .color(let c)): shadowColor = c
        case (.zPosition, .number(let v)): zPosition = v
        case (.contents, .image(let p)): contents = p
        case (.hidden, .bool(let b)): isHidden = b
        case (.path, .path(let p)): shape?.path = p
        case (.fillColor, .color(let c)): shape?.fillColor = c
        case (.strokeColor, .color(let c)): shape?.strokeColor = c
        case (.lineWidth, .number(let v)): shape?.lineWidth = v
        case (.miterLimit, .number(let v)): shape?.miterLimit = v
        case (.strokeStart, .number(let v)): shape?.strokeStart = v
        case (.strokeEnd, .number(let v)): shape?.strokeEnd = v
        case (.lineDashPhase, .number(let v)): shape?.lineDashPhase = v
        case (.colors, .colors(let c)): gradient?.colors = c
        case (.locations, .numbers(let v)): gradient?.locations = v
        case (.startPoint, .point(let p)): gradient?.startPoint = p
        case (.endPoint, .point(let p)): gradient?.endPoint = p
        case (.foregroundColor, .color(let c)): text?.foregroundColor = c
        case (.fontSize, .number(let v)): text?.fontSize = v
        case (.instanceDelay, .number(let v)): replicator?.instanceDelay = v
        case (.instanceTransform, .transform(let t)): replicator?.instanceTransform = t
        case (.instanceColor, .color(let c)): replicator?.instanceColor = c
        case (.instanceCount, .number(let v)): replicator?.instanceCount = ReplicatorStyle.instanceCount(v)
        case (.instanceRedOffset, .number(let v)): replicator?.instanceRedOffset = v
        case (.instanceGreenOffset, .number(let v)): replicator?.instanceGreenOffset = v
        case (.instanceBlueOffset, .number(let v)): replicator?.instanceBlueOffset = v
        case (.instanceAlphaOffset, .number(let v)): replicator?.instanceAlphaOffset = v
        case (.property(let name), .number(let v)): properties[name] = v
        case (.pathParameter(let name, let kind), let v) where v.kind == kind: shape?.namedShape?.parameters[name] = v
        case (.birthRate, .number(let v)): emitter?.birthRate = v
        case (.emitterPosition, .point(let p)): emitter?.emitterPosition = p
        case (.emitterSize, .size(let s)): emitter?.emitterSize = s
        case (.emitterZPosition, .number(let v)): emitter?.emitterZPosition = v
        case (.emitterDepth, .number(let v)): emitter?.emitterDepth = v
        case (.lifetime, .number(let v)): emitter?.lifetime = v
        case (.velocity, .number(let v)): emitter?.velocity = v
        case (.scale, .number(let v)): emitter?.scale = v
        case (.spin, .number(let v)): emitter?.spin = v
        case (.emitterCell(let names, let key), _): emitter?.modifyCell(at: names) { $0.setValue(value, for: key) }
        default: break
        }
    }

    private mutating func updateTransform(_ change: (inout Transform3D.Components) -> Void) {
        change(&transformComponents)
    }

    /// CAGradientLayer's spacing when `locations` is nil.
    public static func evenLocations(_ count: Int) -> [Double] {
        count <= 1 ? [0] : (0..<count).map { Double($0) / Double(count - 1) }
    }
}
