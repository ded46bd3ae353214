"""The cache boundary: loaded data, cached computations, background work, the workspace."""
