@testable import KineticCLI
import Foundation
import Kinetic
import KineticEncode
import KineticScene
import Testing

@Suite struct StateGoldenTests {
    /// The sliding square of `slidingSquareScene`: 25 frames at 50 fps, position.x 20 → 60
    /// linearly over 0.4 s (frames 0…20), then held.
    private func squareState() throws -> StateTable {
        let scene = try SceneLoader.load(text: slidingSquareScene(golden: ""), file: "square.yaml")
        return try StateTable.record(scene, maxParticles: 1000)
    }

    private func column(_ table: StateTable, _ key: String) -> StateTable.Column? {
        table.columns.first { $0.key == key }
    }

    @Test func recordsEveryFrameOfEachKeyAtItsPrecision() throws {
        let table = try squareState()
        #expect(table.frameCount == 25 && table.fps == 50)
        // x = 20 + 40·t/0.4 = 20 + 2·frame until frame 20, stored in 1e-3 pt steps.
        let x = try #require(column(table, "square.position.x"))
        #expect(x.kind == .length)
        let expected: [StateValue?] = (0..<25).map { (f: Int) -> StateValue? in .quanta(Int64(20_000 + 2_000 * min(f, 20))) }
        #expect(x.values == expected)
        let opacity: [StateValue?] = column(table, "square.opacity")?.values ?? []
        let opaque: [StateValue?] = Array(repeating: .quanta(10_000), count: 25)
        #expect(opacity == opaque)
        #expect(column(table, "square.backgroundColor")?.kind == .color)
        #expect(column(table, "square.transform.m34")?.kind == .perspective)
        #expect(column(table, "square.transform.m41")?.kind == .length)
        // Corners follow from the values; the state does not keep them.
        #expect(!table.columns.contains { $0.key.contains("corners") })
    }

    @Test func theFileRoundTripsAndCodesASteadyMotionAsOneRun() throws {
        var table = try squareState()
        // An absent stretch and text, as a removed layer and a type would give.
        table.columns.append(.init(key: "gone.type", kind: .text,
                                   values: (0..<25).map { $0 < 10 ? .text("layer") : nil }))
        let text = table.encoded()
        #expect(try StateTable.decode(text, path: "s.jsonl") == table)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("[\"square.position.x\"") })
        // 20 pt, then +2 pt twenty times, then still for four frames.
        #expect(line == "[\"square.position.x\",\"length\",[20000,[2000,20],[0,4]]]")
        #expect(text.contains("[\"gone.type\",\"text\",[[\"layer\",10],[null,15]]]"))
    }

    @Test func badFilesAreLocated() {
        #expect(throws: StateFileError.self) { try StateTable.decode("{}\n", path: "s.jsonl") }
        let head = "{\"format\":\"kinetic-state\",\"version\":1,\"frames\":3,\"fps\":10}\n"
        do {
            _ = try StateTable.decode(head + "[\"a.x\",\"length\",[1,[0,2]]]\n[\"a.y\",\"length\",[1,[0,5]]]\n", path: "s.jsonl")
            Issue.record("too many values accepted")
        } catch {
            #expect(error.description == "s.jsonl:3: a.y: more values than the 3 frames")
        }
        #expect(throws: StateFileError.self) { try StateTable.decode(head + "[\"a.x\",\"length\",[1]]\n", path: "s.jsonl") }
        #expect(throws: StateFileError.self) { try StateTable.decode(head + "[\"a.x\",\"weight\",[1,[0,2]]]\n", path: "s.jsonl") }
    }

    /// Hostile numbers (issue 37; the surfaces fuzzer found the second): a delta past
    /// Int64, a count near Int.max, 1e300 and a number under a text key are located
    /// errors, never an overflow trap.
    @Test func hostileNumbersAreLocatedErrors() {
        let head = "{\"format\":\"kinetic-state\",\"version\":1,\"frames\":3,\"fps\":10}\n"
        for row in ["[\"a.x\",\"length\",[9223372036854775807,9223372036854775807,1]]",
                    "[\"a.x\",\"length\",[[1,9223372036854775807]]]",
                    "[\"a.x\",\"length\",[1e300,0,0]]",
                    "[\"a.type\",\"text\",[[-1,3]]]"] {
            #expect(throws: StateFileError.self, "\(row)") { try StateTable.decode(head + row + "\n", path: "s.jsonl") }
        }
    }

    @Test func aDifferenceNamesTheFirstFrameWhereTheyPart() throws {
        let golden = try squareState()
        var actual = golden
        let xi = try #require(actual.columns.firstIndex { $0.key == "square.position.x" })
        let oi = try #require(actual.columns.firstIndex { $0.key == "square.opacity" })
        // x off by 2.5 pt from frame 7 on, opacity from frame 9: x parts first.
        for f in 7..<25 {
            if case .quanta(let q)? = actual.columns[xi].values[f] { actual.columns[xi].values[f] = .quanta(q + 2_500) }
        }
        for f in 9..<25 { actual.columns[oi].values[f] = .quanta(5_000) }
        let d = try #require(actual.difference(from: golden))
        #expect(d.description == "square.position.x at frame 7 (0.14 s): golden 34, actual 36.5; 1 more key differs: square.opacity from frame 9")
        #expect(golden.difference(from: golden) == nil)
    }

    @Test func tolerancesAreTenStepsForMeasuresExactForCountsOneLevelForColors() throws {
        /// The difference of one value `actual` from `golden`, of `kind`.
        func differ(_ kind: StateKind, _ actual: StateValue, _ golden: StateValue) -> StateDifference? {
            let a = StateTable(frameCount: 1, fps: 10, columns: [.init(key: "k", kind: kind, values: [actual])])
            let g = StateTable(frameCount: 1, fps: 10, columns: [.init(key: "k", kind: kind, values: [golden])])
            return a.difference(from: g)
        }
        // Ten steps of 1e-3 pt (0.01 pt) pass, eleven fail.
        #expect(differ(.length, .quanta(10), .quanta(0)) == nil)
        let over = differ(.length, .quanta(11), .quanta(0))
        #expect(over?.first.actual == "0.011")
        let count = differ(.count, .quanta(101), .quanta(100))
        #expect(count?.first.golden == "100")
        #expect(differ(.color, .text("#FF000001"), .text("#FF000000")) == nil)
        #expect(differ(.color, .text("#FD000000"), .text("#FF000000")) != nil)
        #expect(differ(.text, .text("true"), .text("false")) != nil)
    }

    @Test func anotherFrameCountPartsWhereOneEnds() throws {
        let golden = try squareState()
        var longer = golden
        longer.frameCount = 26
        for i in longer.columns.indices { longer.columns[i].values.append(longer.columns[i].values[24]) }
        let d = try #require(longer.difference(from: golden))
        #expect(d.first.frame == 25 && d.first.golden == "no such frame")
    }

    @Test func dynamicItemsAndEmitterCountsAreColumns() throws {
        let scene = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [100, 100], scale: 1, fps: 10, duration: 1, seed: 2}
            layers:
              - {id: ball, position: [50, 10], bounds: [10, 10]}
              - id: sparks
                type: emitter
                frame: [0, 0, 100, 100]
                emitterCells: [{name: spark, birthRate: 100, lifetime: 10}]
            dynamics:
              behaviors: [{gravity: {items: [ball]}}]
            """, file: "t.yaml")
        let table = try StateTable.record(scene, maxParticles: 1000)
        // Particles born: 100/s for 0.1 s per frame, counted exactly.
        let born = try #require(table.columns.first { $0.key == "sparks.cells.spark.born" })
        #expect(born.kind == .count)
        #expect(born.values[5] == StateValue.quanta(50))
        let kinds = Dictionary(table.columns.map { ($0.key, $0.kind) }, uniquingKeysWith: { a, _ in a })
        #expect(kinds["ball.item.center.y"] == .length)
        #expect(kinds["ball.item.velocity.y"] == .velocity)
    }

    @Test func aStateOverTheLimitIsRefusedBeforeItGrows() throws {
        // Two layers' ~58 keys over 100 000 frames: over 4 000 000 values, refused at the
        // first frame rather than after gathering them.
        let scene = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [10, 10], fps: 100, duration: 1000}
            layers: [{id: a, bounds: [1, 1]}, {id: b, bounds: [1, 1]}]
            """, file: "t.yaml")
        #expect(throws: StateTooLarge.self) { try StateTable.record(scene, maxParticles: 10) }
        // A file claiming as much is refused too, however few bytes it takes.
        let head = "{\"format\":\"kinetic-state\",\"version\":1,\"frames\":3000000,\"fps\":10}\n"
        let line = "[\"a.x\",\"length\",[[0,3000000]]]\n"
        #expect(throws: StateFileError.self) { try StateTable.decode(head + line + line, path: "s.jsonl") }
    }

    @Test func aKeyTheGoldenLacksIsNewNotADifferenceButAMissingOneIs() throws {
        let golden = try squareState()
        var more = golden
        more.columns.append(.init(key: "square.speed", kind: .unit, values: Array(repeating: .quanta(10_000), count: 25)))
        #expect(more.difference(from: golden) == nil)
        #expect(more.newKeys(since: golden) == ["square.speed"])
        var fewer = golden
        fewer.columns.removeAll { $0.key == "square.opacity" }
        let d = try #require(fewer.difference(from: golden))
        #expect(d.description == "square.opacity at frame 0 (0 s): golden 1, actual absent")
    }
}
