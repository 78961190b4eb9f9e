"""Claude Code's skill listing against satchel's, byte for byte, on generated projects.

Each scenario is one project with its own scratch home; both pinned Claude Code
versions (2.1.332, 2.1.337) run it once, offline, against the scripted model, and
``satchel index --host claude-code`` reads the same project with the same home,
plugins and model. The host's listing block (header, blank line, entries) must be
satchel's text. Claude Code's own skills are kept out of its listing by the user
settings of every scenario (`tests.hostloop.claude_listing.QUIET`): satchel does not
list them. The hosts run all scenarios in one module-scoped batch.
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from satchel import Session, hosts, load
from satchel.cli import main
from tests.hostloop.claude_listing import HEADER, listing, write_settings
from tests.hostloop.hosts import run_claude
from tests.hostloop.model import Text
from tests.tools import claude_code, claude_code_next

VERSIONS = {"2.1.332": claude_code, "2.1.337": claude_code_next}


@dataclass
class Scenario:
    """One generated project: what it holds (`build(root)` writes the project under
    ``root/project``, the home under ``root/home`` and plugins under ``root``), the
    user settings beside `QUIET`, the plugins given with ``--plugin-dir`` and the
    model asked for."""

    build: Callable[[Path], None]
    settings: dict[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    model: str | None = None


def _skill(folder: Path, name: str, description: str, extra: str = "") -> None:
    (folder / name).mkdir(parents=True, exist_ok=True)
    quoted = json.dumps(description, ensure_ascii=False)
    text = f"---\nname: {name}\ndescription: {quoted}\n{extra}---\nBody.\n"
    (folder / name / "SKILL.md").write_text(text, encoding="utf-8")


def _command(folder: Path, name: str, description: str) -> None:
    path = folder / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\ndescription: {description}\n---\nDo it.\n", encoding="utf-8")


def _project(root: Path) -> Path:
    return root / "project" / ".claude" / "skills"


def _user(root: Path) -> Path:
    return root / "home" / ".claude" / "skills"


def _words(word: str, length: int) -> str:
    return (f"{word} " * length)[:length]


def few(root: Path) -> None:
    skills = _project(root)
    _skill(skills, "deploy", "Deploy the app.", "when_to_use: when shipping a release\n")
    _skill(skills, "lint", "Run the linters  with  two spaces: and a colon.")
    _skill(skills, "hidden", "Never listed.", "disable-model-invocation: true\n")
    _skill(skills, "unicode", "Résumé — naïve café, 日本語 and 😀.")


def shapes(root: Path) -> None:
    skills = _project(root)
    _skill(skills, "lines", "Line one.\nLine two.\n\n  Indented three.")
    _skill(skills, "tabs", "\tTabbed\tdescription\t")
    _skill(skills, "spaces", "a\u00a0b c\u200bd e\n\n\nf g\u2028h", 'when_to_use: "x\\ty"\n')


def long(root: Path) -> None:
    skills = _project(root)
    _skill(skills, "beta", _words("abcd", 2000))  # a space at the cut: it is kept
    _skill(skills, "exact", "x" * 1536)
    _skill(skills, "over", "x" * 1537)
    _skill(skills, "astral", "a" * 1534 + "😀" + "b" * 10)  # the cut splits a pair
    _skill(skills, "joined", _words("long", 1530), "when_to_use: when the text runs on\n")


def roots(root: Path) -> None:
    project, user = _project(root), _user(root)
    for name in ("alpha", "mid", "b10", "b9"):
        _skill(project, name, f"project {name}")
    for name in ("beta", "alpha"):
        _skill(user, name, f"user {name}")
    commands = root / "project" / ".claude" / "commands"
    _command(commands, "pcmd", "project command")
    _command(commands, "beta", "project command beta")
    _command(commands / "sub", "nested", "nested command")
    _command(root / "home" / ".claude" / "commands", "ucmd", "user command")
    _command(root / "home" / ".claude" / "commands", "mid", "user command mid")
    for plugin, skills, command in (("kit", ("tool", "alpha"), "pc"), ("aux", ("zed",), "zc")):
        base = root / plugin
        (base / ".claude-plugin").mkdir(parents=True)
        (base / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": plugin}))
        for name in skills:
            _skill(base / "skills", name, f"plugin {plugin} {name}")
        _command(base / "commands", command, f"plugin {plugin} command")


def many(root: Path) -> None:
    skills = _project(root)
    for i in range(60):
        size = 1400 if i % 3 == 0 else 300
        _skill(skills, f"s{i:02}", _words(f"w{i:02}", size))
    for i in range(60, 64):
        _skill(skills, f"s{i:02}", "Tiny.")  # after the cut, these still fit


def used(root: Path) -> None:
    many(root)
    now = int(time.time() * 1000)
    usage = {
        "s57": {"usageCount": 40, "lastUsedAt": now},
        "s45": {"usageCount": 5, "lastUsedAt": now - 21 * 86_400_000},
        "s48": {"usageCount": 2, "lastUsedAt": now - 400 * 86_400_000},
    }
    (root / "home").mkdir(parents=True, exist_ok=True)
    (root / "home" / ".claude.json").write_text(json.dumps({"skillUsage": usage}))


def settings(root: Path) -> None:
    skills = _project(root)
    for name in "abcdefghijklmnopqrst":
        _skill(skills, name, _words(f"{name}{name}", 400))
    project_settings = root / "project" / ".claude" / "settings.json"
    project_settings.write_text(json.dumps({"skillListingBudgetFraction": 0.002}))


def older_model(root: Path) -> None:
    skills = _project(root)
    for i in range(20):
        _skill(skills, f"m{i:02}", _words(f"m{i:02}", 600))


def wide(root: Path) -> None:
    skills = _project(root)
    for i in range(10):
        _skill(skills, f"k{i}", "漢字かな" * (40 + i * 10))


SCENARIOS = {
    "few": Scenario(few),
    "shapes": Scenario(shapes),
    "long": Scenario(long),
    "roots": Scenario(roots, plugins=("kit", "aux")),
    "many": Scenario(many),
    "used": Scenario(used),
    "settings": Scenario(
        settings,
        settings={
            "skillListingMaxDescChars": 100,
            "skillOverrides": {"b": "name-only", "c": "off", "d": "user-invocable-only"},
        },
    ),
    "older-model": Scenario(older_model, model="claude-opus-4-6"),
    "unknown-model": Scenario(many, model="claude-nonesuch-1"),
    "long-context": Scenario(many, model="claude-opus-4-6[1m]"),
    "wide": Scenario(wide, settings={"skillListingBudgetFraction": 0.001}),
}


@dataclass(frozen=True)
class Ran:
    """One scenario's listings: each host version's, and satchel's text."""

    hosts: dict[str, str]
    satchel: str
    session: str
    returncodes: dict[str, int]


def _satchel(root: Path, scenario: Scenario) -> str:
    args = ["index", "--host", "claude-code", "--home", str(root / "home"), "--trust"]
    for plugin in scenario.plugins:
        args += ["--plugin-dir", str(root / plugin)]
    if scenario.model is not None:
        args += ["--model", scenario.model]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*args, str(root / "project")])
    assert code == 0, err.getvalue()
    return out.getvalue()


def _session(root: Path, scenario: Scenario) -> str:
    """The index of a `Session` under the claude-code profile, for the same project."""
    layout = hosts.get("claude-code").layout(root / "project", home=root / "home")
    env = load(
        layout=layout,
        host="claude-code",
        trusted=True,
        plugin_dirs=[root / p for p in scenario.plugins],
        model=scenario.model,
    )
    segments = Session(env).context()
    return next(s.text for s in segments if s.id == "agent.skills")


def _host(binary: Path, root: Path, scenario: Scenario) -> tuple[str, int]:
    args: list[str] = []
    for plugin in scenario.plugins:
        args += ["--plugin-dir", str(root / plugin)]
    if scenario.model is not None:
        args += ["--model", scenario.model]
    turn = run_claude(binary, root / "project", root / "home", "hi", [Text("ok")], args=args)
    return listing(turn), turn.returncode


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    binaries = {version: find() for version, find in VERSIONS.items()}
    if any(b is None for b in binaries.values()):
        pytest.skip("Claude Code 2.1.332 and 2.1.337 are not both in .tools/")
    roots: dict[str, Path] = {}
    for name, scenario in SCENARIOS.items():
        root = tmp_path_factory.mktemp(name)
        (root / "project" / ".git").mkdir(parents=True)
        scenario.build(root)
        write_settings(root / "home", scenario.settings)
        roots[name] = root
    jobs = [(name, version) for name in SCENARIOS for version in binaries]
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(
            lambda job: _host(binaries[job[1]], roots[job[0]], SCENARIOS[job[0]]),  # type: ignore[arg-type]
            jobs,
        )
        results = dict(zip(jobs, done, strict=True))
    return {
        name: Ran(
            hosts={v: results[name, v][0] for v in binaries},
            satchel=_satchel(roots[name], SCENARIOS[name]),
            session=_session(roots[name], SCENARIOS[name]),
            returncodes={v: results[name, v][1] for v in binaries},
        )
        for name in SCENARIOS
    }


@pytest.mark.parametrize("version", list(VERSIONS))
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_satchel_lists_what_claude_code_lists(ran: dict[str, Ran], scenario: str, version: str):
    found = ran[scenario]
    assert found.returncodes[version] == 0
    assert found.hosts[version].startswith(HEADER)
    assert found.satchel == found.hosts[version] + "\n"


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_a_claude_code_session_lists_what_claude_code_lists(ran: dict[str, Ran], scenario: str):
    found = ran[scenario]
    assert found.hosts["2.1.332"] == found.hosts["2.1.337"]
    assert found.session == found.hosts["2.1.337"] + "\n"


def _lines(text: str) -> list[str]:
    return text.split("\n")[2:]


@pytest.mark.parametrize("version", list(VERSIONS))
def test_a_long_description_is_cut_mid_text_with_an_ellipsis(ran: dict[str, Ran], version: str):
    lines = {line.split(":")[0]: line for line in _lines(ran["long"].hosts[version])}
    assert len(lines["- beta"]) == len("- beta: ") + 1536
    assert lines["- beta"].endswith("abcd …")  # the space before the cut is kept
    assert lines["- exact"] == "- exact: " + "x" * 1536
    assert lines["- over"] == "- over: " + "x" * 1535 + "…"


@pytest.mark.parametrize("version", list(VERSIONS))
def test_over_budget_descriptions_go_name_only_and_nothing_is_dropped(
    ran: dict[str, Ran], version: str
):
    lines = _lines(ran["many"].hosts[version])
    assert len(lines) == 64
    shapes = "".join("F" if ": " in line else "n" for line in lines)
    assert "nF" in shapes  # a later, shorter description still fits after a cut
    assert len("\n".join(lines)) <= 30_000  # 1% of 1,000,000 tokens at 3 characters


@pytest.mark.parametrize("version", list(VERSIONS))
def test_the_most_used_skills_keep_their_descriptions_first(ran: dict[str, Ran], version: str):
    plain = {line.split(":")[0]: line for line in _lines(ran["many"].hosts[version])}
    used = {line.split(":")[0]: line for line in _lines(ran["used"].hosts[version])}
    for name in ("- s57", "- s45", "- s48"):
        assert plain[name] == name  # name-only in a home with no usage
        assert used[name].startswith(f"{name}: ")  # described when used


@pytest.mark.parametrize("version", list(VERSIONS))
def test_the_settings_change_the_hosts_listing(ran: dict[str, Ran], version: str):
    lines = _lines(ran["settings"].hosts[version])
    names = [line.split(":")[0] for line in lines]
    assert "- c" not in names and "- d" not in names  # off, user-invocable-only
    assert "- b" in lines  # name-only
    assert len("\n".join(lines)) <= 6_000  # skillListingBudgetFraction 0.002 in the project
    described = [line for line in lines if ": " in line]
    assert described and all(line.endswith("…") for line in described)
    assert {len(line.split(": ", 1)[1]) for line in described} == {100}  # MaxDescChars


@pytest.mark.parametrize("version", list(VERSIONS))
def test_an_older_model_gets_a_smaller_listing(ran: dict[str, Ran], version: str):
    lines = _lines(ran["older-model"].hosts[version])
    assert len("\n".join(lines)) <= 8_000  # 1% of 200,000 tokens at 4 characters
    assert any(": " not in line for line in lines)
