"""Writes the large hostile scenes of Tests/cli/hostile.sh into the current folder
(generated: they are megabytes of text). Deterministic (seeded)."""
import random

random.seed(14)
HEAD = ["kinetic: 1", "scene: {size: [40, 30], fps: 10, duration: 0.2}", "layers:"]


def write(name, lines):
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")


# 2^22 layers from 1.3 KB: each anchor's layer holds two aliases of the one before.
laughs = HEAD + ["  - &l0 {bounds: [1, 1]}"]
laughs += [f"  - &l{i} {{bounds: [1, 1], sublayers: [*l{i - 1}, *l{i - 1}]}}" for i in range(1, 23)]
write("laughs.yaml", laughs)

# 20,000 layers, each reading the one before; 5,000 in one cycle.
chain = HEAD + ["  - {id: l0, position: [1, 1], bounds: [1, 1]}"]
chain += [f"  - {{id: l{i}, position: ['= l{i - 1}.position.x', 1], bounds: [1, 1]}}" for i in range(1, 20000)]
write("chain.yaml", chain)
n = 5000
write("cycle.yaml", HEAD + [f"  - {{id: l{i}, position: ['= l{(i + 1) % n}.position.x', 1], bounds: [1, 1]}}"
                            for i in range(n)])


def scribble(count):
    return "M 0 0 " + " ".join(f"L {random.uniform(0, 100):.2f} {random.uniform(0, 100):.2f}" for _ in range(count))


# Self-intersecting stroked path and collision boundary of 100,000 segments.
write("stroke.yaml", ["kinetic: 1", "scene: {size: [100, 100], fps: 10, duration: 0.1}", "layers:",
                      f"  - {{type: shape, bounds: [100, 100], strokeColor: black, lineWidth: 3, path: \"{scribble(100000)}\"}}"])
write("boundary.yaml", ["kinetic: 1", "scene: {size: [100, 100], fps: 10, duration: 0.5}", "layers:",
                        "  - {id: box, position: [50, 50], bounds: [10, 10], backgroundColor: red}",
                        "dynamics:", "  behaviors:", "    - gravity: {items: [box]}",
                        f"    - collision: {{items: [box], boundaries: [{{identifier: z, path: \"{scribble(100000)}\"}}]}}"])

# 5,000 random cubics: few elements, but ~90,000 chords to stroke (73 s for 10,000).
curves = "M 0 0 " + " ".join("C " + " ".join(f"{random.uniform(0, 100):.1f}" for _ in range(6)) for _ in range(5000))
write("curves.yaml", ["kinetic: 1", "scene: {size: [100, 100], fps: 10, duration: 0.1}", "layers:",
                      f"  - {{type: shape, bounds: [100, 100], strokeColor: black, lineWidth: 3, path: \"{curves}\"}}"])
