import CChipmunk
import Testing

/// The shim reads and writes a body's fields at the offsets of Debian's cpBody: what it
/// reads must be what Chipmunk's getters return, and what it writes what they then see.
@Suite struct ChipmunkShimTests {
    @Test func stateIsWhatChipmunksGettersReturn() throws {
        let body = try #require(cpBodyNew(2, 3))
        defer { cpBodyFree(body) }
        cpBodySetPosition(body, cpv(1.5, -2.25))
        cpBodySetVelocity(body, cpv(3.125, 4e-7))
        cpBodySetAngle(body, 0.75)
        cpBodySetAngularVelocity(body, -6.5)
        let state = KineticBodyGetState(body)
        #expect([state.position.x, state.position.y, state.velocity.x, state.velocity.y, state.angle, state.angularVelocity]
                == [1.5, -2.25, 3.125, 4e-7, 0.75, -6.5])
    }

    @Test func forceAndTorqueAreWhatChipmunksGettersSee() throws {
        let body = try #require(cpBodyNew(2, 3))
        defer { cpBodyFree(body) }
        cpBodySetPosition(body, cpv(10, 20))
        KineticBodySetForceAndTorque(body, cpv(7, -8), 9.5)
        let force = cpBodyGetForce(body)
        #expect([force.x, force.y, cpBodyGetTorque(body)] == [7, -8, 9.5])
        // Nothing else moved: the position is where it was.
        #expect(cpBodyGetPosition(body).x == 10 && cpBodyGetPosition(body).y == 20)
    }
}
