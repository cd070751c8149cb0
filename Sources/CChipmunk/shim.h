#include <chipmunk/chipmunk.h>
#include <stddef.h>

/// Where a body's state lies inside Debian's cpBody (byte offsets), for the two
/// accessors below that read or write it without Chipmunk's setters.
typedef struct {
    size_t position, velocity, force, angle, angularVelocity, torque;
} KineticBodyLayout;

static inline KineticBodyLayout KineticBodyGetLayout(void) {
    // Chipmunk's structs are declared in this function's scope only: at file scope they
    // would make cpBody complete, and Swift would import every Chipmunk handle as a typed
    // pointer instead of OpaquePointer. The offsets are constants, folded when inlined.
    // The three types the header embeds by value are declared anew here, so that its
    // definitions complete these local types rather than the file-scope ones.
    struct cpBody; struct cpShape; struct cpConstraint;
    typedef struct cpBody cpBody;
    typedef struct cpShape cpShape;
    typedef struct cpConstraint cpConstraint;
#include <chipmunk/chipmunk_structs.h>
    return (KineticBodyLayout){
        offsetof(struct cpBody, p), offsetof(struct cpBody, v), offsetof(struct cpBody, f),
        offsetof(struct cpBody, a), offsetof(struct cpBody, w), offsetof(struct cpBody, t),
    };
}

/// A body's position, velocity, angle and angular velocity, read at once.
typedef struct {
    cpVect position, velocity;
    cpFloat angle, angularVelocity;
} KineticBodyState;

static inline KineticBodyState KineticBodyGetState(const cpBody *body) {
    const KineticBodyLayout layout = KineticBodyGetLayout();
    const char *bytes = (const char *)body;
    return (KineticBodyState){
        *(const cpVect *)(bytes + layout.position), *(const cpVect *)(bytes + layout.velocity),
        *(const cpFloat *)(bytes + layout.angle), *(const cpFloat *)(bytes + layout.angularVelocity),
    };
}

/// Sets the force and torque of the next step as cpBodySetForce and cpBodySetTorque do,
/// without their cpBodyActivate (which resets idle timers only sleeping reads) and
/// cpBodySanityCheck: the caller must hand finite values only.
static inline void KineticBodySetForceAndTorque(cpBody *body, cpVect force, cpFloat torque) {
    const KineticBodyLayout layout = KineticBodyGetLayout();
    char *bytes = (char *)body;
    *(cpVect *)(bytes + layout.force) = force;
    *(cpFloat *)(bytes + layout.torque) = torque;
}
