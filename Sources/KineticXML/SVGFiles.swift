import Foundation
import KineticFiles
import KineticGeometry

/// The SVG files one scene reads — as paths (`path: {svg: FILE}`) and as contents
/// (`contents: FILE.svg`) — each resolved under the asset policy and parsed once. A
/// class because every reader of the scene file shares it (through `Diagnostics`).
public final class SVGFiles {
    public let baseDirectory: String
    public let policy: AssetPolicy
    /// Each file's document or the message saying why it cannot be read, by name as written.
    private var documents: [String: Result<(path: String, root: SVGElement), SVGFileProblem>] = [:]

    public init(baseDirectory: String = ".", policy: AssetPolicy = AssetPolicy()) {
        self.baseDirectory = baseDirectory
        self.policy = policy
    }

    /// The resolved paths of the files read, for `Scene.assets` (the preview watches them).
    public var paths: Set<String> {
        Set(documents.values.compactMap { if case .success(let d) = $0 { d.path } else { nil } })
    }

    /// The document element of SVG file `name`, or why it cannot be read.
    public func document(_ name: String) -> Result<(path: String, root: SVGElement), SVGFileProblem> {
        if let known = documents[name] { return known }
        let result = read(name)
        documents[name] = result
        return result
    }

    private func read(_ name: String) -> Result<(path: String, root: SVGElement), SVGFileProblem> {
        let path: String
        switch policy.resolve(name, baseDirectory: baseDirectory, kind: .svg) {
        case .success(let p): path = p
        case .failure(let problem): return .failure(SVGFileProblem(problem.message(for: name, kind: .svg)))
        }
        let bytes: [UInt8]
        do throws(FileProblem) {
            bytes = try GuardedFile(path: path, maxBytes: policy.maxSVGBytes).readAll()
        } catch {
            return .failure(SVGFileProblem("cannot read SVG file '\(name)': \(error.reason)"))
        }
        do {
            return .success((path, try LibXML2.parse(bytes, maxElements: policy.maxSVGElements)))
        } catch {
            return .failure(SVGFileProblem("SVG file '\(name)', \(error.description)"))
        }
    }
}

/// Why an SVG file cannot be used, as the loader reports it.
public struct SVGFileProblem: Error {
    public var message: String
    init(_ message: String) { self.message = message }
}
