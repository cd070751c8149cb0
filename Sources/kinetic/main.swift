import KineticCLI

Kinetic.main()
