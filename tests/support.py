"""Helpers the edge-case tests share: write a file, open a session that runs nothing."""

from __future__ import annotations

import os
from pathlib import Path

import satchel
from satchel.session import Session


def put(path: Path, text: str | bytes) -> Path:
    """Write `text` at `path` (parents made); the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def session(env: satchel.Environment, **options: object) -> Session:
    """A session over `env` with only PATH in its environment and no shell interpolation."""
    return Session(  # type: ignore[arg-type]
        env,
        environ={"PATH": os.environ.get("PATH", "")},
        allow_shell_interpolation=False,
        **options,
    )
