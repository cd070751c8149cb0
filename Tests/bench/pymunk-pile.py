#!/usr/bin/env python3
"""The physics peer of `make bench`: pymunk (its own build of Chipmunk 7, Munk2D,
driven from Python) simulating the very pile a bench scene describes, the same work kinetic's
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

Collision slop (0.1) and bias ((1 − 0.1)^60 per second) are Chipmunk 7's defaults in
both; the script stops if this pymunk's differ, rather than compare unequal work.

usage: pymunk-pile.py SCENE SECONDS  → prints the CPU seconds of the step loop alone
       (process time), then the mean final y of the items (a check that the pile settled
       where kinetic's does).
       pymunk-pile.py SCENE --pile   → prints the pile as peers/chipmunk-pile.c reads it
       ("WIDTH HEIGHT STEPS_PER_SECOND FRICTION ELASTICITY", then "box|ball W H X Y").
"""
import math
import sys
import time

import yaml


def read_pile(scene_path):
    """(width, height, steps per second, material, [(is_ball, w, h, x, y)]) of a pile scene."""
    scene = yaml.safe_load(open(scene_path))
    width, height = scene["scene"]["size"]
    dynamics = scene["dynamics"]
    balls = {k for k, v in (dynamics.get("items") or {}).items() if v.get("collisionBoundsType") == "ellipse"}
    material = next(b["itemBehavior"] for b in dynamics["behaviors"] if "itemBehavior" in b)
    items = [(layer["id"] in balls, *layer["bounds"], *layer["position"]) for layer in scene["layers"]]
    return width, height, dynamics.get("stepsPerSecond", 240), material, items


def main():
    width, height, steps_per_second, material, items = read_pile(sys.argv[1])
    if sys.argv[2] == "--pile":
        print(width, height, steps_per_second, material.get("friction", 0), material.get("elasticity", 0))
        for ball, w, h, x, y in items:
            print("ball" if ball else "box", w, h, x, y)
        return
    seconds = float(sys.argv[2])
    import pymunk

    space = pymunk.Space()
    space.iterations = 10
    space.gravity = (0, 1000)
    space.sleep_time_threshold = float("inf")
    # Chipmunk 7.0.3's cpSpaceInit: slop 0.1f, bias cpfpow(1 - 0.1f, 60), both in float
    # precision (kinetic sets neither), persistence 3, damping 1.
    if not (math.isclose(space.collision_slop, 0.1, rel_tol=1e-6) and math.isclose(space.collision_bias, 0.9 ** 60, rel_tol=1e-5)
            and space.collision_persistence == 3 and space.damping == 1):
        sys.exit(f"pymunk-pile: this pymunk's collision settings differ from Chipmunk 7.0.3's defaults: "
                 f"slop {space.collision_slop}, bias {space.collision_bias}, "
                 f"persistence {space.collision_persistence}, damping {space.damping}")

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
    for ball, w, h, x, y in items:
        mass = w * h / 10000
        if ball:
            body = pymunk.Body(mass, mass * (w * w + h * h) / 16)
            shape = pymunk.Circle(body, w / 2)
        else:
            body = pymunk.Body(mass, mass * (w * w + h * h) / 12)
            shape = pymunk.Poly.create_box(body, (w, h))
        body.position = (x, y)
        shape.elasticity = material.get("elasticity", 0)
        shape.friction = material.get("friction", 0)
        space.add(body, shape)
        bodies.append(body)

    dt = 1 / steps_per_second
    start = time.process_time()
    for _ in range(round(seconds * steps_per_second)):
        space.step(dt)
    print(f"{time.process_time() - start:.3f}")
    print(f"{sum(b.position.y for b in bodies) / len(bodies):.1f}")


if __name__ == "__main__":
    main()
