/* The physics rows' referee (docs/dynamics.md): one C program stepping the same pile
 * through whichever Chipmunk library it is given, so that two builds of Chipmunk are
 * compared with nothing else different — no Swift, no Python, no scene loading.
 *
 *   chipmunk-pile LIBRARY PILE.txt SECONDS
 *
 * LIBRARY is loaded with dlopen: Debian's libchipmunk.so.7 (what kinetic links) or
 * pymunk's _chipmunk.abi3.so (its bundled Chipmunk fork, Munk2D; run with libpython
 * preloaded, LD_PRELOAD=libpython3.11.so.1, as that module refers to Python's symbols).
 * PILE.txt is what physics.sh writes from a pile scene: "WIDTH HEIGHT STEPS_PER_SECOND
 * FRICTION ELASTICITY", then one "box|ball W H X Y" line per item. Built as kinetic and
 * pymunk-pile.py build it: mass w × h / 10000, moments (w² + h²)/12 and /16 × mass, four
 * deep static boxes around the bounds (elasticity and friction 1), 10 iterations,
 * Chipmunk's default collision slop and bias, no sleeping, gravity 1000 pt/s².
 *
 * Prints "CPU_SECONDS_OF_STEPPING MEAN_FINAL_Y": the CPU time (CLOCK_PROCESS_CPUTIME_ID)
 * of the step loop alone, and the pile's mean y (the check that both simulated alike).
 *
 * Build: cc -O2 chipmunk-pile.c -o chipmunk-pile -ldl */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Chipmunk 7's ABI for the few calls used: opaque pointers, cpFloat = double. */
typedef struct { double x, y; } cpVect;
typedef struct { double l, b, r, t; } cpBB;
typedef void *Ptr;

static Ptr (*cpSpaceNew)(void);
static void (*cpSpaceSetIterations)(Ptr, int);
static void (*cpSpaceSetGravity)(Ptr, cpVect);
static void (*cpSpaceSetSleepTimeThreshold)(Ptr, double);
static Ptr (*cpSpaceGetStaticBody)(Ptr);
static Ptr (*cpSpaceAddBody)(Ptr, Ptr);
static Ptr (*cpSpaceAddShape)(Ptr, Ptr);
static void (*cpSpaceStep)(Ptr, double);
static Ptr (*cpBodyNew)(double, double);
static void (*cpBodySetPosition)(Ptr, cpVect);
static cpVect (*cpBodyGetPosition)(Ptr);
static Ptr (*cpBoxShapeNew)(Ptr, double, double, double);
static Ptr (*cpBoxShapeNew2)(Ptr, cpBB, double);
static Ptr (*cpCircleShapeNew)(Ptr, double, cpVect);
static void (*cpShapeSetElasticity)(Ptr, double);
static void (*cpShapeSetFriction)(Ptr, double);

static void *need(void *lib, const char *name) {
    void *f = dlsym(lib, name);
    if (!f) { fprintf(stderr, "chipmunk-pile: %s has no %s\n", "the library", name); exit(1); }
    return f;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: chipmunk-pile LIBRARY PILE.txt SECONDS\n"); return 2; }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "chipmunk-pile: %s\n", dlerror()); return 1; }
#define LOAD(name) *(void **)&name = need(lib, #name)
    LOAD(cpSpaceNew); LOAD(cpSpaceSetIterations); LOAD(cpSpaceSetGravity);
    LOAD(cpSpaceSetSleepTimeThreshold); LOAD(cpSpaceGetStaticBody); LOAD(cpSpaceAddBody);
    LOAD(cpSpaceAddShape); LOAD(cpSpaceStep); LOAD(cpBodyNew); LOAD(cpBodySetPosition);
    LOAD(cpBodyGetPosition); LOAD(cpBoxShapeNew); LOAD(cpBoxShapeNew2); LOAD(cpCircleShapeNew);
    LOAD(cpShapeSetElasticity); LOAD(cpShapeSetFriction);

    FILE *in = fopen(argv[2], "r");
    if (!in) { perror(argv[2]); return 1; }
    double width, height, friction, elasticity;
    int steps_per_second;
    if (fscanf(in, "%lf %lf %d %lf %lf", &width, &height, &steps_per_second, &friction, &elasticity) != 5) {
        fprintf(stderr, "chipmunk-pile: bad header in %s\n", argv[2]); return 1;
    }
    Ptr space = cpSpaceNew();
    cpSpaceSetIterations(space, 10);
    cpSpaceSetGravity(space, (cpVect){0, 1000});
    cpSpaceSetSleepTimeThreshold(space, 1.0 / 0.0);

    double d = width > height ? width : height;
    if (d < 100) d = 100;
    Ptr ground = cpSpaceGetStaticBody(space);
    cpBB walls[4] = {{-d, -d, width + d, 0}, {-d, height, width + d, height + d},
                     {-d, 0, 0, height}, {width, 0, width + d, height}};
    for (int k = 0; k < 4; k++) {
        Ptr s = cpBoxShapeNew2(ground, walls[k], 0);
        cpShapeSetElasticity(s, 1); cpShapeSetFriction(s, 1);
        cpSpaceAddShape(space, s);
    }

    Ptr *bodies = NULL;
    int n = 0, capacity = 0;
    char kind[8];
    double w, h, x, y;
    while (fscanf(in, "%7s %lf %lf %lf %lf", kind, &w, &h, &x, &y) == 5) {
        double mass = w * h / 10000;
        int ball = strcmp(kind, "ball") == 0;
        Ptr body = cpBodyNew(mass, mass * (w * w + h * h) / (ball ? 16 : 12));
        cpBodySetPosition(body, (cpVect){x, y});
        cpSpaceAddBody(space, body);
        Ptr s = ball ? cpCircleShapeNew(body, w / 2, (cpVect){0, 0}) : cpBoxShapeNew(body, w, h, 0);
        cpShapeSetElasticity(s, elasticity); cpShapeSetFriction(s, friction);
        cpSpaceAddShape(space, s);
        if (n == capacity) { capacity = capacity ? 2 * capacity : 256; bodies = realloc(bodies, capacity * sizeof *bodies); }
        bodies[n++] = body;
    }
    fclose(in);

    long steps = (long)(atof(argv[3]) * steps_per_second + 0.5);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < steps; i++) cpSpaceStep(space, 1.0 / steps_per_second);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += cpBodyGetPosition(bodies[i]).y;
    printf("%.3f %.1f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, n ? sum / n : 0);
    return 0;
}
