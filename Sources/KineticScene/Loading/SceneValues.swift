import KineticGeometry

/// Scene-format value parsing for the command line's overrides (`--background`).
public enum SceneValues {
    /// A color as section 1 spells it, or nil.
    public static func color(_ text: String) -> Color? {
        let field = Field(node: SceneNode(text: text), keyPath: "", diagnostics: Diagnostics(file: "<command line>"))
        return field.color
    }
}
