"""A layout whose cwd is a folder of the project, for the walks from the root down."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel


@pytest.fixture
def walk_layout(project: Path, home: Path):  # type: ignore[no-untyped-def]
    def make(*parts: str) -> satchel.Layout:
        cwd = project.joinpath(*parts)
        cwd.mkdir(parents=True, exist_ok=True)
        return satchel.Layout.default(cwd, home=home, project=project, env={})

    return make
