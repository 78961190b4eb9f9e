"""Running hooks: the runner, its output parsing and the aggregation of answers."""
