"""The documents stay in step with the code."""

from __future__ import annotations

import ast
import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from satchel.core.diagnostics import CODES
from tests.support.checkout import copy_examples

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| `([a-z0-9._-]+)` \| ((?:error|warning|info)(?:, [a-z]+)*) \|", re.M)
# context segment ids
SEGMENT_ID = re.compile(r"^agent\.(skills?|instructions|plugin-commands|output-style)\b")
CODE_LITERAL = re.compile(
    r"^(agent|catalogue|cli|command|compat|config|discovery|encoding|exec|frontmatter|hook|host|hosts|install|instructions|mcp|outdated|output_style|permission|plugin|policy|port|resource|session|skill|tag|trust|wellknown)\.[a-z0-9._-]+$"
)


def test_diagnostics_doc_lists_every_code_with_its_severity():
    text = (ROOT / "docs" / "diagnostics.md").read_text()
    documented = dict(ROW.findall(text))
    assert documented == {code: ", ".join(entry.emitted) for code, entry in CODES.items()}


@functools.cache
def _source_nodes() -> tuple[tuple[Path, tuple[ast.AST, ...]], ...]:
    """Every module of src/satchel (relative to the checkout) with all its AST nodes,
    parsed once for the scans below."""
    return tuple(
        (path.relative_to(ROOT), tuple(ast.walk(ast.parse(path.read_text()))))
        for path in sorted((ROOT / "src" / "satchel").rglob("*.py"))
    )


def _severity_calls() -> dict[tuple[str, str], set[Path]]:
    """Every `diagnostic("code", ..., severity="X")` with both literal, and where."""
    found: dict[tuple[str, str], set[Path]] = {}
    for path, nodes in _source_nodes():
        for node in nodes:
            if not (isinstance(node, ast.Call) and _called(node) in ("diagnostic", "add")):
                continue
            code = node.args[0] if node.args else None
            given = {k.arg: k.value for k in node.keywords}.get("severity")
            if isinstance(code, ast.Constant) and isinstance(given, ast.Constant):
                found.setdefault((code.value, given.value), set()).add(path)
    return found


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def test_every_severity_a_call_site_gives_is_registered_for_its_code():
    calls = _severity_calls()
    assert ("plugin.path.outside_root", "warning") in calls  # the scan sees the call sites
    assert sorted(pair for pair in calls if pair[1] not in CODES[pair[0]].emitted) == []


@functools.cache
def _literals() -> dict[str, set[Path]]:
    found: dict[str, set[Path]] = {}
    for path, nodes in _source_nodes():
        for node in nodes:
            value = node.value if isinstance(node, ast.Constant) else None
            if (
                isinstance(value, str)
                and CODE_LITERAL.match(value)
                and not value.endswith((".md", ".json", ".toml"))
                and not SEGMENT_ID.match(value)
            ):
                found.setdefault(value, set()).add(path)
    return found


def test_every_code_in_the_source_is_registered():
    unregistered = sorted(set(_literals()) - set(CODES))
    assert unregistered == []


def test_every_registered_code_is_used_somewhere():
    registry = Path("src", "satchel", "diagnostics.py")
    used = {code for code, where in _literals().items() if where - {registry}}
    assert sorted(set(CODES) - used) == []


def test_layout_doc_shows_the_default_table():
    from satchel import default_roots

    text = (ROOT / "docs" / "layout.md").read_text()
    for spec in default_roots():
        assert f"`{spec.template}`" in text, spec.template


def test_commands_doc_shows_the_tool_name_table():
    from satchel.agents import DEFAULT_TOOL_MAP

    text = (ROOT / "docs" / "commands-and-agents.md").read_text()
    section = text.split("### Tool names", 1)[1].split("###", 1)[0]
    rows = re.findall(r"^\| (`.+?`) \| (`.+?`)(?: \(for searching\))? \|$", section, re.M)
    documented: dict[str, tuple[str, ...]] = {}
    for left, right in rows:
        names = re.findall(r"`([^`]+)`", left)
        targets = tuple(re.findall(r"`([^`]+)`", right))
        documented.update(dict.fromkeys(names, targets))
    assert documented == dict(DEFAULT_TOOL_MAP)


def test_commands_doc_shows_the_command_and_agent_tables():
    from satchel import default_roots

    text = (ROOT / "docs" / "commands-and-agents.md").read_text()
    for kind in ("commands", "agents"):
        for spec in default_roots(kind=kind):
            shown = spec.template.replace("{home}/", "~/")
            assert f"`{shown}`" in text, shown


# -- every snippet runs as written ------------------------------------------------------
#
# Each ```python and ```sh block of the README, docs/ and examples/README.md runs in a
# temporary folder that holds a copy of examples/ as git tracks it (as a fresh clone's root
# does; not what running the commands in the checkout left there), with a scratch HOME.
# A block that cannot run offline says why on the line before it: <!-- not run: REASON -->.

FENCE = re.compile(
    r"^(?:<!-- not run: (?P<why>[^>]+) -->\n)?```(?P<lang>python|sh)\n(?P<code>.*?)^```",
    re.M | re.S,
)
DOCUMENTS = (
    "README.md",
    "examples/README.md",
    *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")),
    *sorted(f"docs/integrations/{p.name}" for p in (ROOT / "docs" / "integrations").glob("*.md")),
)


def _snippets() -> list[tuple[str, int, str, str, str | None]]:
    found = []
    for name in DOCUMENTS:
        text = (ROOT / name).read_text()
        for m in FENCE.finditer(text):
            line = text[: m.start("code")].count("\n")
            found.append((name, line, m["lang"], m["code"], m["why"]))
    return found


SNIPPETS = _snippets()


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder standing in for a fresh clone's root: examples/ and a .git."""
    return copy_examples(tmp_path_factory.mktemp("clone"))


def _environ(home: Path) -> dict[str, str]:
    # and the test's own discovery cache and empty policy directory (tests/conftest.py)
    keep = ("LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "SATCHEL_CACHE_DIR", "SATCHEL_POLICY_DIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    bin_dir = str(Path(sys.executable).parent)
    return {**env, "HOME": str(home), "PATH": os.pathsep.join([bin_dir, "/usr/bin", "/bin"])}


def _commands(code: str) -> list[str]:
    """A shell block's commands, one each, continuation lines joined."""
    return [
        c for c in code.replace("\\\n", " ").splitlines() if c.strip() and not c.startswith("#")
    ]


def test_every_document_has_snippets_that_run():
    assert sum(why is None for *_, why in SNIPPETS) >= 10


README_PYTHON = next(s for s in SNIPPETS if s[0] == "README.md" and s[2] == "python")


def _run(run: list[str], work: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = _environ(home)
    return subprocess.run(run, cwd=work, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def readme_python(
    clone: Path, tmp_path_factory: pytest.TempPathFactory
) -> subprocess.CompletedProcess[str]:
    """The README's Python snippet run once as written, in a copy of the clone with a
    home of its own: the snippet test and the test of what it prints share the run."""
    base = tmp_path_factory.mktemp("readme-python")
    home, work = base / "home", base / "clone"
    home.mkdir()
    shutil.copytree(clone, work, symlinks=True)
    return _run([sys.executable, "-c", README_PYTHON[3]], work, home)


@pytest.mark.parametrize(
    ("name", "line", "lang", "code", "why"),
    SNIPPETS,
    ids=[f"{name}:{line}" for name, line, *_ in SNIPPETS],
)
def test_the_snippet_runs_as_written(request, clone, tmp_path, name, line, lang, code, why):
    if why is not None:
        pytest.skip(why)
    if (name, line) == README_PYTHON[:2]:  # its one run is shared with the test below
        ran = [([sys.executable, "-c", code], request.getfixturevalue("readme_python"))]
    else:
        home, work = tmp_path / "home", tmp_path / "clone"
        home.mkdir()
        shutil.copytree(clone, work, symlinks=True)
        if lang == "python":
            runs = [[sys.executable, "-c", code]]
        else:
            runs = [["sh", "-c", command] for command in _commands(code)]
        ran = ((run, _run(run, work, home)) for run in runs)
    for run, done in ran:
        # 1 is a verb's "problems found" (the example holds broken skills on purpose);
        # 2 is a usage error, 3 a bug, 127 a command that does not exist
        assert done.returncode in (0, 1), f"{name}:{line}: {run[-1]}\n{done.stderr}"
        assert "Traceback" not in done.stderr, done.stderr


def test_readme_python_snippet_lists_the_example_skills(readme_python):
    done = readme_python
    assert done.returncode == 0, done.stderr
    assert "error frontmatter.yaml.syntax" in done.stdout  # the example's broken api-docs
    assert done.stdout.rstrip().endswith("}")  # the token bill


# -- the project speaks only of itself ----------------------------------------------------

# The internal name of the design documents behind the host behaviours, in any case, as
# a word or inside an identifier: users know hosts (Claude Code, Codex, Vibe, mermaid,
# zidane, caveman), so no tracked file, message, help text or diagnostic says it. Written
# with a character class, so that this file does not say it either.
INTERNAL = re.compile(r"(?i)s[e]ed")


def internal_name_lines(text: str) -> list[int]:
    """The numbers of the lines of `text` that say the internal name."""
    return [n for n, line in enumerate(text.splitlines(), 1) if INTERNAL.search(line)]


def test_the_rule_finds_the_internal_name_as_a_word_or_in_an_identifier():
    word = "s" + "eed"
    text = (
        f"as {word.title()} 000 says\n"
        "proceed, succeed, exceed\n"
        f"def _{word}s_together(): ...\n"
        f"{word.upper()}_CODES = ()\n"
        f'work / "all-{word}s"\n'
    )
    assert internal_name_lines(text) == [1, 3, 4, 5]
    assert internal_name_lines("the committed corpus, its starting inputs\n") == []


def _tracked() -> list[str]:
    """The checkout's tracked files (relative paths), or a skip outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        pytest.skip("git cannot list the tracked files")
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return sorted(n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n)


def test_no_tracked_file_says_the_internal_name():
    """Every tracked file: its path, its text (or a link's target), line by line."""
    found = []
    for name in _tracked():
        path = ROOT / name
        if INTERNAL.search(name):
            found.append(f"{name}: its name")
        if path.is_symlink():
            text = os.readlink(path)
        elif path.is_file():
            text = path.read_bytes().decode("utf-8", "replace")
        else:
            continue  # removed from the working tree, not yet from the index
        found += [f"{name}:{line}" for line in internal_name_lines(text)]
    assert found == []


def test_no_message_or_option_value_says_the_internal_name():
    """String constants that are not docstrings: messages, option values, help texts."""
    found = []
    for path, nodes in _source_nodes():  # parsed once for every scan of this module
        docstrings = {
            id(node.body[0].value)
            for node in nodes
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        found += [
            f"{path}:{node.lineno}"
            for node in nodes
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and INTERNAL.search(node.value)
        ]
    assert found == []


def test_no_cli_help_says_the_internal_name(capsys):
    from satchel.cli import VERBS, main

    for verb in ((), *(v.words for v in VERBS)):
        assert main([*verb, "--help"]) == 0
    assert not INTERNAL.search(capsys.readouterr().out)


def test_no_diagnostic_text_says_the_internal_name():
    assert [code for code, entry in CODES.items() if INTERNAL.search(entry.meaning)] == []
