import KineticGeometry

/// The color names of section 1: UIColor's class colors and the iOS light-mode
/// `system*` colors.
enum ColorNames {
    static let all: [String: Color] = [
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
    ]
}
