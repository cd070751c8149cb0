/// Orders values so that each comes after everything it depends on, for evaluating
/// references at a frame (section 4: "reference cycles are an error at load time,
/// naming the cycle").
public enum DependencyOrder {
    /// Every node in `nodes` and every node they reach through `dependencies`, each after
    /// its dependencies; nodes with no order between them keep their first-seen order
    /// (depth-first from `nodes` in order). Fails with every cycle the walk closes — at
    /// least one in each group of nodes that depend on each other, so independent cycles
    /// are all reported at once — in the order found.
    ///
    /// `dependencies` is called once per node. The walk keeps its own stack, so long
    /// chains do not exhaust the call stack.
    public static func sort<Node: Hashable & Sendable>(
        _ nodes: [Node], dependencies: (Node) -> [Node]
    ) -> Result<[Node], DependencyCycles<Node>> {
        var state: [Node: VisitState] = [:]
        var order: [Node] = []
        var cycles: [DependencyCycle<Node>] = []
        // The current path from a root: each node with its dependencies and how many of
        // them have been visited.
        var path: [(node: Node, dependencies: [Node], next: Int)] = []

        for root in nodes where state[root] == nil {
            state[root] = .inProgress
            path.append((root, dependencies(root), 0))
            while let top = path.last {
                guard top.next < top.dependencies.count else {
                    path.removeLast()
                    state[top.node] = .done
                    order.append(top.node)
                    continue
                }
                let dependency = top.dependencies[top.next]
                path[path.count - 1].next += 1
                switch state[dependency] {
                case .done:
                    continue
                case .inProgress:
                    // On the current path: the path from it to the top closes the cycle.
                    // The walk goes on without this edge, to find the other cycles.
                    let start = path.firstIndex { $0.node == dependency } ?? 0
                    cycles.append(DependencyCycle(members: path[start...].map(\.node)))
                case nil:
                    state[dependency] = .inProgress
                    path.append((dependency, dependencies(dependency), 0))
                }
            }
        }
        return cycles.isEmpty ? .success(order) : .failure(DependencyCycles(cycles: cycles))
    }
}

/// The cycles `DependencyOrder.sort` found, each reported on its own.
public struct DependencyCycles<Node: Hashable & Sendable>: Error, Hashable {
    public let cycles: [DependencyCycle<Node>]

    public init(cycles: [DependencyCycle<Node>]) {
        self.cycles = cycles
    }
}

/// A dependency cycle: each member depends on the next, and the last on the first.
public struct DependencyCycle<Node: Hashable & Sendable>: Error, Hashable {
    /// The members in dependency order, each once; a node depending on itself is alone.
    public let members: [Node]

    public init(members: [Node]) {
        self.members = members
    }

    /// The cycle as `a → b → a`, closing back on the first member.
    public func description(naming name: (Node) -> String) -> String {
        (members + members.prefix(1)).map(name).joined(separator: " → ")
    }
}

private enum VisitState {
    /// On the current depth-first path.
    case inProgress
    /// Placed in the order.
    case done
}
