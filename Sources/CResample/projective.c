// Positions of a projective map along a destination row (see CResample.h): a loop of
// independent divisions, which the compiler vectorizes, and no branches.
#include "CResample.h"

#include <math.h>

// The positions must be the same bits on every host: no fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

void kn_projective_positions(const double m[9], double x0, double y, ptrdiff_t first, ptrdiff_t step,
                             ptrdiff_t last, ptrdiff_t count, double window_x, double window_y, int64_t *out) {
    const double cy = y + 0.5;
    const double cu = cy * m[3] + m[6], cv = cy * m[4] + m[7], cq = cy * m[5] + m[8];
    for (ptrdiff_t k = 0; k <= count; k++) {
        ptrdiff_t c = first + k * step < last ? first + k * step : last;
        double x = x0 + (double)c + 0.5;
        double q = x * m[2] + cq;
        double u = (x * m[0] + cu) / q, v = (x * m[1] + cv) / q;
        // A NaN fails the window test too.
        int valid = q > 0 && fabs(u) < window_x && fabs(v) < window_y;
        out[2 * k] = valid ? (int64_t)(u * 65536) : INT64_MIN;
        out[2 * k + 1] = valid ? (int64_t)(v * 65536) : INT64_MIN;
    }
}
