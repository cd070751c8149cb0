import KineticGeometry

/// Scene-format value parsing for the command line's overrides (`--background`).
public enum SceneValues {
    /// A color as section 1 spells it, or nil.
    public static func color(_ text: String) -> Color? {
        let field = Field(node: SceneNode(text: text), keyPath: "", diagnostics: Diagnostics(file: "<command line>"))
        return field.color
    }

    /// A number without a trailing `.0` when whole.
    public static func format(_ v: Double) -> String { Field.format(v) }
}
