// Interim declarations so the scene loader compiles while the animation engine lands;
// removed when it merges.
public enum TimingFunction: Hashable, Sendable {
    case linear, easeIn, easeOut, easeInEaseOut, `default`
    case cubicBezier(Double, Double, Double, Double)
}
public enum FillMode: String, Hashable, Sendable, CaseIterable { case removed, forwards, backwards, both }
public enum CalculationMode: String, Hashable, Sendable, CaseIterable { case linear, discrete, paced, cubic }
