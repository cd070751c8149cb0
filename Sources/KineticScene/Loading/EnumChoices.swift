import KineticAnimation

// The loader reads these by name and suggests the closest on a typo.
extension FillMode: CaseIterable {
    public static var allCases: [FillMode] { [.removed, .forwards, .backwards, .both] }
}

extension KeyframeAnimation.CalculationMode: CaseIterable {
    public static var allCases: [KeyframeAnimation.CalculationMode] { [.linear, .discrete, .paced, .cubic, .cubicPaced] }
}
