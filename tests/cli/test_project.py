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


def test_the_current_directory_holding_a_marker_is_the_project(
    satchel, monorepo, home, monkeypatch
):
    _, package = monorepo
    monkeypatch.chdir(package)
    result = satchel("list", "--home", home)
    assert result.err.splitlines()[0] == f"project: {package} (holds .claude)"
    assert [s["name"] for s in satchel("list", "--home", home, "--json").json()["skills"]] == [
        "app-only"
    ]


def test_below_the_current_package_its_nearest_marker_holding_folder_is_the_project(
    satchel, monorepo, home, monkeypatch
):
    _, package = monorepo
    (package / "src" / "lib").mkdir(parents=True)
    monkeypatch.chdir(package / "src" / "lib")
    result = satchel("list", "--home", home)
    assert result.err.splitlines()[0] == f"project: {package} (holds .claude)"


def test_a_nested_instruction_file_alone_keeps_the_git_root(satchel, monorepo, home, monkeypatch):
    repo, _ = monorepo
    docs = repo / "docs"
    docs.mkdir()
    (docs / "AGENTS.md").write_text("Write plainly.\n")
    monkeypatch.chdir(docs)
    result = satchel("list", "--home", home)
    assert result.err.splitlines()[0] == f"project: {repo} (git root)"
    assert satchel("list", docs, "--home", home).err.splitlines()[0] == (
        f"project: {docs} (holds AGENTS.md)"
    )  # a folder named on purpose counts with an instruction file alone


def test_the_home_folder_is_never_the_project_on_the_way_up(satchel, tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    home = repo / "user"  # a home inside the repository, holding the user's .claude
    _skill(home / ".claude" / "skills", "mine")
    (home / "work").mkdir()
    monkeypatch.chdir(home / "work")
    result = satchel("list", "--home", home)
    assert result.err.splitlines()[0] == f"project: {repo} (git root)"


def test_satchel_trust_with_no_dir_trusts_the_project_list_uses(
    satchel, monorepo, home, monkeypatch
):
    _, package = monorepo
    monkeypatch.chdir(package)
    assert satchel("trust", "--home", home, "--json").json()["folder"] == str(package.resolve())
    assert satchel("untrust", "--home", home, "--json").json()["folder"] == str(package.resolve())


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


def test_cd_into_the_bundled_example_makes_it_the_project(satchel, in_repo, monkeypatch):
    monkeypatch.chdir(WORKSPACE)
    result = satchel("list", "--home", in_repo / "examples" / "home", "--trust")
    assert result.err.splitlines()[0] == f"project: {WORKSPACE} (holds .satchel)"
    assert "release" in result.out
    assert lib.load().layout.project == WORKSPACE


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


def test_install_writes_into_the_project_list_reads(satchel, monorepo, home, monkeypatch, tmp_path):
    repo, _ = monorepo
    source = tmp_path / "source"
    _skill(source, "fresh")
    docs = repo / "docs"
    docs.mkdir()
    (docs / "AGENTS.md").write_text("Write plainly.\n")
    monkeypatch.chdir(docs)
    installed = satchel("install", source / "fresh", "--home", home, "--json").json()
    assert installed["installed"][0]["path"] == str(repo / ".satchel" / "skills" / "fresh")
    listed = satchel("list", "--home", home, "--json").json()
    assert (listed["project"], "fresh" in [s["name"] for s in listed["skills"]]) == (
        str(repo),
        True,
    )
