/// A property's value as the scene file writes it, of a kind no animation carries (a
/// flag, a name, a list of names, a number, filters): what the loader decodes by the
/// property's kind and hands to `PropertySpec.assign`.
public enum FileValue: Sendable, Equatable {
    case bool(Bool)
    case name(String)
    case names([String])
    case number(Double)
    case filters([LayerFilter])
}
