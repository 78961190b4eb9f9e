"""What the policy tests share: a system policy directory named by the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import put


def system_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    """`text` as the system's policy.toml, in a directory ``SATCHEL_POLICY_DIR`` names."""
    folder = tmp_path / "etc" / "satchel"
    monkeypatch.setenv("SATCHEL_POLICY_DIR", str(folder))
    return put(folder / "policy.toml", text)
