/* The C+Cairo peer of issue 42's bench rows: draws Tests/bench/make-rects.py's 300
 * rounded rectangles with direct Cairo calls, as Kinetic draws rects-300.yaml.
 *
 *   cairo-frame RECTS.txt --frame N -o OUT.png   one frame, written as a PNG
 *   cairo-frame RECTS.txt --frames COUNT         frames 0..COUNT-1, each drawn and discarded
 *
 * Each frame: clear to the background, scale by the scene's scale, translate by the
 * stage's linear slide at t = N / fps, then each rectangle as four 90° circular arcs
 * (Kinetic's BezierPath.roundedRect) filled with its opaque colour. One ARGB32 surface
 * of the scene's pixel size serves every frame, as a renderer would reuse it.
 *
 * Build: cc -O2 cairo-frame.c -o cairo-frame $(pkg-config --cflags --libs cairo) -lm */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x, y, w, h, r, red, green, blue; } Rect;

static void rounded_rect(cairo_t *cr, const Rect *q) {
    double r = fmin(q->r, fmin(q->w, q->h) / 2);
    cairo_new_sub_path(cr);
    cairo_arc(cr, q->x + q->w - r, q->y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, q->x + q->w - r, q->y + q->h - r, r, 0, M_PI / 2);
    cairo_arc(cr, q->x + r, q->y + q->h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, q->x + r, q->y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s RECTS.txt --frame N -o OUT.png | --frames COUNT\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 1; }
    double width, height, scale, fps, duration, bg[3], from, to;
    if (fscanf(in, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &width, &height, &scale, &fps, &duration,
               &bg[0], &bg[1], &bg[2], &from, &to) != 10) {
        fprintf(stderr, "%s: bad canvas line\n", argv[1]);
        return 1;
    }
    Rect rects[1024];
    int n = 0;
    while (n < 1024 && fscanf(in, "%lf %lf %lf %lf %lf %lf %lf %lf", &rects[n].x, &rects[n].y, &rects[n].w,
                              &rects[n].h, &rects[n].r, &rects[n].red, &rects[n].green, &rects[n].blue) == 8)
        n++;
    double extra;
    if (fscanf(in, "%lf", &extra) == 1) {
        fprintf(stderr, "%s: more than %d rectangles or a malformed line after rectangle %d\n", argv[1], 1024, n);
        return 1;
    }
    fclose(in);

    int first = 0, count = 1;
    const char *out = NULL;
    if (strcmp(argv[2], "--frame") == 0 && argc == 6 && strcmp(argv[4], "-o") == 0) {
        first = atoi(argv[3]);
        out = argv[5];
    } else if (strcmp(argv[2], "--frames") == 0) {
        count = atoi(argv[3]);
    } else {
        fprintf(stderr, "%s: unknown arguments\n", argv[0]);
        return 2;
    }

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)lround(width * scale),
                                                          (int)lround(height * scale));
    cairo_t *cr = cairo_create(surface);
    for (int frame = first; frame < first + count; frame++) {
        double t = fmin(frame / fps / duration, 1);
        cairo_identity_matrix(cr);
        cairo_set_source_rgb(cr, bg[0] / 255, bg[1] / 255, bg[2] / 255);
        cairo_paint(cr);
        cairo_scale(cr, scale, scale);
        cairo_translate(cr, from + (to - from) * t, 0);
        for (int i = 0; i < n; i++) {
            rounded_rect(cr, &rects[i]);
            cairo_set_source_rgb(cr, rects[i].red / 255, rects[i].green / 255, rects[i].blue / 255);
            cairo_fill(cr);
        }
        cairo_surface_flush(surface);
    }
    int status = 0;
    if (out && cairo_surface_write_to_png(surface, out) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], out);
        status = 1;
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    return status;
}
