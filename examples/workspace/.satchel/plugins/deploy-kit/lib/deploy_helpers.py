"""Helpers for code that drives a rollout: `import deploy_helpers`."""

WAVES = (10, 50, 100)


def next_wave(done: int) -> int | None:
    """The next wave's percentage after `done` percent, or None when all is rolled out."""
    return next((wave for wave in WAVES if wave > done), None)


def within_budget(errors: int, requests: int, max_rate: float) -> bool:
    """Whether a wave's 5xx rate stays under `max_rate` (a fraction, 0.005 = 0.5 %)."""
    return requests == 0 or errors / requests <= max_rate
