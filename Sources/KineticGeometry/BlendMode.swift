/// `compositingFilter`: Core Image's blend modes (CIMultiplyBlendMode, …), as the
/// separable and non-separable blend modes of the PDF and Compositing specifications.
/// A plain value here, beside the geometry, so the layer model and the Cairo wrapper
/// both name it without depending on each other.
public enum BlendMode: String, Sendable, CaseIterable {
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
}
