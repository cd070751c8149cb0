import Foundation
import KineticLayers
import KineticFiles
import KineticScene

/// A state golden: the presentation state of every frame of a scene (what `inspect`
/// reports, in its `.state` detail), as one column of values per key, stored as
/// `golden/NAME/state.jsonl` and compared key by key under a tolerance per kind of value
/// (docs/golden.md).
package struct StateTable: Equatable {
    /// Frames in the scene, and its frame rate (frame `i` shows `i / fps` s).
    package var frameCount: Int
    package var fps: Double
    /// Columns in order: layers (in the report's key order), then items, then emitters.
    package var columns: [Column]

    /// One key's values over the frames.
    package struct Column: Equatable {
        /// `btn.position.x`, `ball.item.angle`, `sparks.cells.spark.born`.
        package var key: String
        package var kind: StateKind
        /// One value per frame; nil where the key is absent (a layer not there then).
        package var values: [StateValue?]

        package init(key: String, kind: StateKind, values: [StateValue?]) {
            (self.key, self.kind, self.values) = (key, kind, values)
        }
    }

    package init(frameCount: Int, fps: Double, columns: [Column]) {
        (self.frameCount, self.fps, self.columns) = (frameCount, fps, columns)
    }

    /// The file name of a scene's state golden in its golden folder.
    package static let fileName = "state.jsonl"

    /// Most values (keys × frames) a state may hold: memory stays bounded (about 100 MB)
    /// whatever the scene; the gallery's largest holds about 110 000.
    package static let maxValues = 4_000_000
}

/// A state over ``StateTable/maxValues``.
package struct StateTooLarge: Error, CustomStringConvertible {
    package var keys: Int
    package var frames: Int
    package var description: String {
        "golden.state: \(keys) keys over \(frames) frames exceed the limit of \(StateTable.maxValues) values "
            + "(set golden: {state: false} to keep only the golden frames)"
    }
}

/// A value of a state column: a number quantized to its kind's precision, or text.
package enum StateValue: Equatable {
    /// The value divided by the kind's precision, rounded: what is stored, so a value
    /// round-trips exactly.
    case quanta(Int64)
    case text(String)
}

/// The kinds of values, each with the precision it is stored at and the difference a
/// check allows (documented in docs/golden.md; change both together).
package enum StateKind: String, CaseIterable {
    /// Points: positions, sizes, radii, widths, translations, path bounds and lengths.
    case length
    /// Unitless numbers and angles: opacity, anchor points, stroke ends, scale and
    /// rotation terms of transforms, radians, seconds, custom properties, birth rates.
    case unit
    /// The perspective terms of a transform (m14, m24, m34; −1/d for a distance d).
    case perspective
    /// Speeds of dynamic items, points per second.
    case velocity
    /// Whole numbers: particles alive and born, replicator instance counts.
    case count
    /// `#RRGGBBAA` colors.
    case color
    /// Everything else: types, flags, strings, names.
    case text

    /// The step values are rounded to when stored.
    package var precision: Double {
        switch self {
        case .length: 1e-3
        case .unit: 1e-4
        case .perspective: 1e-7
        case .velocity: 1e-2
        case .count: 1
        case .color, .text: 0
        }
    }

    /// The largest difference that still matches, in stored steps: ten for measured
    /// values (0.01 pt, 0.001, 0.1 pt/s), far below what shows, well above float noise;
    /// none for counts and text; one level per channel for colors.
    package var tolerance: Int64 {
        switch self {
        case .length, .unit, .perspective, .velocity: 10
        case .count, .text: 0
        case .color: 1
        }
    }

    /// The kind of a report entry's component: `name` is the entry's key (`position`,
    /// `transform`), `component` the index within its array (nil for a single value).
    package static func of(_ name: String, component: Int?) -> StateKind {
        switch name {
        case "transform", "sublayerTransform", "instanceTransform":
            switch component {
            case 12, 13, 14: return .length
            case 3, 7, 11: return .perspective
            default: return .unit
            }
        case "position", "bounds", "zPosition", "cornerRadius", "borderWidth", "lineWidth", "fontSize",
             "emitterPosition", "pathBounds", "pathLength", "center":
            return .length
        case "velocity": return .velocity
        case "alive", "born", "instanceCount": return .count
        default: return .unit
        }
    }
}

extension StateTable {
    // MARK: Recording

    /// Records the state of every frame of `scene`, simulated in order as a render does.
    package static func record(_ scene: KineticScene.Scene, maxParticles: Int) throws -> StateTable {
        let clock = FrameClock(timeline: Timeline(scene: scene), maxParticles: maxParticles)
        var recorder = Recorder(scene)
        for index in 0..<scene.frameCount {
            try recorder.add(try clock.renderingFrame(index), items: clock.itemStates)
        }
        return recorder.table
    }

    /// A state recorded frame by frame, in order, from the trees a run computes anyway
    /// (`golden` takes its frames, filmstrip and state from one run).
    package struct Recorder {
        private let frameCount: Int
        private let fps: Double
        private var builder: Builder

        package init(_ scene: KineticScene.Scene) {
            frameCount = scene.frameCount
            fps = scene.settings.fps
            builder = Builder(frameCount: scene.frameCount)
        }

        /// Adds `frame`'s state (`items`: the dynamic items' states then).
        /// - Throws: ``StateTooLarge`` once the state would exceed ``StateTable/maxValues``.
        package mutating func add(_ frame: SceneFrame, items: [String: DynamicItemState]) throws {
            builder.add(InspectReport.report(for: frame, items: items, detail: .state), frame: frame.index)
            if builder.columns.count * frameCount > maxValues {
                throw StateTooLarge(keys: builder.columns.count, frames: frameCount)
            }
        }

        package var table: StateTable { StateTable(frameCount: frameCount, fps: fps, columns: builder.columns) }
    }

    /// Gathers the columns frame by frame.
    private struct Builder {
        let frameCount: Int
        var columns: [Column] = []
        var indexOfKey: [String: Int] = [:]

        init(frameCount: Int) { self.frameCount = frameCount }

        mutating func add(_ report: [String: ReportValue], frame: Int) {
            func section(_ name: String) -> [String: ReportValue] {
                if case .object(let entries)? = report[name] { entries } else { [:] }
            }
            for (key, entry) in section("layers").sorted(by: { $0.key < $1.key }) {
                addEntries(of: entry, prefix: key, frame: frame)
            }
            for (key, entry) in section("items").sorted(by: { $0.key < $1.key }) {
                addEntries(of: entry, prefix: key + ".item", frame: frame)
            }
            for (key, entry) in section("emitters").sorted(by: { $0.key < $1.key }) {
                guard case .object(let emitter) = entry, case .object(let cells)? = emitter["cells"] else { continue }
                for (cell, counts) in cells.sorted(by: { $0.key < $1.key }) {
                    addEntries(of: counts, prefix: "\(key).cells.\(cell)", frame: frame)
                }
            }
        }

        private mutating func addEntries(of entry: ReportValue, prefix: String, frame: Int) {
            guard case .object(let d) = entry else { return }
            for (name, value) in d.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .list(let list):
                    let names = Self.componentNames(name, count: list.count)
                    for (i, item) in list.enumerated() {
                        set("\(prefix).\(name)\(names[i])", StateKind.of(name, component: i), item, frame: frame)
                    }
                case .object(let map):
                    for (sub, item) in map.sorted(by: { $0.key < $1.key }) {
                        set("\(prefix).\(name).\(sub)", StateKind.of(name, component: nil), item, frame: frame)
                    }
                default:
                    set("\(prefix).\(name)", StateKind.of(name, component: nil), value, frame: frame)
                }
            }
        }

        /// `.x`/`.y` for points, `.x .y .width .height` for rects, `.m11`…`.m44` for
        /// matrices, `[i]` for other lists.
        private static func componentNames(_ name: String, count: Int) -> [String] {
            switch count {
            case 2 where name != "colors" && name != "locations": return [".x", ".y"]
            case 4 where name == "bounds" || name == "pathBounds": return [".x", ".y", ".width", ".height"]
            case 16: return (1...4).flatMap { r in (1...4).map { c in ".m\(r)\(c)" } }
            default: return (0..<count).map { "[\($0)]" }
            }
        }

        private mutating func set(_ key: String, _ numericKind: StateKind, _ value: ReportValue, frame: Int) {
            let stored: (StateKind, StateValue?)
            switch value {
            case .number(let v): stored = (numericKind, Self.quantize(v, numericKind))
            case .integer(let v): stored = (numericKind, Self.quantize(Double(v), numericKind))
            case .bool(let v): stored = (.text, .text(v ? "true" : "false"))
            case .string(let v): stored = (HexColor.isHex(v) ? .color : .text, .text(v))
            // null (a corner behind the eye, none here); a list nested in a list is not a state value.
            case .null, .list, .object: stored = (numericKind, nil)
            }
            let c: Int
            if let existing = indexOfKey[key] {
                c = existing
            } else {
                c = columns.count
                indexOfKey[key] = c
                columns.append(Column(key: key, kind: stored.0, values: Array(repeating: nil, count: frameCount)))
            }
            columns[c].values[frame] = stored.1
        }

        private static func quantize(_ v: Double, _ kind: StateKind) -> StateValue? {
            let q = (v / kind.precision).rounded()
            // Beyond ±9e15 steps a value is no longer an exact integer; such a value
            // (or a non-finite one) is kept as text so it is still compared.
            guard q.isFinite, abs(q) < 9e15 else { return .text(String(v)) }
            return .quanta(Int64(q))
        }
    }
}

private enum HexColor {
    /// `#RRGGBBAA`, as the report writes colors.
    static func isHex(_ s: String) -> Bool {
        s.utf8.count == 9 && s.hasPrefix("#") && s.dropFirst().allSatisfy(\.isHexDigit)
    }

    /// The largest difference of the four channels of two `#RRGGBBAA` colors.
    static func channelDifference(_ a: String, _ b: String) -> Int64? {
        guard isHex(a), isHex(b), let x = UInt32(a.dropFirst(), radix: 16), let y = UInt32(b.dropFirst(), radix: 16) else {
            return nil
        }
        var largest: Int64 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            let a = Int64((x >> UInt32(shift)) & 255), b = Int64((y >> UInt32(shift)) & 255)
            largest = max(largest, abs(a - b))
        }
        return largest
    }
}

// MARK: - The file

/// Why a state golden file cannot be read.
package struct StateFileError: Error, CustomStringConvertible {
    package var path: String
    package var line: Int
    package var message: String
    package var description: String { "\(path):\(line): \(message)" }
}

extension StateTable {
    /// The file's text, JSON Lines: a header object, then one array per column,
    /// `[key, kind, runs]`. A number column's runs are differences, in stored steps, from
    /// the previous frame's value (from 0 at the first value): `d` for one frame, `[d, n]`
    /// for n frames each `d` further (a still or steadily moving value is one run). A text
    /// column's runs are `s` or `[s, n]`. `null` / `[null, n]` mark absent values.
    package func encoded() -> String {
        var lines = [header()]
        for column in columns {
            var runs: [String] = []
            var previous: Int64 = 0
            var pending: (item: String, count: Int)?
            func flush() {
                guard let p = pending else { return }
                runs.append(p.count == 1 ? p.item : "[\(p.item),\(p.count)]")
            }
            for value in column.values {
                let item: String
                switch value {
                case nil: item = "null"
                case .quanta(let q)?: item = String(q - previous); previous = q
                case .text(let s)?: item = JSONString.quoted(s)
                }
                if let p = pending, p.item == item {
                    pending = (item, p.count + 1)
                } else {
                    flush()
                    pending = (item, 1)
                }
            }
            flush()
            lines.append("[\(JSONString.quoted(column.key)),\"\(column.kind.rawValue)\",[\(runs.joined(separator: ","))]]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header() -> String {
        let precision = StateKind.allCases.filter { $0.precision > 0 }
            .map { "\"\($0.rawValue)\":\($0.precision)" }.joined(separator: ",")
        return "{\"format\":\"kinetic-state\",\"version\":1,\"frames\":\(frameCount),\"fps\":\(fps),\"precision\":{\(precision)}}"
    }

    /// The largest stored value in quanta (2⁵³: every such integer is a Double exactly).
    package static let maxQuanta: Int64 = 1 << 53

    /// A JSON number that is an integer within ±2⁵³ (deltas may be twice that); nil for
    /// anything else: a fraction, 1e300, a boolean, a string.
    package static func exactInteger(_ value: Any) -> Int64? {
        guard let number = value as? NSNumber else { return nil }
        let d = number.doubleValue
        guard d.isFinite, d == d.rounded(), abs(d) <= Double(2 * maxQuanta) else { return nil }
        return Int64(d)
    }

    /// Reads a file written by ``encoded()``.
    package static func decode(_ text: String, path: String) throws(StateFileError) -> StateTable {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().makeIterator()
        func fail(_ line: Int, _ message: String) -> StateFileError { StateFileError(path: path, line: line + 1, message: message) }
        func json(_ line: Substring) -> Any? { try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) }
        guard let (_, first) = lines.next(), let head = json(first) as? [String: Any],
              head["format"] as? String == "kinetic-state", head["version"] as? Int == 1,
              let frames = head["frames"].flatMap(Self.exactInteger).map(Int.init), frames >= 0, frames <= 10_000_000,
              let fps = head["fps"] as? Double, fps.isFinite, fps > 0 else {
            throw fail(0, "not a kinetic state file (version 1)")
        }
        var table = StateTable(frameCount: frames, fps: fps, columns: [])
        while let (n, line) = lines.next() {
            if line.isEmpty { continue }
            guard (table.columns.count + 1) * frames <= maxValues else {
                throw fail(n, StateTooLarge(keys: table.columns.count + 1, frames: frames).description)
            }
            guard let row = json(line) as? [Any], row.count == 3, let key = row[0] as? String,
                  let kind = (row[1] as? String).flatMap(StateKind.init(rawValue:)), let runs = row[2] as? [Any] else {
                throw fail(n, "expected [key, kind, runs]")
            }
            var values: [StateValue?] = []
            values.reserveCapacity(frames)
            var previous: Int64 = 0
            for run in runs {
                let (item, count): (Any, Int)
                if let pair = run as? [Any] {
                    guard pair.count == 2, let c = Self.exactInteger(pair[1]), c > 0 else { throw fail(n, "\(key): a run is [value, count]") }
                    (item, count) = (pair[0], Int(c))
                } else {
                    (item, count) = (run, 1)
                }
                // Subtracted, not added: a hostile count near Int.max cannot overflow.
                guard count <= frames - values.count else { throw fail(n, "\(key): more values than the \(frames) frames") }
                for _ in 0..<count {
                    if item is NSNull {
                        values.append(nil)
                    } else if let s = item as? String {
                        values.append(.text(s))
                    } else if let d = Self.exactInteger(item) {
                        // Colours and text are stored as strings: a number there is no value
                        // of the kind (formatting it would divide by a precision of 0).
                        guard kind.precision > 0 else { throw fail(n, "\(key): a \(kind.rawValue) value is a string or null") }
                        // A stored value stays within ±2⁵³ quanta; a hostile delta is a
                        // mismatch at its line, never an overflow trap.
                        let (sum, overflow) = previous.addingReportingOverflow(d)
                        guard !overflow, abs(sum) <= Self.maxQuanta else {
                            throw fail(n, "\(key): a value past ±2⁵³ quanta")
                        }
                        previous = sum
                        values.append(.quanta(previous))
                    } else {
                        throw fail(n, "\(key): a value is a number, a string or null")
                    }
                }
            }
            guard values.count == frames else { throw fail(n, "\(key): \(values.count) values for \(frames) frames") }
            table.columns.append(Column(key: key, kind: kind, values: values))
        }
        return table
    }

    /// Reads the state golden at `path`: nil when there is none.
    /// Through the guarded reader: a regular file inside `root` (when given) of at most
    /// 256 MiB.
    package static func read(_ path: String, root: String? = nil) -> Result<StateTable?, StateFileError> {
        guard GuardedFile.kind(of: path, followingLinks: false) != nil else { return .success(nil) }
        let bytes: [UInt8]
        do { bytes = try GuardedFile.read(path, maxBytes: GoldenFrames.maxFileBytes, root: root) } catch {
            return .failure(StateFileError(path: path, line: 1, message: error.reason))
        }
        do { return .success(try decode(String(decoding: bytes, as: UTF8.self), path: path)) } catch { return .failure(error) }
    }
}

// MARK: - Comparison

/// Where a scene's state parts from its golden state.
package struct StateDifference: Equatable {
    /// Where one key parts: its first frame off the golden, with both values there.
    package struct Part: Equatable {
        package var key: String
        package var frame: Int
        package var time: Double
        package var golden: String
        package var actual: String

        /// `btn.position.x at frame 7 (0.14 s): golden 49.21, actual 52.6`.
        package var description: String {
            "\(key) at frame \(frame) (\(StateTable.decimal(time, digits: 3)) s): golden \(golden), actual \(actual)"
        }
    }

    /// Every key that differs, in file order.
    package var parts: [Part]

    /// Where they part first: the earliest frame; of keys parting there, the first in the
    /// file.
    package var first: Part { parts.min { $0.frame < $1.frame } ?? parts[0] }

    /// The first part, and how many other keys differ.
    package var description: String {
        let first = self.first
        var text = first.description
        let others = parts.filter { $0.key != first.key }
        if !others.isEmpty {
            let listed = others.prefix(3).map { "\($0.key) from frame \($0.frame)" }.joined(separator: ", ")
            text += "; \(others.count) more key\(others.count == 1 ? " differs" : "s differ"): \(listed)\(others.count > 3 ? ", …" : "")"
        }
        return text
    }
}

extension StateTable {
    /// How `self` (as rendered now) parts from `golden`; nil when every value of the
    /// golden's keys is within its kind's tolerance. A key the golden lacks is not a
    /// difference (``newKeys(since:)``): a newer Kinetic reporting more of a layer must not
    /// fail every state golden; a layer or cell that appears changes a key the golden has
    /// (a count, an instanceCount) or the pictures. A scene with another frame count parts
    /// at the first frame one has and the other lacks, unless a value parts earlier.
    package func difference(from golden: StateTable) -> StateDifference? {
        let mine = Dictionary(columns.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let frames = max(frameCount, golden.frameCount)
        var parts: [StateDifference.Part] = []
        for g in golden.columns {
            let a = mine[g.key]
            for f in 0..<frames {
                let gv = f < golden.frameCount ? g.values[f] : nil
                let av = f < frameCount ? a?.values[f] : nil
                if !Self.matches(gv, av, g.kind) {
                    parts.append(.init(key: g.key, frame: f, time: Double(f) / fps,
                                       golden: Self.format(gv, g.kind, frameExists: f < golden.frameCount),
                                       actual: Self.format(av, g.kind, frameExists: f < frameCount)))
                    break
                }
            }
        }
        if parts.isEmpty, frameCount != golden.frameCount {
            let f = min(frameCount, golden.frameCount)
            parts.append(.init(key: "frames", frame: f, time: Double(f) / fps,
                               golden: "\(golden.frameCount) frames", actual: "\(frameCount) frames"))
        }
        return parts.isEmpty ? nil : StateDifference(parts: parts)
    }

    /// The keys of `self` that `golden` lacks, in order.
    package func newKeys(since golden: StateTable) -> [String] {
        let known = Set(golden.columns.map(\.key))
        return columns.map(\.key).filter { !known.contains($0) }
    }

    private static func matches(_ g: StateValue?, _ a: StateValue?, _ kind: StateKind) -> Bool {
        switch (g, a) {
        case (nil, nil): return true
        case (.quanta(let x)?, .quanta(let y)?):
            // Both within ±2⁵³ (the reader's bound), so the difference cannot overflow.
            let (d, overflow) = x.subtractingReportingOverflow(y)
            return !overflow && d.magnitude <= UInt64(kind.tolerance)
        case (.text(let x)?, .text(let y)?):
            if x == y { return true }
            return kind == .color && (HexColor.channelDifference(x, y).map { $0 <= kind.tolerance } ?? false)
        default: return false
        }
    }

    /// A stored value as the messages print it: numbers at their precision without
    /// trailing zeros.
    private static func format(_ v: StateValue?, _ kind: StateKind, frameExists: Bool) -> String {
        switch v {
        case nil: return frameExists ? "absent" : "no such frame"
        case .text(let s)?: return s
        case .quanta(let q)? where kind.precision > 0:
            return decimal(Double(q) * kind.precision, digits: max(0, Int((-log10(kind.precision)).rounded())))
        case .quanta(let q)?:
            return String(q)
        }
    }

    /// `v` with at most `digits` decimals, without trailing zeros: `0.233`, `34`.
    package static func decimal(_ v: Double, digits: Int) -> String {
        var s = String(format: "%.\(digits)f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }
}
