import KineticCLI

Kinetic.installInterruptionHandler()
Kinetic.main()
