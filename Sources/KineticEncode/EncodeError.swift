/// Why an encoder could not produce its output.
///
/// The command line maps ``cannotWrite(path:reason:)`` to exit status 73 (EX_CANTCREAT)
/// and ``cannotRead(path:reason:)`` of a missing input to 66 (EX_NOINPUT).
public enum EncodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output (or its temporary file beside it) could not be created, written or
    /// renamed into place. Nothing is left at `path` that was not there before.
    case cannotWrite(path: String, reason: String)
    /// An input file (a PNG) could not be opened or decoded.
    case cannotRead(path: String, reason: String)
    /// A frame is unusable: empty, too large, or not matching the canvas or the
    /// previous frame.
    case invalidImage(reason: String)
    /// An option is out of its documented range.
    case invalidOptions(reason: String)
    /// libimagequant could not build a palette or remap a frame.
    case quantizationFailed(reason: String)

    public var description: String {
        switch self {
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case let .invalidImage(reason): "invalid image: \(reason)"
        case let .invalidOptions(reason): "invalid options: \(reason)"
        case let .quantizationFailed(reason): "colour quantization failed: \(reason)"
        }
    }
}
