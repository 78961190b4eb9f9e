"""Which folder is the project: an explicit DIR holding a project marker is one, even
inside another git repository; the chosen root opens every human-readable report."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel as lib
from tests.support import skill_md, write_skill

from .support import WORKSPACE


def _skill(root: Path, name: str) -> None:
    write_skill(root, name, skill_md(name, f"{name} things. Use when asked to.", "Do it.\n"))


@pytest.fixture
def monorepo(tmp_path: Path) -> tuple[Path, Path]:
    """A git repository with a package that is a project of its own."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _skill(repo / ".agents" / "skills", "repo-wide")
    package = repo / "packages" / "app"
    _skill(package / ".claude" / "skills", "app-only")
    return repo, package


def test_an_explicit_dir_holding_a_marker_is_the_project(satchel, monorepo, home):
    _, package = monorepo
    result = satchel("list", package, "--home", home)
    assert result.err.splitlines()[0] == f"project: {package} (holds .claude)"
    doc = satchel("list", package, "--home", home, "--json").json()
    assert (doc["project"], [s["name"] for s in doc["skills"]]) == (str(package), ["app-only"])


def test_a_dir_without_a_marker_belongs_to_the_git_root_above(satchel, monorepo, home):
    repo, _ = monorepo
    result = satchel("list", repo / "packages", "--home", home)
    assert result.err.splitlines()[0] == f"project: {repo} (git root)"
    assert [
        s["name"] for s in satchel("list", repo, "--home", home, "--json").json()["skills"]
    ] == ["repo-wide"]


def test_project_option_wins_over_dir(satchel, monorepo, home):
    repo, package = monorepo
    result = satchel("list", package, "--project", repo, "--home", home)
    assert result.err.splitlines()[0] == f"project: {repo} (--project)"


def test_the_current_directory_is_not_explicit(satchel, monorepo, home, monkeypatch):
    repo, package = monorepo
    monkeypatch.chdir(package)
    assert satchel("list", "--home", home).err.splitlines()[0] == f"project: {repo} (git root)"


def test_doctor_dir_reports_the_package(satchel, monorepo, home):
    _, package = monorepo
    result = satchel("doctor", package, "--home", home)
    assert result.out.splitlines()[0] == f"project: {package} (holds .claude)"
    assert "Skills: 1 loaded\napp-only\n" in result.out


def test_serve_dir_serves_the_package(satchel, monorepo, home, monkeypatch):
    _, package = monorepo
    served = []

    async def no_transport(server):
        served.append(server)

    monkeypatch.setattr("satchel.server._serve.run_stdio", no_transport)
    result = satchel("serve", package, "--home", home)
    assert result.code == 0
    assert len(served) == 1
    assert result.err.splitlines()[0] == f"project: {package} (holds .claude)"
    assert result.err.splitlines()[1].startswith("satchel serve: 1 skill, ")


def test_load_with_an_explicit_cwd_and_the_project_keyword(monorepo, home):
    repo, package = monorepo
    assert lib.load(package).layout.project == package
    assert list(lib.load(package).skills) == ["app-only"]
    assert lib.load(package, project=repo).layout.project == repo
    assert "repo-wide" in lib.load(package, project=repo).skills
    with pytest.raises(TypeError, match="pass cwd and project, or layout, not both"):
        lib.load(project=repo, layout=lib.Layout.default(repo))


def test_the_bundled_example_inside_this_checkout_is_its_own_project(satchel, in_repo):
    result = satchel("list", "examples/workspace", "--home", "examples/home", "--trust")
    assert result.err.splitlines()[0] == f"project: {WORKSPACE} (holds .satchel)"
    assert lib.load("examples/workspace").layout.project == WORKSPACE


VERBS = [
    ("doctor",),
    ("list",),
    ("show", "app-only"),
    ("commands",),
    ("agents",),
    ("instructions",),
    ("plugins",),
    ("mcp", "list"),
    ("mcp", "check"),
    ("hooks",),
    ("hooks", "run", "stop"),
]


@pytest.mark.parametrize("words", VERBS, ids=" ".join)
def test_every_human_report_opens_with_the_project_root(satchel, monorepo, home, words):
    """Into a pipe the project line goes to stderr, so that stdout is the report alone;
    doctor's report is about the project, so it is doctor's first line."""
    _, package = monorepo
    result = satchel(*words, "--project", package, "--home", home)
    said = result.out if words == ("doctor",) else result.err
    assert said.splitlines()[0] == f"project: {package} (--project)"


@pytest.mark.parametrize("words", VERBS, ids=" ".join)
def test_on_a_terminal_every_report_opens_with_the_project_root(
    satchel, monorepo, home, words, monkeypatch
):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    _, package = monorepo
    result = satchel(*words, "--project", package, "--home", home)
    assert result.out.splitlines()[0] == f"project: {package} (--project)"
