/// The color names of section 1 and contract 1.1: UIColor's class colors, the iOS
/// `system*` colors and the semantic (element) colors, each with its light and its dark
/// appearance (fixed colors have one value).
public enum ColorNames {
    /// Light values (and the fixed colors): what a scene gets by default.
    public static let all: [String: Color] = fixed.merging(light) { a, _ in a }

    /// The value of `name` in `appearance`.
    public static func color(_ name: String, appearance: Appearance) -> Color? {
        if appearance == .dark, let c = dark[name] { return c }
        return all[name]
    }

    /// UIColor's class colors: one value in every appearance.
    public static let fixed: [String: Color] = [
        "black": Color(red: 0, green: 0, blue: 0),
        "white": Color(red: 1, green: 1, blue: 1),
        "clear": Color(red: 0, green: 0, blue: 0, alpha: 0),
        "red": Color(red: 1, green: 0, blue: 0),
        "green": Color(red: 0, green: 1, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 1),
        "yellow": Color(red: 1, green: 1, blue: 0),
        "orange": Color(red: 1, green: 0.5, blue: 0),
        "purple": Color(red: 0.5, green: 0, blue: 0.5),
        "brown": Color(red: 0.6, green: 0.4, blue: 0.2),
        "gray": Color(red: 0.5, green: 0.5, blue: 0.5),
        "lightGray": Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3),
        "darkGray": Color(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3),
        "cyan": Color(red: 0, green: 1, blue: 1),
        "magenta": Color(red: 1, green: 0, blue: 1),
        "lightText": Color(r255: 255, g255: 255, b255: 255, alpha: 0.6),
        "darkText": Color(red: 0, green: 0, blue: 0),
    ]

    /// Light appearance (UIUserInterfaceStyle.light), Apple's published values.
    public static let light: [String: Color] = [
        "systemRed": Color(r255: 255, g255: 59, b255: 48),
        "systemOrange": Color(r255: 255, g255: 149, b255: 0),
        "systemYellow": Color(r255: 255, g255: 204, b255: 0),
        "systemGreen": Color(r255: 52, g255: 199, b255: 89),
        "systemMint": Color(r255: 0, g255: 199, b255: 190),
        "systemTeal": Color(r255: 48, g255: 176, b255: 199),
        "systemCyan": Color(r255: 50, g255: 173, b255: 230),
        "systemBlue": Color(r255: 0, g255: 122, b255: 255),
        "systemIndigo": Color(r255: 88, g255: 86, b255: 214),
        "systemPurple": Color(r255: 175, g255: 82, b255: 222),
        "systemPink": Color(r255: 255, g255: 45, b255: 85),
        "systemBrown": Color(r255: 162, g255: 132, b255: 94),
        "systemGray": Color(r255: 142, g255: 142, b255: 147),
        "systemGray2": Color(r255: 174, g255: 174, b255: 178),
        "systemGray3": Color(r255: 199, g255: 199, b255: 204),
        "systemGray4": Color(r255: 209, g255: 209, b255: 214),
        "systemGray5": Color(r255: 229, g255: 229, b255: 234),
        "systemGray6": Color(r255: 242, g255: 242, b255: 247),
        // Element colors.
        "label": Color(r255: 0, g255: 0, b255: 0),
        "secondaryLabel": Color(r255: 60, g255: 60, b255: 67, alpha: 0.6),
        "tertiaryLabel": Color(r255: 60, g255: 60, b255: 67, alpha: 0.3),
        "quaternaryLabel": Color(r255: 60, g255: 60, b255: 67, alpha: 0.18),
        "placeholderText": Color(r255: 60, g255: 60, b255: 67, alpha: 0.3),
        "link": Color(r255: 0, g255: 122, b255: 255),
        "separator": Color(r255: 60, g255: 60, b255: 67, alpha: 0.29),
        "opaqueSeparator": Color(r255: 198, g255: 198, b255: 200),
        "systemFill": Color(r255: 120, g255: 120, b255: 128, alpha: 0.2),
        "secondarySystemFill": Color(r255: 120, g255: 120, b255: 128, alpha: 0.16),
        "tertiarySystemFill": Color(r255: 118, g255: 118, b255: 128, alpha: 0.12),
        "quaternarySystemFill": Color(r255: 116, g255: 116, b255: 128, alpha: 0.08),
        "systemBackground": Color(r255: 255, g255: 255, b255: 255),
        "secondarySystemBackground": Color(r255: 242, g255: 242, b255: 247),
        "tertiarySystemBackground": Color(r255: 255, g255: 255, b255: 255),
        "systemGroupedBackground": Color(r255: 242, g255: 242, b255: 247),
        "secondarySystemGroupedBackground": Color(r255: 255, g255: 255, b255: 255),
        "tertiarySystemGroupedBackground": Color(r255: 242, g255: 242, b255: 247),
    ]

    /// Dark appearance (UIUserInterfaceStyle.dark), Apple's published values.
    public static let dark: [String: Color] = [
        "systemRed": Color(r255: 255, g255: 69, b255: 58),
        "systemOrange": Color(r255: 255, g255: 159, b255: 10),
        "systemYellow": Color(r255: 255, g255: 214, b255: 10),
        "systemGreen": Color(r255: 48, g255: 209, b255: 88),
        "systemMint": Color(r255: 99, g255: 230, b255: 226),
        "systemTeal": Color(r255: 64, g255: 200, b255: 224),
        "systemCyan": Color(r255: 100, g255: 210, b255: 255),
        "systemBlue": Color(r255: 10, g255: 132, b255: 255),
        "systemIndigo": Color(r255: 94, g255: 92, b255: 230),
        "systemPurple": Color(r255: 191, g255: 90, b255: 242),
        "systemPink": Color(r255: 255, g255: 55, b255: 95),
        "systemBrown": Color(r255: 172, g255: 142, b255: 104),
        "systemGray": Color(r255: 142, g255: 142, b255: 147),
        "systemGray2": Color(r255: 99, g255: 99, b255: 102),
        "systemGray3": Color(r255: 72, g255: 72, b255: 74),
        "systemGray4": Color(r255: 58, g255: 58, b255: 60),
        "systemGray5": Color(r255: 44, g255: 44, b255: 46),
        "systemGray6": Color(r255: 28, g255: 28, b255: 30),
        "label": Color(r255: 255, g255: 255, b255: 255),
        "secondaryLabel": Color(r255: 235, g255: 235, b255: 245, alpha: 0.6),
        "tertiaryLabel": Color(r255: 235, g255: 235, b255: 245, alpha: 0.3),
        "quaternaryLabel": Color(r255: 235, g255: 235, b255: 245, alpha: 0.18),
        "placeholderText": Color(r255: 235, g255: 235, b255: 245, alpha: 0.3),
        "link": Color(r255: 9, g255: 132, b255: 255),
        "separator": Color(r255: 84, g255: 84, b255: 88, alpha: 0.6),
        "opaqueSeparator": Color(r255: 56, g255: 56, b255: 58),
        "systemFill": Color(r255: 120, g255: 120, b255: 128, alpha: 0.36),
        "secondarySystemFill": Color(r255: 120, g255: 120, b255: 128, alpha: 0.32),
        "tertiarySystemFill": Color(r255: 118, g255: 118, b255: 128, alpha: 0.24),
        "quaternarySystemFill": Color(r255: 118, g255: 118, b255: 128, alpha: 0.18),
        "systemBackground": Color(r255: 0, g255: 0, b255: 0),
        "secondarySystemBackground": Color(r255: 28, g255: 28, b255: 30),
        "tertiarySystemBackground": Color(r255: 44, g255: 44, b255: 46),
        "systemGroupedBackground": Color(r255: 0, g255: 0, b255: 0),
        "secondarySystemGroupedBackground": Color(r255: 28, g255: 28, b255: 30),
        "tertiarySystemGroupedBackground": Color(r255: 44, g255: 44, b255: 46),
    ]
}
