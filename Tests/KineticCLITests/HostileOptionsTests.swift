@testable import KineticCLI
import Kinetic
import Testing

/// Issue 14: the memory budget's sizes and the stale temporaries' names.
@Suite struct HostileOptionsTests {
    @Test func memorySizesTakeUnits() {
        #expect(LimitOptions.bytes("4G") == 4 << 30)
        #expect(LimitOptions.bytes("512M") == 512 << 20)
        #expect(LimitOptions.bytes("64k") == 64 << 10)
        #expect(LimitOptions.bytes("1073741824") == 1 << 30)
        #expect(LimitOptions.bytes("2GB") == 2 << 30)
        for nonsense in ["12X", "", "G", "-1G", "0", "nan", "1e300", "inf"] { #expect(LimitOptions.bytes(nonsense) == nil) }
    }

    @Test func temporariesAreRecognizedByTheirName() {
        // AtomicFile's naming: "." NAME "." PID "." RANDOM ".tmp".
        #expect(StaleOutputs.temporaryOwner(".out.gif.4242.k3j9z.tmp") == 4242)
        #expect(StaleOutputs.temporaryOwner(".out.gif.4242.K3J9Z.tmp") == nil)
        #expect(StaleOutputs.temporaryOwner(".keep.tmp") == nil)
        #expect(StaleOutputs.temporaryOwner("out.gif.4242.abc.tmp") == nil)
        #expect(StaleOutputs.temporaryOwner(".out.gif.x.abc.tmp") == nil)
    }

    @Test func framePatternsHaveABoundedWidth() {
        #expect(OutputTarget.isValidPattern("f-%04d.png"))
        #expect(OutputTarget.isValidPattern("f-%d.png"))
        #expect(!OutputTarget.isValidPattern("p-%09999999999d.png"))
        #expect(!OutputTarget.isValidPattern("p-%100d.png"))
    }
}
