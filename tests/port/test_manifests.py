"""Golden tests of what port writes for each target, from each source plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.port import TARGETS, port
from tests.support import check_golden

from .plugins import claude_plugin, codex_plugin, kimi_plugin, vibe_plugin

GOLDEN = Path(__file__).parent / "golden"
SOURCES = {
    "claude": claude_plugin,
    "codex": codex_plugin,
    "kimi": kimi_plugin,
    "vibe": vibe_plugin,
}


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("target", list(TARGETS))
def test_each_written_file_is_as_golden(tmp_path, source, target):
    root = SOURCES[source](tmp_path / "plugin")
    report = port(root, [target])
    (one,) = report.targets
    names = [f.path for f in one.files]
    listing = "".join(f"{name}\n" for name in names) or "(nothing written)\n"
    check_golden(f"{source}-{target}/files.txt", listing, GOLDEN)
    for file in one.files:
        assert (root / file.path).read_text(encoding="utf-8") == file.text
        check_golden(f"{source}-{target}/{golden_name(file.path)}", file.text, GOLDEN)


def golden_name(path: str) -> str:
    """A written file's golden: its path on one level, not hidden (``.codex-plugin/
    plugin.json`` is ``_codex-plugin__plugin.json``)."""
    flat = path.replace("/", "__")
    return "_" + flat[1:] if flat.startswith(".") else flat
