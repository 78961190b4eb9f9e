"""Plugin-level limits never drop silently what a host would load: a cut is a warning
that names what was left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel.plugins._discover as discover
from satchel.plugins import load_plugins


def test_plugins_past_the_per_root_limit_are_named(layout, home, monkeypatch: pytest.MonkeyPatch):
    root = home / ".agents" / "plugins"
    for name in ("alpha", "beta", "gamma", "delta"):
        manifest = root / name / ".claude-plugin" / "plugin.json"
        manifest.parent.mkdir(parents=True)
        manifest.write_text(json.dumps({"name": name}))
    monkeypatch.setattr(discover, "MAX_PLUGINS", 2)
    found = load_plugins(layout)
    assert sorted(found.plugins) == ["alpha", "beta"]
    limits = [(d.code, d.severity, d.message, d.path) for d in found.diagnostics]
    assert limits == [
        (
            "discovery.limit",
            "warning",
            "more than 2 plugins here; only the first 2 are read, not delta, gamma",
            root,
        )
    ]


def test_the_limit_is_the_documented_one():
    assert discover.MAX_PLUGINS == 256
    docs = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
    assert "at most 256 are read per root" in docs.read_text(encoding="utf-8")
