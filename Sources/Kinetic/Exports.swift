// The errors a user catches come from the loader itself (one definition, the same
// messages as `kinetic validate`); only these declarations are re-exported, not the
// loader's modules.
@_exported import struct KineticScene.SceneLoadError
@_exported import struct KineticScene.SceneProblem
@_exported import struct KineticScene.SourceLocation
@_exported import struct KineticScene.SceneFileError
@_exported import struct KineticScene.SceneLimits
// SceneLimits.appearance resolves semantic colors in the light or dark appearance.
@_exported import enum KineticGeometry.Appearance
