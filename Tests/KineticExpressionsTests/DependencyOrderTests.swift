import Testing
import KineticExpressions

private func sorted(_ graph: [String: [String]], _ nodes: [String]) -> Result<[String], DependencyCycles<String>> {
    DependencyOrder.sort(nodes) { graph[$0] ?? [] }
}

/// True when every node comes after each of its dependencies.
private func respects(_ order: [String], _ graph: [String: [String]]) -> Bool {
    let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    return graph.allSatisfy { node, deps in
        deps.allSatisfy { dep in (position[dep] ?? .max) < (position[node] ?? .min) }
    }
}

@Test func twoNodeCycleIsNamedInOrder() {
    let graph = ["a.position.x": ["b.position.y"], "b.position.y": ["a.position.x"]]
    guard case .failure(let found) = sorted(graph, ["a.position.x", "b.position.y"]), let cycle = found.cycles.first else {
        Issue.record("no cycle found")
        return
    }
    #expect(cycle.members == ["a.position.x", "b.position.y"])
    #expect(cycle.description { $0 } == "a.position.x → b.position.y → a.position.x")
}

@Test func selfReferenceIsACycle() {
    guard case .failure(let found) = sorted(["a": ["a"]], ["a"]), let cycle = found.cycles.first else {
        Issue.record("no cycle found")
        return
    }
    #expect(cycle.description { $0 } == "a → a")
}

@Test func cycleBehindAnAcyclicPrefixNamesOnlyTheCycle() {
    let graph = ["root": ["a"], "a": ["b"], "b": ["c"], "c": ["a"], "other": []]
    guard case .failure(let found) = sorted(graph, ["other", "root"]) else {
        Issue.record("no cycle found")
        return
    }
    #expect(found.cycles.map(\.members) == [["a", "b", "c"]])
}

@Test func independentCyclesAreAllFound() {
    // Two cycles that share nothing, and a self-reference, behind acyclic nodes.
    let graph = ["a": ["b"], "b": ["a"], "x": ["c"], "c": ["d"], "d": ["c"], "s": ["s"], "free": []]
    guard case .failure(let found) = sorted(graph, ["free", "a", "x", "s"]) else {
        Issue.record("no cycle found")
        return
    }
    #expect(found.cycles.map(\.members) == [["a", "b"], ["c", "d"], ["s"]])
}

@Test func diamondSortsDependenciesFirstAndIncludesReachableNodes() throws {
    // d depends on b and c, both on a; "a" itself is not listed but is reached.
    let graph = ["d": ["b", "c"], "b": ["a"], "c": ["a"]]
    let order = try sorted(graph, ["d", "c", "b"]).get()
    #expect(order == ["a", "b", "c", "d"])
    #expect(respects(order, graph))
}

@Test func independentNodesKeepTheirOrder() throws {
    #expect(try sorted([:], ["z", "y", "x", "y"]).get() == ["z", "y", "x"])
}

@Test func thousandNodeChainSorts() throws {
    // n0 depends on n1, …, n998 on n999; listed in a scrambled order.
    var graph: [String: [String]] = [:]
    for i in 0..<999 { graph["n\(i)"] = ["n\(i + 1)"] }
    let names = (0..<1000).map { "n\(($0 * 379) % 1000)" }   // 379 is coprime to 1000
    let order = try sorted(graph, names).get()
    #expect(order == (0..<1000).reversed().map { "n\($0)" })
}

@Test func longChainDoesNotExhaustTheStack() throws {
    let n = 200_000
    let order = try DependencyOrder.sort([0]) { $0 < n - 1 ? [$0 + 1] : [] }.get()
    #expect(order.count == n && order.first == n - 1 && order.last == 0)
}
