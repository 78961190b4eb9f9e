"""The tests read neither the user's home nor what running the documented commands left
in the checkout: every test has a HOME of its own, and the bundled examples are read from
a copy of what git tracks (tests/conftest.py, tests/support/checkout.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from satchel.cli import main
from tests.support import put, skill_md
from tests.support.checkout import (
    CHECKOUT,
    copy_examples,
    examples_root,
    examples_written,
    snapshot,
)
from tests.support.checkout import tracked as tracked_files

# Tests that read the bundled examples or the user's home and failed when the checkout
# held what the documented commands leave there, or when HOME was the user's.
EXPOSED = (
    "tests/test_docs.py::test_the_snippet_runs_as_written[docs/trust.md:12]",
    "tests/cli/test_listing.py::test_human_table_matches_golden",
    "tests/cli/test_trust.py::test_the_example_untrusted_holds_its_plugins_back",
    "tests/mcp/test_supervisor_cli.py::test_mcp_list_shows_the_configured_servers_without_starting_any",
    "tests/cli/test_project.py::test_load_with_an_explicit_cwd_and_the_project_keyword",
)


def test_each_test_has_an_empty_home_of_its_own_and_no_xdg_folders(tmp_path_factory):
    home = Path(os.environ["HOME"])
    assert home.is_relative_to(tmp_path_factory.getbasetemp())
    assert list(home.iterdir()) == []
    assert Path.home() == home
    assert Path(os.path.expanduser("~/.claude")) == home / ".claude"
    assert not [n for n in os.environ if n.startswith("XDG_") and n.endswith(("HOME", "DIRS"))]


def test_the_example_copy_holds_exactly_what_git_tracks():
    names = tracked_files("examples")
    assert names is not None and "examples/README.md" in names
    copied = {n for n in snapshot(examples_root()) if not n.startswith(".git")}
    assert copied == set(names)


def test_a_file_written_into_the_example_copy_is_named():
    """What `in_examples` checks after each test that runs in the copy."""
    root = examples_root()
    assert examples_written() == []
    put(root, "examples/home/.local/share/satchel/plugin-data/kit/state", "x")
    try:
        written = examples_written()
    finally:
        shutil.rmtree(root / "examples/home/.local")
    assert written == ["examples/home/.local/share/satchel/plugin-data/kit/state"]
    assert examples_written() == []


def _checkout_copy(dest: Path) -> Path:
    """A git checkout in `dest` holding this checkout's tests, docs and tracked
    examples, as a fresh clone does."""
    ignore = shutil.ignore_patterns("__pycache__")
    for part in ("tests", "docs"):
        shutil.copytree(CHECKOUT / part, dest / part, symlinks=True, ignore=ignore)
    for name in ("README.md", "pyproject.toml", ".gitignore"):
        shutil.copy2(CHECKOUT / name, dest / name)
    copy_examples(dest)
    shutil.rmtree(dest / ".git")
    for command in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *command], cwd=dest, check=True, capture_output=True)
    return dest


def _leave_what_the_docs_commands_leave(examples: Path, monkeypatch) -> None:
    """Run the documented commands in the checkout's examples/, as a reader does."""
    monkeypatch.chdir(examples)
    where = ("--project", "workspace", "--home", "home")
    for args in (
        ("hooks", "run", "stop", "--input", "{}", *where, "--trust"),  # makes plugin data
        ("trust", "workspace", "--home", "home"),
        ("marketplace", "add", "./marketplace", *where),
        ("install", "release-notes@team-examples", *where),
    ):
        assert main(list(args)) in (0, 1), args
    # and what an install into the example's home leaves: a skill of the user's
    put(examples, "home/.claude/skills/stray/SKILL.md", skill_md("stray", "Left behind."))


def _poisoned_home(home: Path) -> Path:
    """A user's home whose skills and settings would show in any test that read it."""
    put(home, ".claude/skills/canary/SKILL.md", skill_md("canary", "From the real home."))
    put(home, ".agents/skills/canary/SKILL.md", skill_md("canary", "From the real home."))
    put(home, ".config/satchel/config.toml", "this is [not toml\n")
    put(home, ".config/satchel/trusted-folders.json", "{not json\n")
    return home


def test_the_tests_pass_in_a_checkout_holding_leftovers_and_a_user_home(tmp_path, monkeypatch):
    checkout = _checkout_copy(tmp_path / "checkout")
    _leave_what_the_docs_commands_leave(checkout / "examples", monkeypatch)
    left = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=all"],
        cwd=checkout, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert (checkout / "examples/home/.local/share/satchel/plugin-data").is_dir()  # ignored
    assert "?? examples/home/.config/satchel/trusted-folders.json" in left
    assert "?? examples/workspace/.satchel/plugins/release-notes/.claude-plugin/plugin.json" in left
    assert "?? examples/home/.claude/skills/stray/SKILL.md" in left
    env = {**os.environ, "HOME": str(_poisoned_home(tmp_path / "user"))}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--basetemp", str(tmp_path / "basetemp"), *EXPOSED],
        cwd=checkout, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:]
    assert f"{len(EXPOSED)} passed" in done.stdout
