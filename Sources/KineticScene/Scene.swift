// Scene loading and the per-frame runtime.
