import KineticCLI

KineticCommand.installInterruptionHandler()
KineticCommand.main()
