"""Shared fixtures: a project (with .git) and a stand-in home, both in tmp_path; for every
test a HOME, discovery cache and policy directory of its own in the temp dir; and a copy
of the bundled examples as git tracks them."""

from __future__ import annotations

import itertools
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import satchel
from satchel.trust._trust import trust
from tests.support.checkout import examples_root, examples_written
from tests.support.golden import UPDATE
from tests.support.hypothesis_home import use_suite_home
from tests.support.keyring_file import private_keyring

# Hypothesis keeps no example database and its caches in the system's temp dir, so the
# suite writes nothing into the checkout; and no deadline: a test asserts no wall-clock time.
use_suite_home()
settings.register_profile("satchel-hermetic", database=None, deadline=None)
settings.load_profile("satchel-hermetic")

CHECKOUT = Path(__file__).resolve().parent.parent
# What the test command itself owns in the checkout: the tools, the caches, bytecode.
OWN = frozenset((".venv", ".tools", ".mypy_cache", ".ruff_cache", ".pytest_cache"))
_BEFORE = pytest.StashKey[frozenset[str]]()


def _untracked() -> frozenset[str] | None:
    """The checkout's untracked and ignored files (not the test command's own), or None
    when this is not a git checkout."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "-z"],
            cwd=CHECKOUT,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    paths = [entry[3:] for entry in done.stdout.decode("utf-8", "replace").split("\0") if entry]
    return frozenset(
        p
        for p in paths
        if p.split("/", 1)[0] not in OWN
        and "__pycache__" not in p.split("/")
        and ".egg-info" not in p
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller, not an xdist worker
        before = _untracked()
        if before is not None:
            session.config.stash[_BEFORE] = before


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a test wrote into the checkout (tests write to temp dirs only)."""
    before = session.config.stash.get(_BEFORE, None)
    after = _untracked() if before is not None else None
    if before is None or after is None or not after - before:
        return
    written = "\n  ".join(sorted(after - before))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"tests wrote into the checkout:\n  {written}", red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


_CACHES = itertools.count()
_KEYRINGS = itertools.count()
# What would point a test at the user's own files, settings or credentials: HOME stands
# in for them all once these are gone (the XDG ones default to folders below HOME).
MACHINE_VARS = (
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "XDG_CONFIG_DIRS",
    "XDG_DATA_DIRS",
    "DOCKER_CONFIG",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "CODEX_HOME",
    "CLAUDE_CONFIG_DIR",
    "GEMINI_CLI_HOME",
)
# The suite's own switches; every other SATCHEL_ variable is a setting of the machine's.
SUITE_SWITCHES = frozenset((UPDATE, "SATCHEL_PROPERTIES"))


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test's discovery cache is its own directory in the temp dir (made when a load
    first writes it), never the user's; and its HOME an empty folder of its own, never the
    user's: what reads `~` in the test or in a process it starts reads that. Subprocesses
    inherit both."""
    number = str(next(_CACHES))
    base = tmp_path_factory.getbasetemp()
    path = base / "discovery-cache" / number
    settings = [n for n in os.environ if n.startswith("SATCHEL_") and n not in SUITE_SWITCHES]
    for name in [*MACHINE_VARS, *settings]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SATCHEL_CACHE_DIR", str(path))
    # and the system's policy directory is an empty one of its own, never the machine's
    monkeypatch.setenv("SATCHEL_POLICY_DIR", str(base / "no-policy"))
    # and so is Claude Code's managed-settings directory (the machine's /etc/claude-code)
    monkeypatch.setenv("SATCHEL_CLAUDE_MANAGED_DIR", str(base / "no-claude-managed"))
    user = base / "user-home" / number
    user.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(user))
    return path


@pytest.fixture(autouse=True)
def private_keyring_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test's keyring is a file of its own in the temp dir (made when something is
    first kept), in the test and in every process it starts: what satchel keeps or reads
    there (OAuth logins, `mcp list`'s login column) never reaches the system's keyring."""
    folder = tmp_path_factory.getbasetemp() / "keyrings"
    folder.mkdir(exist_ok=True)
    with private_keyring(folder / f"{next(_KEYRINGS)}.json"):
        yield


@pytest.fixture
def in_examples(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Run from this process's copy of the bundled examples (tests/support/checkout.py),
    the folder that stands for the checkout's root; the tests share it, so a test that
    writes into it fails."""
    root = examples_root()
    monkeypatch.chdir(root)
    yield root
    written = examples_written()
    assert written == [], f"the test wrote into the shared copy of examples/: {written}"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def layout(project: Path, home: Path) -> satchel.Layout:
    """The layout of a project its user has trusted (`satchel trust`), as most are."""
    made = satchel.Layout.default(project, home=home, env={})
    trust(made, project)
    return made


@pytest.fixture(scope="session")
def claude_code() -> Path:
    """Claude Code's pinned binary (installed by scripts/tools before pytest starts)."""
    from tests.tools import claude_code as find

    found = find()
    if found is None:
        pytest.skip("Claude Code is not in .tools/ (scripts/tools needs npm)")
    return found


@pytest.fixture(scope="session")
def claude_code_next() -> Path:
    """Claude Code 2.1.337's binary (installed by scripts/tools before pytest starts)."""
    from tests.tools import claude_code_next as find

    found = find()
    if found is None:
        pytest.skip("Claude Code 2.1.337 is not in .tools/ (scripts/tools needs npm)")
    return found


@pytest.fixture(scope="session")
def codex() -> Path:
    """Codex's pinned native binary (installed by scripts/tools before pytest starts)."""
    from tests.tools import codex as find

    found = find()
    if found is None:
        pytest.skip("Codex is not in .tools/ (scripts/tools needs npm)")
    return found


@pytest.fixture(scope="session")
def gemini() -> Path:
    """Gemini CLI's pinned entry script (installed by scripts/tools; run with node)."""
    from tests.tools import gemini_cli as find

    found = find()
    if found is None:
        pytest.skip("Gemini CLI is not in .tools/ (scripts/tools needs npm and node)")
    return found
