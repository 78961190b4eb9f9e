"""Linked and copied extensions, against Gemini CLI 0.61.0 itself (one scratch HOME).

``gemini extensions link <folder>`` writes ``~/.gemini/extensions/<name>/`` holding only
``.gemini-extension-install.json`` (``{"source": "<folder>", "type": "link"}``);
``gemini extensions install <folder>`` copies the folder there, with the record's
``"type": "local"``. Here ``linked`` and ``copied`` are installed so, then a skill is
added to each one's source folder; ``broken`` is the link record Gemini CLI wrote for
``linked``, copied to ``extensions/broken/`` and pointed at a folder that is not there.
`gemini extensions list -o json` and `gemini skills list --all --debug` say what Gemini
CLI made of it. Observed: it loads ``linked`` from its source folder (the new skill
too), ``copied`` from the copy (the new skill is not there), and leaves ``broken`` out
of both listings, saying so only with ``--debug``; satchel under host gemini must list
the same plugins, roots and skills, and name the broken link (``plugin.link.missing``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from tests.hostloop.hosts import GEMINI_SETTINGS, Turn
from tests.hostloop.shared import once
from tests.support import put
from tests.tools import gemini_env, parse_gemini_list

RECORD = ".gemini-extension-install.json"


def _skill(folder: Path, name: str) -> None:
    put(
        folder / "skills" / name / "SKILL.md",
        f"---\nname: {name}\ndescription: {name}.\n---\nDo.\n",
    )


def _source(base: Path, name: str) -> Path:
    folder = base / "src" / name
    put(folder / "gemini-extension.json", json.dumps({"name": name, "version": "1.0.0"}))
    _skill(folder, f"{name}-skill")
    return folder


def _gemini(script: Path, home: Path, project: Path, *args: str) -> Turn:
    env = gemini_env(home)
    node = shutil.which("node") or "node"
    done = subprocess.run(
        [node, str(script), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=180,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, f"gemini {' '.join(args)}: {done.stderr}"
    return Turn(done.returncode, done.stdout, done.stderr, ())


def _make(script: Path, base: Path) -> dict[str, Turn]:
    home, project = base / "home", base / "project"
    (project / ".git").mkdir(parents=True)
    sources = {name: _source(base, name) for name in ("linked", "copied")}
    put(home / ".gemini/settings.json", json.dumps(GEMINI_SETTINGS))
    # Gemini CLI installs from a local folder only once the user trusts it
    trusted = {str(p): "TRUST_FOLDER" for p in (project, *sources.values())}
    put(home / ".gemini/trustedFolders.json", json.dumps(trusted))
    run = lambda *args: _gemini(script, home, project, *args)  # noqa: E731
    run("extensions", "link", str(sources["linked"]), "--consent")
    run("extensions", "install", str(sources["copied"]), "--consent")
    for name in ("linked", "copied"):
        _skill(sources[name], f"{name}-later")
    extensions = home / ".gemini/extensions"
    record = json.loads((extensions / "linked" / RECORD).read_text(encoding="utf-8"))
    put(extensions / "broken" / RECORD, json.dumps({**record, "source": str(base / "src/broken")}))
    asked = {"extensions": ("extensions", "list", "-o", "json"),
             "skills": ("skills", "list", "--all", "--debug")}  # fmt: skip
    with ThreadPoolExecutor(max_workers=2) as pool:  # both only read
        done = {key: pool.submit(run, *args) for key, args in asked.items()}
        return {key: future.result() for key, future in done.items()}


@pytest.fixture(scope="module")
def seen(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Turn]]:
    return once(tmp_path_factory, "gemini-links", lambda base: _make(gemini, base))


def _listed(turn: Turn) -> list[dict[str, Any]]:
    """`gemini extensions list -o json` (on stdout or stderr)."""
    for text in (turn.stdout, turn.stderr):
        lines = text.splitlines()
        if "[" in lines:
            start = lines.index("[")
            found: list[dict[str, Any]] = json.loads(
                "\n".join(lines[start : lines.index("]", start) + 1])
            )
            return found
    raise AssertionError(f"gemini extensions list printed no JSON: {turn.stderr}")


def _satchel(base: Path) -> Any:
    layout = hosts.get("gemini").layout(base / "project", home=base / "home", env={})
    return satchel.load(layout=layout, host="gemini")


def test_gemini_writes_a_link_as_its_install_record_alone(seen: tuple[Path, dict[str, Turn]]):
    base, _ = seen
    folder = base / "home/.gemini/extensions/linked"
    assert sorted(p.name for p in folder.iterdir()) == [".gemini-extension-install.json"]
    record = json.loads((folder / ".gemini-extension-install.json").read_text(encoding="utf-8"))
    assert record == {"source": str(base / "src/linked"), "type": "link"}
    copied = base / "home/.gemini/extensions/copied/.gemini-extension-install.json"
    assert json.loads(copied.read_text(encoding="utf-8"))["type"] == "local"


def test_gemini_loads_a_link_from_its_folder_and_a_copy_where_it_is(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    found = {e["name"]: (Path(e["path"]), e["isActive"]) for e in _listed(runs["extensions"])}
    assert found == {
        "linked": (base / "src/linked", True),
        "copied": (base / "home/.gemini/extensions/copied", True),
    }
    view = parse_gemini_list(runs["skills"].stdout, runs["skills"].stderr)
    assert {s.name: s.path for s in view.own} == {
        "linked-skill": base / "src/linked/skills/linked-skill/SKILL.md",
        "linked-later": base / "src/linked/skills/linked-later/SKILL.md",
        "copied-skill": base / "home/.gemini/extensions/copied/skills/copied-skill/SKILL.md",
    }


def test_satchel_reads_the_extensions_gemini_lists(seen: tuple[Path, dict[str, Turn]]):
    base, runs = seen
    env = _satchel(base)
    ours = {n: (p.root, p.enabled) for n, p in env.plugins.plugins.items()}
    assert ours == {
        e["name"]: (Path(e["path"]), e["isActive"]) for e in _listed(runs["extensions"])
    }
    view = parse_gemini_list(runs["skills"].stdout, runs["skills"].stderr)
    assert {n: s.path for n, s in env.skills.items()} == {s.name: s.path for s in view.own}


def test_satchel_names_a_link_whose_folder_is_gone(seen: tuple[Path, dict[str, Turn]]):
    base, runs = seen
    gone = base / "src/broken"
    assert (
        f"Warning: Skipping extension in {gone}: Configuration file not found at "
        f"{gone / 'gemini-extension.json'}"
    ) in runs["skills"].stderr.splitlines()
    record = base / "home/.gemini/extensions/broken/.gemini-extension-install.json"
    found = [(d.code, d.message, d.path) for d in _satchel(base).diagnostics]
    assert found == [
        (
            "plugin.link.missing",
            f"the plugin 'broken' is a link (.gemini-extension-install.json), but "
            f"{base / 'src/broken'} is not a readable directory; nothing of it loads",
            record,
        )
    ]
