"""Staging directories shared by concurrent installs."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.install import _staging


def test_a_staging_area_removed_by_another_install_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another install removes the shared area once it finds it empty; when that
    falls between our making the area and our directory in it, ours is still made."""
    area = tmp_path / _staging.PLACING
    made = Path.mkdir
    removed = []

    def mkdir(self: Path, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)  # type: ignore[arg-type]
        if self == area and not removed:
            removed.append(self)
            self.rmdir()  # what the other install's clean-up does

    monkeypatch.setattr(Path, "mkdir", mkdir)
    work = _staging._new_dir(area)
    assert removed == [area]
    assert work.is_dir() and work.parent == area
