"""The move core: the C kernels on rank-count rows (generate, classify, compare), the rules
registry, the Move value and the move containers, row -> id ranking, and the validated entry
points over them. Imports nothing above it."""
