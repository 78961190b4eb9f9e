"""A session for the edge-case tests: one that runs nothing it was not told to."""

from __future__ import annotations

import os

import satchel
from satchel.session import Session


def session(env: satchel.Environment, **options: object) -> Session:
    """A session over `env` with only PATH in its environment and no shell interpolation."""
    return Session(  # type: ignore[arg-type]
        env,
        environ={"PATH": os.environ.get("PATH", "")},
        allow_shell_interpolation=False,
        **options,
    )
