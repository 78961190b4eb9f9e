"""The common invariants C1-C5 of the threat model over all 50 named cases (corpus.py).

Every case is built once and played in one tripwire child (runtime_build.py): PATH
holds only shims that log and exit 97 (the git cases get the real git beside them), and
an audit hook records every process started, every socket used and every file opened
outside the fixture. Then:

* C1 nothing executed: no process (but git for a git source), no socket, no file read
  outside the fixture, no canary, no tripwire log;
* C2 bounded: every phase under a "did not hang" bound, memory growth under 64 MiB;
* C3 nothing lost: no file of the fixture (home, project, sibling skills, sources)
  changed or vanished; only an install may add files, and only where it installs;
* C4 deterministic: the same diagnostics from two fresh builds, the second with every
  directory listing reversed;
* C5 no traceback: no step raised, no command exited with satchel's bug code, every
  diagnostic is registered and prints on clean lines, every output escapes control
  characters.

What each case must *do* is tested in depth where the table says (`Entry.tested`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from satchel import CODES
from satchel.cli._exit import BUG
from satchel.core._text import escape

from .build import SIBLING, Tree, is_control, make_tree, reversed_listing, snapshot, write_sibling
from .corpus import CORPUS, REGRESSION_IDS, THREAT_MODEL_IDS, W01_GOOD, W01_HOSTS, Entry, outcome
from .runtime_build import make_shims

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="the tripwire reads /proc for the files it opened"
)

CHILD = Path(__file__).with_name("runtime_build.py")
HANG = 30.0  # seconds per phase: "did not hang", not a benchmark
RSS_BOUND_KIB = 64 * 1024
IDS = [e.id for e in CORPUS]
# Where an install may add files: its scope's skills and lock, the user cache.
INSTALL_TREES = ("project/.satchel/skills", "home/.cache")
INSTALL_FILES = ("project/.satchel", "project/.satchel/skills.lock")


def test_every_named_case_of_the_threat_model_is_in_the_table():
    """None of the 50 can be forgotten: the table holds exactly the threat model's ids,
    once each, in its order, then the cases beyond it, and each names where it is
    tested in depth."""
    assert len(THREAT_MODEL_IDS) == 50
    assert [*THREAT_MODEL_IDS, *REGRESSION_IDS] == IDS
    root = Path(__file__).parents[2]
    for item in CORPUS:
        assert item.tested, item.id
        for where in item.tested:
            assert (root / where.split("::")[0]).is_file(), (item.id, where)


def _fixture(tree: Tree) -> Path:
    return tree.project.parent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> dict[str, dict[str, Any]]:
    """Every case built and played once, in one child whose PATH holds only tripwires."""
    shims = make_shims(tmp_path_factory.mktemp("bin"))
    with_git = make_shims(tmp_path_factory.mktemp("bin-git"))
    (with_git / "git").unlink()
    git = shutil.which("git")
    assert git is not None, "the git install cases need git"
    (with_git / "git").symlink_to(git)
    specs, played = [], {}
    for item in CORPUS:
        base = tmp_path_factory.mktemp(item.id)
        tree = make_tree(base)
        built = item.build(tree)
        write_sibling(tree.skills)
        environ = {"HOME": str(tree.home)}
        if item.programs:
            environ["PATH"] = str(with_git)
        specs.append(
            {
                "id": item.id,
                "base": str(base),
                "project": str(tree.project),
                "home": str(tree.home),
                "fixture": str(_fixture(tree)),
                "canary": str(tree.canary),
                "log": str(base / "tripwire.log"),
                "environ": environ,
                "steps": item.steps(tree, built) if item.steps else [],
            }
        )
        played[item.id] = {"tree": tree, "before": snapshot(_fixture(tree))}
    spec_file = tmp_path_factory.mktemp("spec") / "corpus.json"
    spec_file.write_text(json.dumps(specs), encoding="utf-8")
    env = {"PATH": str(shims), "HOME": specs[0]["home"], "LC_ALL": "C.UTF-8"}
    proc = subprocess.run(
        [sys.executable, str(CHILD), str(spec_file)],
        cwd=specs[0]["base"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    raw = json.loads(proc.stdout)
    for spec in specs:
        record = played[spec["id"]]
        record.update(raw[spec["id"]])
        record["after"] = snapshot(_fixture(record["tree"]))
        record["log"] = Path(spec["log"])
    return played


def _values(record: dict[str, Any]) -> dict[str, Any]:
    return {label: step["value"] for label, step in record["steps"].items()}


@pytest.mark.parametrize("item", CORPUS, ids=IDS)
def test_c1_nothing_executed(corpus, item: Entry):
    """No process but the programs the case allows (git, for a git source), no socket,
    nothing opened outside the fixture, no canary, no tripwire called."""
    record = corpus[item.id]
    tree: Tree = record["tree"]

    assert record["error"] is None, record["error"]
    started = [e for e in record["events"] if e["kind"] == "exec"]
    assert [e for e in started if os.path.basename(e["argv"][0]) not in item.programs] == []
    assert [e for e in record["events"] if e["kind"] == "outside"] == []
    assert sorted(os.listdir(tree.canary)) == []
    assert not record["log"].exists(), record["log"].read_text()


@pytest.mark.parametrize("case", [e.id for e in CORPUS if e.id.startswith("H")])
def test_c1_the_hooks_loaded_so_the_tripwire_had_something_to_catch(corpus, case):
    """H01-H07: the trusted project's hooks all loaded (and, by C1, none ran)."""
    listed = json.loads(_values(corpus[case])["hooks json"]["out"])["hooks"]
    names = [h["name"] for h in listed if h["status"] == "loaded"]
    assert [f"{case.lower()}-0", f"{case.lower()}-1"] == names[:2]


def test_c1_an_untrusted_project_runs_no_hook_at_all(corpus):
    """T01, T02: the session start and the tool call ran no hook; the project is not
    trusted, whatever its own files claim (T02)."""
    for case in ("T01", "T02"):
        values = _values(corpus[case])
        assert values["load"]["trusted"] is False, case
        assert values["session start"]["ran"] == 0, case
        assert values["tool call"]["ran"] == 0, case


@pytest.mark.parametrize(
    ("case", "held"),
    [
        (
            "T03",
            [
                "hook project/before_tool_use/*#1",
                "hook project/session_start/*#1",
                "mcp-server deploy (project config)",
            ],
        ),
        (
            "T04",
            [
                "hook plugin:gate/before_tool_use/*#1",
                "hook plugin:gate/before_tool_use/*#2",
                "hook plugin:gate/session_start/*#1",
                "hook plugin:gate/session_start/*#2",
                "hook project/before_tool_use/*#1",
                "hook project/session_start/*#1",
            ],
        ),
        (
            "T05",
            [
                "hook claude-project/before_tool_use/*#1",
                "hook claude-project/before_tool_use/*#2",
                "hook claude-project/session_start/*#1",
                "hook claude-project/session_start/*#2",
            ],
        ),
    ],
)
def test_c1_a_changed_hook_is_held_back(corpus, case, held):
    """T03-T05: every changed or new hook of the trusted project is held back (T04:
    however its command names its script; T05: Claude Code's settings.json hooks), so
    firing runs nothing."""
    values = _values(corpus[case])
    assert values["load"]["trusted"] is True
    changed = [d[2] for d in values["load"]["diagnostics"] if d[0] == "trust.changed"]
    assert [m.split(" changed since ")[0].split(" is new since ")[0] for m in changed] == held
    assert values["session start"]["ran"] == 0
    assert values["tool call"]["ran"] == 0


@pytest.mark.parametrize("item", CORPUS, ids=IDS)
def test_c2_bounded(corpus, item: Entry):
    """Every phase returned well within the bound; memory grew less than 64 MiB."""
    record = corpus[item.id]

    slow = {label: s["seconds"] for label, s in record["steps"].items() if s["seconds"] > HANG}
    assert slow == {}
    assert record["rss_growth_kib"] < RSS_BOUND_KIB


OWN_CACHE = "home/.cache/satchel/discovery"  # satchel's discovery cache in the fixture's home


def _own_cache(rel: str) -> bool:
    return rel == OWN_CACHE or OWN_CACHE.startswith(f"{rel}/") or rel.startswith(f"{OWN_CACHE}/")


@pytest.mark.parametrize("item", CORPUS, ids=IDS)
def test_c3_nothing_lost(corpus, item: Entry):
    """No file of the fixture changed or vanished; the sibling still loads; only an
    install added files, and only where installs go."""
    record = corpus[item.id]
    before, after = record["before"], record["after"]

    assert {k: (v, after.get(k)) for k, v in before.items() if after.get(k) != v} == {}
    added = [k for k in after if k not in before]
    if item.kind == "install":
        trees = tuple(f"{t}/" for t in INSTALL_TREES)
        added = [k for k in added if k not in (*INSTALL_TREES, *INSTALL_FILES)]
        added = [k for k in added if not k.startswith(trees)]
    added = [k for k in added if not any(a == k or a.startswith(f"{k}/") for a in item.adds)]
    added = [k for k in added if not _own_cache(k)]
    assert added == []
    assert SIBLING in _values(record)["load"]["skills"]


def _fresh(base: Path, item: Entry) -> tuple[Tree, Any]:
    if base.exists():
        shutil.rmtree(base)
    base.mkdir()
    tree = make_tree(base)
    built = item.build(tree)
    write_sibling(tree.skills)
    return tree, built


@pytest.mark.parametrize("item", CORPUS, ids=IDS)
def test_c4_deterministic(tmp_path, monkeypatch, item: Entry):
    """The same outcome from a fresh build twice, the second with every directory
    listing reversed: neither the run nor the order the disk lists files in changes
    what is shown."""
    base = tmp_path / "case"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(base / "fixture" / "home"))

    tree, built = _fresh(base, item)
    first = outcome(tree, item, built)
    tree, built = _fresh(base, item)
    with reversed_listing(monkeypatch):
        assert outcome(tree, item, built) == first


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("item", CORPUS, ids=IDS)
def test_c5_no_traceback_and_escaped(corpus, item: Entry):
    """No step raised, no command exited with the bug code or printed a traceback;
    each diagnostic is registered and one clean line; no output holds a raw control,
    bidi or zero-width character."""
    record = corpus[item.id]
    values = _values(record)

    assert record["error"] is None, record["error"]
    for code, severity, message in values["load"]["diagnostics"]:
        assert code in CODES
        assert severity in ("error", "warning", "info")
        assert message.strip()
        assert [c for c in escape(message) if is_control(c)] == [], (code, message)
    for label, value in values.items():
        if not label.startswith(("doctor", "list", "plugins", "hooks", "mcp", "install")):
            continue
        assert value["code"] != BUG, (label, value["err"])
        for text in (value["out"], value["err"]):
            assert "Traceback" not in text, label
            assert CONTROL.findall(text) == [], (label, text)


def test_m01_a_plugin_manifest_with_a_key_twice_is_refused(corpus):
    """M01: `{"name": "dupes", "name": "evil"}` is not read last-wins as plugin `evil`:
    the manifest is invalid (a reviewer reads the first value, a loader the second)."""
    diagnostics = _values(corpus["M01"])["load"]["diagnostics"]
    twice = "it is not valid JSON: the key 'name' appears twice in one object"
    refused = ["plugin.manifest.invalid", "error", f".claude-plugin/plugin.json: {twice}"]
    assert refused in diagnostics
    assert "evil" not in _values(corpus["M01"])["plugins"]["out"]


def test_j01_json_nesting_100000_deep_is_a_diagnostic_everywhere(corpus):
    """J01: every deep file is a diagnostic naming the limit; the hook's deep answer
    is unreadable (the gate allows, with hook.output.invalid) and nothing crashed."""
    values = _values(corpus["J01"])
    found = {d[0]: d[2] for d in values["load"]["diagnostics"] if "64 levels" in d[2]}
    assert set(found) == {
        "plugin.manifest.invalid",
        "plugin.hooks.invalid",
        "config.mcp.invalid",
        "hook.file.invalid",
    }
    assert values["tool call"] == {"behavior": "allow", "ran": 1}
    ran = json.loads(values["hooks run"]["out"])
    assert [(d["code"], d["message"]) for d in ran["diagnostics"]] == [
        ("hook.output.invalid", "hook 'deep': its output nests deeper than 64 levels")
    ]
    for step in ("install verify", "install frozen"):
        assert values[step]["code"] == 1
        assert json.loads(values[step]["out"])["diagnostics"][0]["message"] == (
            "the lock file is not valid: it nests deeper than 64 levels"
        )


def test_j02_a_deep_mcp_answer_fails_the_call_and_the_handshake_at_once(corpus):
    """J02: the call is an error result naming the limit (no wait for the call
    timeout); the server whose handshake answer is deep failed, saying why."""
    got = _values(corpus["J02"])["supervisor call"]
    assert (got["is_error"], got["status"]) == (True, {"deep": "stopped", "shake": "failed"})
    assert got["text"] == (
        "MCP server 'deep' of plugin 'deep' answered the call to mcp__plugin_deep_deep__deep "
        "with JSON nesting deeper than 128 levels; the answer was not read"
    )
    assert sorted(d[0] for d in got["diagnostics"]) == [
        "mcp.message.too_deep",
        "plugin.mcp.connection_failed",
    ]


def test_w01_a_host_that_only_starts_like_loopback_is_refused(corpus):
    got = _values(corpus["W01"])["host check"]
    hosts = {h: h in W01_GOOD for h in (*W01_HOSTS, *W01_GOOD)}
    assert got == {"hosts": hosts, "origins": {f"http://{h}": ok for h, ok in hosts.items()}}


def test_v01_verify_and_update_see_a_setuid_bit_added_after_install(corpus):
    values = _values(corpus["V01"])
    for step in ("install verify", "install update"):
        assert values[step]["code"] == 1, step
        (found,) = json.loads(values[step]["out"])["diagnostics"]
        assert found["code"] == "install.integrity"
        assert found["message"].startswith("skill 'pdf' was changed since it was installed at ")


def test_the_security_doc_lists_every_case_where_the_table_says():
    """docs/security.md shows the corpus table as it is: every id, its name and the
    tests that hold its behaviour."""
    doc = (Path(__file__).parents[2] / "docs" / "security.md").read_text(encoding="utf-8")
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] in IDS:
            rows[cells[0]] = (cells[1], re.findall(r"`([^`]+)`", cells[3]))
    assert rows == {e.id: (e.title, list(e.tested)) for e in CORPUS}
