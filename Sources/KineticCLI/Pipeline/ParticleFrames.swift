import KineticLayers
import KineticScene

extension ParticleSimulation {
    /// `frame` with its emitters' particles; over the particle limit, the message is
    /// printed and the command exits 65 (the scene asks for more than the limit allows).
    mutating func addingParticles(to frame: SceneFrame) throws -> SceneFrame {
        // Every path to pixels or `inspect` passes here: an incomplete frame stops it.
        if let refusal = frame.refusal {
            Terminal.error("\(timelineFile): \(refusal)")
            throw ExitStatus.dataError
        }
        do {
            return try self.frame(frame)
        } catch {
            Terminal.error("\(timelineFile): \(error)")
            throw ExitStatus.dataError
        }
    }

    private var timelineFile: String { scene.file }
}
