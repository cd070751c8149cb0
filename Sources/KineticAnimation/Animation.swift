// Timing and interpolation of CAAnimation values.
