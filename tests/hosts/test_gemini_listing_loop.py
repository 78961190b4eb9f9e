"""Gemini CLI 0.61.0's skills listing, byte for byte: the real Gemini CLI and satchel's
renderer on the same generated projects.

Each scenario is built once and run through one real ``gemini -p`` turn against the
scripted model; the ``# Available Agent Skills`` section of the system instruction it
sent is compared with what `render_gemini_listing` makes of the skills satchel loaded
under the ``gemini`` profile. Gemini CLI's two built-in skills live in its install
(``bundle/builtin``): the test reads them from there and hands them to the renderer.

Gemini CLI reads a root's folders with a parallel walk that does not always finish in
order, so run to run it may swap neighbours inside one root. The comparison is
therefore byte for byte for the text around the skills and for every skill's block,
and for the order of the roots; inside one root (`gemini_groups`) the same blocks, in
whatever order this run's walk finished."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.hostloop.hosts import run_gemini
from tests.hostloop.model import Text
from tests.hosts.trees import git_repo
from tests.support import put, skill_md, write_skill

HEAD = "# Available Agent Skills"
TAIL = "</available_skills>"


@dataclass(frozen=True, slots=True)
class Scenario:
    """A generated project and the arguments Gemini CLI runs with (``-m MODEL``)."""

    name: str
    build: Callable[[Path, Path], Path]  # (tmp, home) -> project
    args: tuple[str, ...] = ()


def extension(home: Path, folder: str, *names: str) -> None:
    """An installed extension in `folder` of the user's extensions, with skills `names`."""
    root = home / ".gemini/extensions" / folder
    put(root, "gemini-extension.json", json.dumps({"name": folder, "version": "1.0.0"}))
    for name in names:
        write_skill(root / "skills", name, skill_md(name, f"{name} from {folder}."))


def mixed(tmp: Path, home: Path) -> Path:
    """Both project roots and both user roots, two extensions, names in several roots
    and in both extensions, folder names that do not sort as they were made, markup
    characters, a folded, a literal and a padded description."""
    repo = git_repo(tmp / "repo")
    extension(home, "zz-ext", "solo", "zz-only", "beta")
    extension(home, "aa-ext", "solo", "aa-only")
    for name in ("zeta", "alpha", "mid", "beta", "omega", "kappa-2", "kappa"):
        write_skill(repo / ".gemini/skills", name, skill_md(name, f"{name} & <x> 'q'\n  more"))
    write_skill(repo / ".agents/skills", "agent-one", skill_md("agent-one", "From .agents."))
    write_skill(repo / ".agents/skills", "alpha", skill_md("alpha", "Alpha from .agents."))
    write_skill(home / ".gemini/skills", "user-one", skill_md("user-one", "From the user."))
    write_skill(home / ".gemini/skills", "beta", skill_md("beta", "The user's beta."))
    write_skill(home / ".agents/skills", "user-agents", skill_md("user-agents", "é ✓ “q”"))
    literal = "---\nname: literal\ndescription: |\n  line one\n  line two\n---\nBody.\n"
    put(repo / ".agents/skills/literal/SKILL.md", literal)
    put(repo / ".agents/skills/padded/SKILL.md", '---\nname: padded\ndescription: "  pad  "\n---\n')
    return repo


def many(tmp: Path, home: Path) -> Path:
    """Sixty skills with long descriptions: far past any budget Gemini CLI could have."""
    repo = git_repo(tmp / "repo")
    for i in range(60):
        text = " ".join([f"word{i}"] * (40 * (i % 7 + 1)))
        write_skill(repo / ".gemini/skills", f"s{i:02d}", skill_md(f"s{i:02d}", text))
    return repo


SCENARIOS = (
    Scenario("mixed", mixed),
    Scenario("many", many),
    Scenario("legacy-model", mixed, ("-m", "gemini-2.5-pro")),
)


def builtin(script: Path) -> list[Any]:
    """Gemini CLI's built-in skills, as satchel reads them, in the order it lists them."""
    from satchel.skills import FieldRules, read_skill

    found = []
    for path in sorted((script.resolve().parent / "builtin").glob("*/SKILL.md"), reverse=True):
        read = read_skill(path, FieldRules())
        assert read is not None and read[0] is not None
        found.append(read[0])
    return found


def section(body: dict[str, Any]) -> str:
    """The skills section of a request's system instruction."""
    text = "".join(part.get("text", "") for part in body["systemInstruction"]["parts"])
    start = text.index(HEAD)
    return text[start : text.index(TAIL, start) + len(TAIL)]


def activate_description(body: dict[str, Any]) -> str:
    """The description of the ``activate_skill`` tool the request offered."""
    for tool in body["tools"]:
        for declaration in tool.get("functionDeclarations") or ():
            if declaration["name"] == "activate_skill":
                return str(declaration["description"])
    raise AssertionError("no activate_skill tool")


BLOCK = re.compile(r"  <skill>\n    <name>([^<\n]*)</name>\n.*?\n  </skill>\n?", re.S)


def blocks(listing: str) -> tuple[str, dict[str, str], list[str]]:
    """A listing cut into the text around its skills, each skill's block by name, and
    the names in their order."""
    found = list(BLOCK.finditer(listing))
    return BLOCK.sub("", listing), {m[1]: m[0] for m in found}, [m[1] for m in found]


def in_groups(names: list[str] | tuple[str, ...], groups: list[list[str]]) -> list[set[str]]:
    """`names` cut into sets the sizes of `groups`: equal for two lists that differ only
    inside a group."""
    out, at = [], 0
    for group in groups:
        out.append(set(names[at : at + len(group)]))
        at += len(group)
    return [*out, set(names[at:])]


@dataclass(frozen=True, slots=True)
class Seen:
    gemini: str
    satchel: str
    tool: str
    names: tuple[str, ...]
    groups: list[list[str]]
    model: str
    styled: str  # through the profile's listing style (no built-in skills)
    builtin: tuple[str, ...]


def styled(env: Any, model: str | None) -> str:
    """The index satchel builds under the ``gemini`` profile for `model` (its listing
    style, as ``satchel index --host gemini`` and a session under Gemini CLI build it)."""
    from satchel.assembly.listings._listing import host_listing

    found = host_listing(
        env.host,
        env.skills.values(),
        budget=env.host.budget(model)[0],
        known=env.skills,
        model=model,
        shadowed=[s.loser for s in env.shadowed],
    )
    assert found is not None
    return found.text


@pytest.fixture(scope="module")
def seen(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seen]:
    """Every scenario through one Gemini CLI turn and satchel's renderer."""
    from satchel import hosts, load  # type: ignore[attr-defined]
    from satchel.assembly.listings._listing_gemini import (
        gemini_groups,
        gemini_modern,
        gemini_order,
        render_gemini_listing,
    )

    built_in = builtin(gemini)
    homes = {s.name: tmp_path_factory.mktemp(s.name) / "home" for s in SCENARIOS}
    for scenario in SCENARIOS:
        homes[scenario.name].mkdir()
    projects = {s.name: s.build(homes[s.name].parent, homes[s.name]) for s in SCENARIOS}

    def turn_of(scenario: Scenario) -> Any:
        project, home = projects[scenario.name], homes[scenario.name]
        return run_gemini(
            gemini, project, home, "go", [Text("done")], args=["--yolo", *scenario.args]
        )

    with ThreadPoolExecutor(max_workers=2) as pool:  # each a folder and a HOME of its own
        turns = dict(zip(SCENARIOS, pool.map(turn_of, SCENARIOS), strict=True))
    out = {}
    for scenario in SCENARIOS:
        project, home, turn = projects[scenario.name], homes[scenario.name], turns[scenario]
        assert turn.returncode == 0, turn.stderr
        body = turn.turns[0].body
        env = load(layout=hosts.get("gemini").layout(project, home=home, env={}), host="gemini")
        losers = [s.loser for s in env.shadowed]
        model = scenario.args[1] if scenario.args[:1] == ("-m",) else None
        ours = render_gemini_listing(
            list(env.skills.values()),
            shadowed=losers,
            builtin=built_in,
            modern=gemini_modern(model),
        )
        copies = [*env.skills.values(), *losers]
        out[scenario.name] = Seen(
            section(body),
            ours.strip(),
            activate_description(body),
            tuple(s.name for s in gemini_order(copies, builtin=built_in)),
            gemini_groups(copies, builtin=built_in),
            turn.turns[0].path,
            styled(env, model),
            tuple(s.name for s in built_in),
        )
    return out


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_satchel_renders_the_listing_gemini_cli_shows_byte_for_byte(
    seen: dict[str, Seen], name: str
) -> None:
    theirs, ours = blocks(seen[name].gemini), blocks(seen[name].satchel)
    assert ours[0] == theirs[0]  # the text around the skills
    assert ours[1] == theirs[1]  # each skill's block
    assert ours[2] == list(seen[name].names) and len(ours[2]) == len(theirs[2])
    assert in_groups(ours[2], seen[name].groups) == in_groups(theirs[2], seen[name].groups)


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_the_gemini_profiles_index_is_the_listing_gemini_cli_shows_but_its_own_skills(
    seen: dict[str, Seen], name: str
) -> None:
    theirs, ours = blocks(seen[name].gemini), blocks(seen[name].styled.strip())
    own = set(seen[name].builtin)
    assert ours[0] == theirs[0]
    assert ours[1] == {n: b for n, b in theirs[1].items() if n not in own}
    names = [n for n in seen[name].names if n not in own]
    groups = [g for g in seen[name].groups if not own & set(g)]
    assert ours[2] == names
    assert in_groups(ours[2], groups) == in_groups([n for n in theirs[2] if n not in own], groups)


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_satchel_writes_the_activate_skill_tool_gemini_cli_offers(
    seen: dict[str, Seen], name: str
) -> None:
    from satchel.assembly.listings._listing_gemini import gemini_activate_description

    hint = re.compile(r" \(Available: (.*?)\)\.")
    ours = gemini_activate_description(seen[name].names)
    assert hint.sub("", ours) == hint.sub("", seen[name].tool)
    theirs_names = re.findall(r"'([^']*)'", hint.findall(seen[name].tool)[0])
    assert in_groups(theirs_names, seen[name].groups) == in_groups(
        seen[name].names, seen[name].groups
    )


def test_gemini_cli_lists_every_description_whole_with_no_budget(seen: dict[str, Seen]):
    listing = seen["many"].gemini
    assert listing.count("<skill>") == 60 + 2  # and its two built-in skills
    assert f"<description>{' '.join(['word6'] * 280)}</description>" in listing


def test_gemini_cli_keeps_a_names_first_place_and_its_strongest_copy(seen: dict[str, Seen]):
    names = seen["mixed"].names
    # beta came first (an extension's), the project's .gemini copy replaced it in place
    assert names.index("beta") < names.index("user-agents") < names.index("zeta")
    assert "<description>beta &amp;" not in seen["mixed"].gemini  # nothing is escaped
    assert "<description>beta & <x> 'q' more</description>" in seen["mixed"].gemini
    # folders in reverse order of their names, a longer name before its prefix
    order = [names.index(n) for n in ("zeta", "omega", "mid", "kappa-2", "kappa", "alpha")]
    assert order == sorted(order)


def test_gemini_cli_reads_extensions_by_folder_name_and_the_later_copy_wins(
    seen: dict[str, Seen],
):
    names, listing = seen["mixed"].names, seen["mixed"].gemini
    order = [names.index(n) for n in ("antigravity-support", "solo", "aa-only", "zz-only")]
    assert order == sorted(order)
    assert "<description>solo from zz-ext.</description>" in listing
    assert names.index("beta") < names.index("user-one")  # the extension's place


def test_gemini_cli_words_the_section_for_older_models_apart(seen: dict[str, Seen]):
    assert "gemini-2.5-pro" in seen["legacy-model"].model
    assert "you can call the `activate_skill` tool" in seen["legacy-model"].gemini
    assert "you can call" not in seen["mixed"].gemini
