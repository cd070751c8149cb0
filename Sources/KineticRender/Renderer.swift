// Cairo rasterizer.
