"""The common assertions C1-C5 of the threat model, over every discovery case.

C1 nothing runs, C2 bounded, C3 nothing lost, C4 deterministic, C5 no traceback.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from satchel import CODES
from satchel.core._text import escape

from .build import SIBLING, is_control, make_tree, reversed_listing, snapshot, write_sibling
from .cases import CASES, Case

CHILD = Path(__file__).with_name("_tripwire_child.py")
SHIMS = (
    "sh", "bash", "zsh", "dash", "node", "npx", "npm", "uvx", "python", "python3",
    "python3.11", "git", "curl", "wget", "touch",
)  # fmt: skip
TIME_BOUND = 2.0  # seconds: a safety bound, not a benchmark
RSS_BOUND_KIB = 64 * 1024
# Codes whose diagnostics point at a line of the file.
LINE_CODES = frozenset(
    (
        "encoding.not-utf8", "encoding.nul", "frontmatter.missing", "frontmatter.not-mapping",
        "frontmatter.too-large", "frontmatter.unterminated", "frontmatter.yaml.alias",
        "frontmatter.yaml.colon-fallback", "frontmatter.yaml.duplicate-key",
        "frontmatter.yaml.merge", "frontmatter.yaml.syntax", "frontmatter.yaml.tag",
    )
)  # fmt: skip
IDS = [c.id for c in CASES]


@pytest.fixture(scope="module")
def shims(tmp_path_factory) -> Path:
    """A PATH of tripwires: each appends to $TRIPWIRE_LOG and exits 97."""
    directory = tmp_path_factory.mktemp("bin")
    for name in SHIMS:
        shim = directory / name
        shim.write_text('#!/bin/sh\necho "$0 $*" >> "$TRIPWIRE_LOG"\nexit 97\n')
        shim.chmod(0o755)
    return directory


def _built(tmp_path: Path, case: Case):
    tree = make_tree(tmp_path)
    case.build(tree)
    write_sibling(tree.skills)
    return tree


@pytest.fixture(scope="module")
def tripwire(tmp_path_factory, shims) -> dict[str, dict]:
    """Every case loaded once in one child process whose PATH holds only tripwires."""
    specs = []
    for case in CASES:
        base = tmp_path_factory.mktemp("tripwire")
        tree = _built(base, case)
        specs.append(
            {
                "id": case.id,
                "base": str(base),
                "project": str(tree.project),
                "home": str(tree.home),
                "fixture": str(tree.project.parent),
                "canary": str(tree.canary),
                "log": str(base / "tripwire.log"),
                "walk": None if case.walk is None else dataclasses.asdict(case.walk),
            }
        )
    probe_base = tmp_path_factory.mktemp("probe")
    probe_tree = make_tree(probe_base)
    specs.append(
        {
            **specs[0],
            "id": "probe",
            "base": str(probe_base),
            "project": str(probe_tree.project),
            "home": str(probe_tree.home),
            "fixture": str(probe_tree.project.parent),
            "canary": str(probe_tree.canary),
            "log": str(probe_base / "tripwire.log"),
            "walk": None,
            "probe": str(probe_tree.outside / "secret.md"),
        }
    )
    spec_file = tmp_path_factory.mktemp("spec") / "cases.json"
    spec_file.write_text(json.dumps(specs), encoding="utf-8")
    env = {"PATH": str(shims), "HOME": specs[0]["home"], "LC_ALL": "C.UTF-8"}
    proc = subprocess.run(
        [sys.executable, str(CHILD), str(spec_file)],
        cwd=specs[0]["base"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    for spec in specs:
        results[spec["id"]]["log"] = Path(spec["log"])
        results[spec["id"]]["canary"] = Path(spec["canary"])
    return results


def test_tripwire_catches_a_process_and_an_outside_read(tripwire):
    """The harness itself: a probe that runs a shell and reads a secret is caught."""
    result = tripwire["probe"]

    assert [e.split()[0] for e in result["forbidden"]] == ["os.system"]
    assert [e.split()[0] for e in result["outside"]] == ["open"]
    assert "touch" in result["log"].read_text()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_loading_runs_nothing_and_is_bounded(tripwire, case: Case):
    """C1 and C2: no process, socket or file outside the fixture; only SKILL.md files
    are opened; no canary; under the time and memory bounds."""
    result = tripwire[case.id]

    assert result["error"] is None, result["error"]
    assert result["forbidden"] == []
    assert result["outside"] == []
    assert [p for p in result["opened"] if os.path.basename(p) != "SKILL.md"] == []
    assert not result["log"].exists(), result["log"].read_text()
    assert sorted(os.listdir(result["canary"])) == []
    assert result["seconds"] < TIME_BOUND
    assert result["rss_growth_kib"] < RSS_BOUND_KIB
    assert SIBLING in result["skills"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_sibling_loads_and_nothing_is_changed(tmp_path, monkeypatch, case: Case):
    """C3: the valid sibling loads, and no file of the fixture changes."""
    tree = _built(tmp_path, case)
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)

    env = tree.load(case.walk)

    assert SIBLING in env.skills
    assert env.skills[SIBLING].path == tree.skills / SIBLING / "SKILL.md"
    assert snapshot(tmp_path) == before
    assert sorted(os.listdir(tree.canary)) == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_diagnostics_are_deterministic(tmp_path, monkeypatch, case: Case):
    """C4: the same result twice, and with directory listings in reversed order."""
    tree = _built(tmp_path, case)
    monkeypatch.chdir(tmp_path)

    def outcome():
        env = tree.load(case.walk)
        return env.diagnostics, [(s.name, s.path) for s in env.skills.values()]

    first = outcome()
    assert outcome() == first
    with reversed_listing(monkeypatch):
        assert outcome() == first


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_diagnostics_are_well_formed(tmp_path, monkeypatch, case: Case):
    """C5: registered code, a path, a line where the code has one, one clean line of text."""
    tree = _built(tmp_path, case)
    monkeypatch.chdir(tmp_path)

    env = tree.load(case.walk)

    for d in env.diagnostics:
        assert d.code in CODES
        assert d.severity in ("error", "warning", "info")
        assert d.path is not None, d
        assert d.line is None or d.line >= 1
        if d.code in LINE_CODES:
            assert d.line is not None, d
        assert d.message.strip(), d
        for text in (d.message, d.hint or ""):
            assert [c for c in escape(text) if is_control(c)] == [], d
