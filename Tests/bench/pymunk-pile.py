#!/usr/bin/env python3
"""The physics peer of `make bench`: pymunk (Chipmunk's core, built optimized, driven
from Python) simulating the very pile a bench scene describes, the same work kinetic's
`inspect --time T` does on it.

Reads the scene (Tests/bench/scenes/pile-*.yaml): its layers are the items (`bounds`
and `position`; `collisionBoundsType: ellipse` for the balls), and its one gravity, one
collision behavior with the reference bounds as boundary and one item behavior
(friction, elasticity) act on all of them. Built as kinetic builds it (Sources/
KineticDynamics): mass = width × height / 10000 (UIKit's unit), boxes' moment
(w² + h²)/12 × mass, balls' (w² + h²)/16 × mass, four deep static walls around the
bounds with elasticity and friction 1, 10 solver iterations, no sleeping, gravity
1000 pt/s² (space gravity: the same acceleration kinetic applies as a per-body force),
fixed steps of 1 / stepsPerSecond.

usage: pymunk-pile.py SCENE SECONDS  → prints the mean final y of the items (a check
that the pile settled where kinetic's does, not a timing).
"""
import sys

import pymunk
import yaml


def main():
    scene_path, seconds = sys.argv[1], float(sys.argv[2])
    scene = yaml.safe_load(open(scene_path))
    width, height = scene["scene"]["size"]
    dynamics = scene["dynamics"]
    steps_per_second = dynamics.get("stepsPerSecond", 240)
    balls = {k for k, v in (dynamics.get("items") or {}).items() if v.get("collisionBoundsType") == "ellipse"}
    material = next(b["itemBehavior"] for b in dynamics["behaviors"] if "itemBehavior" in b)

    space = pymunk.Space()
    space.iterations = 10
    space.gravity = (0, 1000)
    space.sleep_time_threshold = float("inf")

    # The reference bounds as four deep walls (DynamicAnimator.walls(around:)).
    d = max(width, height, 100)
    static = space.static_body
    for x0, y0, x1, y1 in [(-d, -d, width + d, 0), (-d, height, width + d, height + d),
                           (-d, 0, 0, height), (width, 0, width + d, height)]:
        wall = pymunk.Poly(static, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        wall.elasticity = 1
        wall.friction = 1
        space.add(wall)

    bodies = []
    for layer in scene["layers"]:
        w, h = layer["bounds"]
        mass = w * h / 10000
        if layer["id"] in balls:
            body = pymunk.Body(mass, mass * (w * w + h * h) / 16)
            shape = pymunk.Circle(body, w / 2)
        else:
            body = pymunk.Body(mass, mass * (w * w + h * h) / 12)
            shape = pymunk.Poly.create_box(body, (w, h))
        body.position = tuple(layer["position"])
        shape.elasticity = material.get("elasticity", 0)
        shape.friction = material.get("friction", 0)
        space.add(body, shape)
        bodies.append(body)

    dt = 1 / steps_per_second
    for _ in range(round(seconds * steps_per_second)):
        space.step(dt)
    print(f"{sum(b.position.y for b in bodies) / len(bodies):.1f}")


if __name__ == "__main__":
    main()
