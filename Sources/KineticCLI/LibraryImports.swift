// The render pipeline lives in the library (Sources/Kinetic/Rendering); the command is
// its client. Only these declarations are imported, module-wide: importing all of
// Kinetic would make `Scene` ambiguous with the loader's model in every command file.
@_exported import enum Kinetic.AnimationOutput
@_exported import enum Kinetic.ByteCount
@_exported import struct Kinetic.FrameOrigin
@_exported import struct Kinetic.FramePipeline
@_exported import struct Kinetic.FrameStream
@_exported import struct Kinetic.FrameRenderError
@_exported import class Kinetic.KeptFrames
@_exported import struct Kinetic.MemoryCeiling
@_exported import struct Kinetic.OutputOptions
@_exported import struct Kinetic.OutputSummary
@_exported import enum Kinetic.OutputTarget
@_exported import struct Kinetic.OutputTargetError
@_exported import enum Kinetic.Parallel
@_exported import class Kinetic.Progress
@_exported import enum Kinetic.SceneOutput
@_exported import enum Kinetic.SceneRenderError
@_exported import struct Kinetic.SceneRenderer
@_exported import struct Kinetic.WorkerThread
