import KineticCLI

Kinetic.tuneAllocator()
Kinetic.installInterruptionHandler()
Kinetic.main()
