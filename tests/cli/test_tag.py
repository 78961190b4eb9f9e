"""`satchel tag`: the {name}--v{version} release tag, beside Claude Code 2.1.337's own
`claude plugin tag` run on the same real git repositories. Where both check a thing,
both refuse the same repositories and name the same tag; where satchel checks more
(every host's catalogue, the entry's name), the test is named ``rule_``."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from satchel.port._marketplace import build_marketplace
from tests.install.support import GIT_ENV, commit, git, hostile_config
from tests.support import put
from tests.tools import CALL

from .support import check_golden

Repo = Callable[..., Path]


@pytest.fixture(autouse=True)
def git_identity(monkeypatch, tmp_path):
    """satchel's git reads the user's config from this scratch home only."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)


def manifest(name: str, version: str | None) -> str:
    data = {"name": name, "description": f"The {name} plugin."}
    return json.dumps(data if version is None else {**data, "version": version})


@pytest.fixture
def market(tmp_path) -> Repo:
    """A git repository with plugin alpha (at `version`) and every host's catalogue of
    it as `satchel marketplace build` writes them, committed; `edit` then changes
    files after the build, before the commit."""

    def make(version: str | None = "1.2.0", edit: dict[str, str] | None = None) -> Path:
        repo = tmp_path / "repo"
        repo.mkdir()
        git("init", "-q", "-b", "main", ".", cwd=repo)
        put(repo / "plugins/alpha/.claude-plugin/plugin.json", manifest("alpha", version))
        put(repo / "plugins/alpha/commands/go.md", "Go.\n")
        build_marketplace(repo, name="market", owner="Owner")
        commit(repo, edit or {})
        return repo

    return make


def claude_tag(binary: Path, plugin: Path, home: Path) -> tuple[int, str]:
    """`claude plugin tag --dry-run PLUGIN` in a scratch home: exit code, the tag named."""
    home.mkdir(exist_ok=True)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), **GIT_ENV}
    done = subprocess.run(
        [str(binary), "plugin", "tag", "--dry-run", str(plugin)], env=env, cwd=plugin,
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=CALL, check=False,
    )  # fmt: skip
    named = [line.split()[-1] for line in done.stdout.splitlines() if line.startswith("Tag:")]
    return done.returncode, named[0] if named else ""


def satchel_tag(satchel, plugin: Path) -> tuple[int, str, list[str]]:
    """`satchel tag --dry-run --json PLUGIN`: exit code, the tag, the codes said."""
    run = satchel("tag", "--dry-run", "--json", plugin)
    doc = run.json()
    plan = doc["plan"]
    return run.code, plan["tag"] if plan else "", [d["code"] for d in doc["diagnostics"]]


def agreeing(repo: Path) -> None:
    """Nothing to change."""


def entry_version(repo: Path) -> None:
    """Claude Code's catalogue gives alpha another version than its manifest."""
    path = repo / ".claude-plugin/marketplace.json"
    path.write_text(path.read_text().replace('"1.2.0"', '"1.1.0"'))
    commit(repo, {})


def dirty_plugin(repo: Path) -> None:
    (repo / "plugins/alpha/commands/go.md").write_text("Go now.\n")


def untracked_plugin_file(repo: Path) -> None:
    put(repo / "plugins/alpha/commands/new.md", "New.\n")


def dirty_catalogue(repo: Path) -> None:
    path = repo / ".claude-plugin/marketplace.json"
    path.write_text(path.read_text() + "\n")


def tagged(repo: Path) -> None:
    git("tag", "-a", "-m", "alpha 1.2.0", "alpha--v1.2.0", cwd=repo)


FILES = (
    "plugins/alpha/.claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
    ".agents/plugins/marketplace.json",
    ".cursor-plugin/marketplace.json",
)


def replaced(old: str, new: str) -> Callable[[Path], None]:
    """A change: `old` as `new` in the manifest and every catalogue, committed."""

    def change(repo: Path) -> None:
        for rel in FILES:
            path = repo / rel
            path.write_text(path.read_text().replace(old, new))
        commit(repo, {})

    return change


CASES = {
    "agreeing": (agreeing, 0, "alpha--v1.2.0", []),
    "entry-version": (
        entry_version, 1, "", ["catalogue.entry.version_mismatch", "tag.catalogue.disagree"]
    ),
    "dirty-plugin": (dirty_plugin, 1, "", ["tag.tree.dirty"]),
    "untracked-plugin-file": (untracked_plugin_file, 1, "", ["tag.tree.dirty"]),
    "dirty-catalogue": (dirty_catalogue, 1, "", ["tag.tree.dirty"]),
    "tagged": (tagged, 1, "", ["tag.exists"]),
    "not-semver": (replaced('"1.2.0"', '"1.2"'), 1, "", ["tag.version.invalid"]),
    "prerelease-leading-zero": (
        replaced('"1.2.0"', '"1.2.0-01"'), 1, "", ["tag.version.invalid"]
    ),
    "prerelease-and-build": (
        replaced('"1.2.0"', '"1.2.0-rc.1+b7"'), 0, "alpha--v1.2.0-rc.1+b7", []
    ),
    "v-prefixed": (replaced('"1.2.0"', '"v1.2.0"'), 0, "alpha--vv1.2.0", []),
    "version-not-a-string": (
        replaced('"version": "1.2.0"}', '"version": 120}'), 1, "",
        ["plugin.manifest.invalid", "tag.plugin.invalid"],
    ),
    "no-name": (
        replaced('{"name": "alpha", ', "{"), 1, "", ["tag.plugin.invalid"]
    ),
    "name-not-a-ref": (
        replaced('"name": "alpha"', '"name": "a..b"'), 1, "", ["tag.name.invalid"]
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_satchel_refuses_and_names_tags_as_claude_plugin_tag_does(
    satchel, market, claude_code_next, tmp_path, case
):
    change, code, tag, codes = CASES[case]
    repo = market()
    change(repo)
    alpha = repo / "plugins/alpha"
    assert claude_tag(claude_code_next, alpha, tmp_path / "claude-home") == (code, tag)
    assert satchel_tag(satchel, alpha) == (code, tag, codes)


def test_without_a_manifest_version_both_tag_the_entrys(
    satchel, market, claude_code_next, tmp_path
):
    repo = market(version=None)
    # Cursor's entries give no version (its schema has no room for one)
    for rel in (".claude-plugin/marketplace.json", ".agents/plugins/marketplace.json"):
        doc = json.loads((repo / rel).read_text())
        doc["plugins"][0]["version"] = "2.0.0"
        (repo / rel).write_text(json.dumps(doc))
    commit(repo, {})
    alpha = repo / "plugins/alpha"
    assert claude_tag(claude_code_next, alpha, tmp_path / "claude-home") == (0, "alpha--v2.0.0")
    assert satchel_tag(satchel, alpha) == (0, "alpha--v2.0.0", [])


def test_without_any_version_both_refuse(satchel, market, claude_code_next, tmp_path):
    alpha = market(version=None) / "plugins/alpha"
    assert claude_tag(claude_code_next, alpha, tmp_path / "claude-home") == (1, "")
    assert satchel_tag(satchel, alpha) == (1, "", ["tag.version.missing"])


def test_outside_a_git_work_tree_both_refuse(satchel, claude_code_next, tmp_path):
    alpha = tmp_path / "loose/alpha"
    put(alpha / ".claude-plugin/plugin.json", manifest("alpha", "1.0.0"))
    assert claude_tag(claude_code_next, alpha, tmp_path / "claude-home") == (1, "")
    assert satchel_tag(satchel, alpha) == (1, "", ["tag.repository.missing"])


def test_rule_satchel_refuses_an_entry_naming_the_plugin_otherwise(
    satchel, market, claude_code_next, tmp_path
):
    repo = market()
    path = repo / ".cursor-plugin/marketplace.json"
    path.write_text(path.read_text().replace('"name": "alpha"', '"name": "alfa"'))
    commit(repo, {})
    alpha = repo / "plugins/alpha"
    # Claude Code reads only its own catalogue, and matches an entry by its source alone
    assert claude_tag(claude_code_next, alpha, tmp_path / "claude-home") == (0, "alpha--v1.2.0")
    code, tag, codes = satchel_tag(satchel, alpha)
    assert (code, tag) == (1, "")
    assert "catalogue.entry.name_mismatch" in codes
    assert codes[-1] == "tag.catalogue.disagree"


def test_rule_satchel_refuses_a_codex_catalogue_disagreeing(satchel, market):
    repo = market()
    path = repo / ".agents/plugins/marketplace.json"
    path.write_text(path.read_text().replace('"1.2.0"', '"1.3.0"'))
    commit(repo, {})
    run = satchel("tag", "--dry-run", "--json", repo / "plugins/alpha")
    assert run.code == 1
    assert [(d["code"], d["message"]) for d in run.json()["diagnostics"]] == [
        (
            "catalogue.entry.version_mismatch",
            "the marketplace entry 'alpha' gives version 1.3.0, but the plugin's "
            ".claude-plugin/plugin.json gives 1.2.0",
        ),
        (
            "tag.catalogue.disagree",
            "the catalogues and alpha's .claude-plugin/plugin.json disagree (1 finding); "
            "nothing is tagged",
        ),
    ]


def test_rule_satchel_refuses_a_catalogue_that_leaves_the_plugin_out(satchel, market):
    repo = market()
    path = repo / ".cursor-plugin/marketplace.json"
    doc = json.loads(path.read_text())
    doc["plugins"] = []
    path.write_text(json.dumps(doc))
    commit(repo, {})
    run = satchel("tag", "--dry-run", "--json", repo / "plugins/alpha")
    assert run.code == 1
    assert [(d["code"], d["message"]) for d in run.json()["diagnostics"]] == [
        (
            "catalogue.entry.unlisted",
            "plugin 'alpha' is listed in .claude-plugin/marketplace.json but not in "
            ".cursor-plugin/marketplace.json",
        ),
        (
            "tag.catalogue.disagree",
            "the catalogues and alpha's .claude-plugin/plugin.json disagree (1 finding); "
            "nothing is tagged",
        ),
    ]


def test_rule_satchel_refuses_two_catalogues_listing_two_sources(satchel, market):
    repo = market()
    put(repo / "plugins/alpha-copy/.claude-plugin/plugin.json", manifest("alpha", "1.2.0"))
    path = repo / ".cursor-plugin/marketplace.json"
    path.write_text(path.read_text().replace("./plugins/alpha", "./plugins/alpha-copy"))
    commit(repo, {})
    run = satchel("tag", "--dry-run", "--json", repo / "plugins/alpha")
    assert run.code == 1
    codes = [d["code"] for d in run.json()["diagnostics"]]
    assert codes == ["catalogue.entry.source_mismatch", "tag.catalogue.disagree"]


def test_the_tag_is_annotated_as_claude_codes_and_pushed(satchel, market, tmp_path):
    repo = market()
    remote = tmp_path / "remote.git"
    git("init", "-q", "--bare", remote, cwd=tmp_path)
    git("remote", "add", "origin", remote, cwd=repo)
    run = satchel("tag", "--push", repo / "plugins/alpha")
    assert run.code == 0, run.out
    assert git("tag", "-l", "--format=%(objecttype) %(subject)", cwd=repo) == "tag alpha 1.2.0"
    pushed = git("rev-parse", "alpha--v1.2.0^{commit}", cwd=remote)
    assert pushed == git("rev-parse", "HEAD", cwd=repo)
    again = satchel("tag", "--json", repo / "plugins/alpha")
    assert again.code == 1
    assert [d["code"] for d in again.json()["diagnostics"]] == ["tag.exists"]


def test_a_push_that_fails_is_reported_after_the_tag_is_made(satchel, market):
    repo = market()
    run = satchel("tag", "--push", "--json", "--remote", "nowhere", repo / "plugins/alpha")
    assert run.code == 1
    doc = run.json()
    assert (doc["created"], doc["pushed"]) == (True, False)
    assert [d["code"] for d in doc["diagnostics"]] == ["tag.git.failed"]
    assert git("tag", "-l", cwd=repo) == "alpha--v1.2.0"


def test_not_a_plugin_is_refused(satchel, tmp_path):
    run = satchel("tag", "--json", tmp_path)
    assert run.code == 1
    assert [d["code"] for d in run.json()["diagnostics"]] == ["tag.plugin.missing"]


def test_the_human_report_of_a_dry_run(satchel, market, monkeypatch):
    repo = market()
    monkeypatch.chdir(repo / "plugins/alpha")
    run = satchel("tag", "--dry-run")
    assert run.code == 0
    check_golden("tag-dry-run.txt", run.out)


def test_the_human_report_of_a_refusal(satchel, market, monkeypatch):
    repo = market()
    entry_version(repo)
    monkeypatch.chdir(repo)
    run = satchel("tag", "plugins/alpha")
    assert run.code == 1
    check_golden("tag-refused.txt", run.out)


def test_the_tag_made_is_the_one_claude_code_makes(satchel, claude_code_next, tmp_path):
    """Two copies of one repository: `claude plugin tag` tags one, `satchel tag` the other."""
    made = []
    for who in ("claude", "satchel"):
        repo = tmp_path / who
        repo.mkdir()
        git("init", "-q", "-b", "main", ".", cwd=repo)
        put(repo / "plugins/alpha/.claude-plugin/plugin.json", manifest("alpha", "1.2.0"))
        build_marketplace(repo, name="market", owner="Owner")
        commit(repo, {})
        alpha = repo / "plugins/alpha"
        if who == "claude":
            env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path / "home"), **GIT_ENV}
            subprocess.run(
                [str(claude_code_next), "plugin", "tag", str(alpha)], env=env, cwd=alpha,
                capture_output=True, stdin=subprocess.DEVNULL, timeout=CALL, check=True,
            )  # fmt: skip
        else:
            assert satchel("tag", alpha).code == 0
        shown = "%(refname) %(objecttype) %(*objecttype) %(contents)"
        made.append(git("for-each-ref", f"--format={shown}", "refs/tags", cwd=repo))
    assert made[0] == made[1] == "refs/tags/alpha--v1.2.0 tag commit alpha 1.2.0"


def test_no_program_the_repositorys_config_names_runs(satchel, market, tmp_path):
    repo = market()
    canary = hostile_config(repo, tmp_path)
    put(repo / ".git/info/attributes", "* diff=evil\nplugins/alpha/commands/go.md filter=evil\n")
    alpha = repo / "plugins/alpha"
    # stat-dirty files: git status would hash them again, through the filter
    for path in (alpha / ".claude-plugin/plugin.json", alpha / "commands/go.md"):
        os.utime(path, (1, 1))
    run = satchel("tag", "--dry-run", "--json", alpha)
    assert not canary.exists()
    assert run.code == 0, run.out
    assert run.json()["plan"]["tag"] == "alpha--v1.2.0"
    assert [(d["code"], d["message"]) for d in run.json()["diagnostics"]] == [
        (
            "tag.tree.unchecked",
            "whether these files changed is not checked, as git stores them through a "
            "filter or an encoding: plugins/alpha/commands/go.md",
        )
    ]
    assert not canary.exists()
    changed = {"name": "alpha", "description": "Changed.", "version": "1.2.0"}
    (alpha / ".claude-plugin/plugin.json").write_text(json.dumps(changed))
    run = satchel("tag", "--dry-run", "--json", alpha)
    assert [(d["code"], d["message"]) for d in run.json()["diagnostics"]] == [
        (
            "tag.tree.dirty",
            "uncommitted changes affect this release: plugins/alpha/.claude-plugin/plugin.json",
        )
    ]
    assert not canary.exists()


def test_a_plugin_head_does_not_hold_is_refused(satchel, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", ".", cwd=repo)
    commit(repo, {".gitignore": "plug/\n"})
    plug = repo / "plug"
    put(plug / ".claude-plugin/plugin.json", manifest("plug", "1.0.0"))
    run = satchel("tag", "--dry-run", "--json", plug)
    assert run.code == 1
    assert run.json()["plan"] is None
    assert [(d["code"], d["message"]) for d in run.json()["diagnostics"]] == [
        (
            "tag.plugin.uncommitted",
            "plug's manifest plug/.claude-plugin/plugin.json is not in HEAD, "
            "so the tag would not hold the plugin",
        )
    ]


def test_files_git_ignores_below_the_plugin_are_named(satchel, market):
    repo = market()
    commit(repo, {"plugins/alpha/.gitignore": "dist/\n"})
    put(repo / "plugins/alpha/dist/server.js", "run();\n")
    run = satchel("tag", "--dry-run", "--json", repo / "plugins/alpha")
    assert run.code == 0, run.out
    assert run.json()["plan"]["tag"] == "alpha--v1.2.0"
    assert [(d["code"], d["message"]) for d in run.json()["diagnostics"]] == [
        (
            "tag.tree.ignored",
            "files git ignores below alpha are not in the release: plugins/alpha/dist/",
        )
    ]
