"""`satchel validate` of a plugin repository: a version never bumped after the plugin's
files changed (plugin.version.unbumped), and a marketplace entry naming another version
than the manifest (catalogue.entry.version_mismatch). Real git repositories in temp
folders, checked out with git's line endings, filters and file modes; one release
tagged by the real `claude plugin tag` of Claude Code 2.1.337."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from satchel import load
from tests.install.support import commit, git, hostile_config
from tests.support import put, skill_md, write_tree

OURS = ("plugin.version.", "catalogue.entry.version_mismatch")
HINT = (
    "bump `version` in {manifest}: a host that caches plugins by version (Claude Code "
    "does) keeps serving the copy of {version}"
)


def committed(repo: Path, files: dict[str, str]) -> str:
    """Commit `files` (written first); the new commit's id."""
    commit(repo, files)
    return git("rev-parse", "HEAD", cwd=repo)


def claude_manifest(name: str, version: str) -> str:
    return json.dumps({"name": name, "version": version, "description": f"The {name} plugin."})


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git("init", "-q", "-b", "main", ".", cwd=path)
    return path


def found(satchel_cli, *paths: Path) -> dict[str, list[tuple[str, str, str, str | None]]]:
    """Each plugin's version findings: (code, message, path, hint)."""
    result = satchel_cli("validate", "--json", *paths)
    assert result.code == 0, result.out + result.err
    return {
        c["name"]: [
            (d["code"], d["message"], d["path"], d["hint"])
            for d in c["diagnostics"]
            if d["code"].startswith(OURS)
        ]
        for c in result.json()["checked"]
    }


def unbumped(root: Path, manifest: str, message: str, version: str = "1.0.0"):
    hint = HINT.format(manifest=manifest, version=version)
    return ("plugin.version.unbumped", message, str(root / manifest), hint)


def filtered(root: Path, files: str = "1 file", shown: str = "README.md"):
    """The info naming the files git stores through a filter."""
    manifest = ".claude-plugin/plugin.json"
    message = (
        "whether plugin 'alpha' changed after version 1.0.0 was released is not checked for "
        f"{files} git stores through a filter or an encoding: {shown}"
    )
    hint = (
        "satchel runs no filter of the repository's, so it cannot tell what git stores for "
        f"them; bump `version` in {manifest} when they change"
    )
    return ("plugin.version.unchecked", message, str(root / manifest), hint)


def test_an_uncommitted_change_after_the_claude_plugin_tag_form_warns(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    manifest = ".claude-plugin/plugin.json"
    commit(repo, {manifest: claude_manifest("alpha", "1.0.0"), "README.md": "A"})
    git("tag", "-a", "-m", "alpha 1.0.0", "alpha--v1.0.0", cwd=repo)
    assert found(satchel, repo) == {"alpha": []}
    skill = skill_md("new")
    write_tree(repo, {"README.md": "A, changed", "skills/new/SKILL.md": skill})
    write_tree(repo, {".gitignore": "*.log\n", "debug.log": "ignored"})
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: uncommitted "
        "changes; 3 files differ: .gitignore, README.md, skills/new/SKILL.md"
    )
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}
    # the version bumped, not yet committed: nothing to say
    write_tree(repo, {manifest: claude_manifest("alpha", "1.1.0")})
    assert found(satchel, repo) == {"alpha": []}


def test_without_a_tag_the_commit_that_set_the_version_is_the_release(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    manifest = ".claude-plugin/plugin.json"
    commit(repo, {manifest: claude_manifest("alpha", "0.9.0"), "README.md": "A"})
    set_at = committed(repo, {manifest: claude_manifest("alpha", "1.0.0")})
    commit(repo, {"skills/s/SKILL.md": skill_md("s")})
    commit(repo, {"README.md": "B"})
    message = (
        f"plugin 'alpha' changed after version 1.0.0 was set in commit {set_at[:7]}: 2 later "
        "commits; 2 files differ: README.md, skills/s/SKILL.md"
    )
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}
    # a later manifest edit that keeps the version keeps the release where it was
    kept = json.dumps({"name": "alpha", "version": "1.0.0", "description": "Now longer."})
    commit(repo, {manifest: kept})
    message = (
        f"plugin 'alpha' changed after version 1.0.0 was set in commit {set_at[:7]}: 3 later "
        f"commits; 3 files differ: {manifest}, README.md, skills/s/SKILL.md"
    )
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}
    commit(repo, {manifest: claude_manifest("alpha", "1.1.0")})  # bumped and committed
    assert found(satchel, repo) == {"alpha": []}


def test_the_files_named_are_the_first_five_and_a_count_of_the_rest(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    manifest = ".claude-plugin/plugin.json"
    commit(repo, {manifest: claude_manifest("alpha", "1.0.0")})
    git("tag", "alpha--v1.0.0", cwd=repo)
    write_tree(repo, {f"commands/c{n}.md": f"Command {n}." for n in range(7)})
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: uncommitted "
        "changes; 7 files differ: commands/c0.md, commands/c1.md, commands/c2.md, "
        "commands/c3.md, commands/c4.md and 2 more"
    )
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}


def test_a_marketplace_repo_checks_each_plugin_by_its_own_tag_and_entry(satchel, tmp_path):
    repo = new_repo(tmp_path / "market")
    listing = {
        "name": "market",
        "owner": {"name": "Owner"},
        "plugins": [
            {"name": "alpha", "source": "./plugins/alpha", "version": "0.9.0"},
            {"name": "beta", "source": "./plugins/beta", "version": "2.0.0"},
        ],
    }
    beta = {"name": "beta", "version": "2.0.0", "description": "The beta plugin."}
    first = committed(
        repo,
        {
            ".claude-plugin/marketplace.json": json.dumps(listing),
            "plugins/alpha/.claude-plugin/plugin.json": claude_manifest("alpha", "1.0.0"),
            "plugins/alpha/commands/go.md": "Go.",
            "plugins/beta/.codex-plugin/plugin.json": json.dumps(beta),
            "plugins/beta/skills/b/SKILL.md": skill_md("b"),
        },
    )
    git("tag", "alpha--v1.0.0", cwd=repo)
    commit(repo, {"plugins/alpha/commands/go.md": "Go now."})
    commit(repo, {"plugins/beta/skills/b/SKILL.md": skill_md("b", "Does another thing.")})
    # a repository-wide tag of beta's version is no release of a plugin in a subfolder
    git("tag", "v2.0.0", cwd=repo)
    alpha, beta_root = repo / "plugins/alpha", repo / "plugins/beta"
    mismatch = (
        "catalogue.entry.version_mismatch",
        "the marketplace entry 'alpha' gives version 0.9.0, but the plugin's "
        ".claude-plugin/plugin.json gives 1.0.0",
        str(repo / ".claude-plugin/marketplace.json"),
        "set the entry's `version` to 1.0.0, or remove it and let the manifest name the version",
    )
    # the commit that changed beta is not alpha's
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: 1 later commit; "
        "1 file differs: commands/go.md"
    )
    alpha_warning = unbumped(alpha, ".claude-plugin/plugin.json", message)
    message = (
        f"plugin 'beta' changed after version 2.0.0 was set in commit {first[:7]}: 1 later "
        "commit; 1 file differs: skills/b/SKILL.md"
    )
    beta_warning = unbumped(beta_root, ".codex-plugin/plugin.json", message, "2.0.0")
    assert found(satchel, repo / "plugins") == {
        "alpha": [alpha_warning, mismatch],
        "beta": [beta_warning],
    }
    # the plugin named alone finds the marketplace two folders up
    assert found(satchel, alpha) == {"alpha": [alpha_warning, mismatch]}


def test_a_codex_marketplace_entry_with_another_version_warns(satchel, tmp_path):
    repo = new_repo(tmp_path / "market")
    listing = {
        "name": "market",
        "plugins": [
            {"name": "lint", "source": {"source": "local", "path": "./lint"}, "version": "3.0.0"},
            {"name": "same", "source": {"source": "local", "path": "./same"}, "version": "1.0.0"},
        ],
    }
    lint = {"name": "lint", "version": "3.1.0", "description": "Lints."}
    same = {"name": "same", "version": "1.0.0", "description": "Agrees."}
    commit(
        repo,
        {
            ".agents/plugins/marketplace.json": json.dumps(listing),
            "lint/.codex-plugin/plugin.json": json.dumps(lint),
            "same/.codex-plugin/plugin.json": json.dumps(same),
        },
    )
    mismatch = (
        "catalogue.entry.version_mismatch",
        "the marketplace entry 'lint' gives version 3.0.0, but the plugin's "
        ".codex-plugin/plugin.json gives 3.1.0",
        str(repo / ".agents/plugins/marketplace.json"),
        "set the entry's `version` to 3.1.0, or remove it and let the manifest name the version",
    )
    assert found(satchel, repo / "lint", repo / "same") == {"lint": [mismatch], "same": []}


def test_a_root_plugin_accepts_a_v_tag_and_a_bare_version_tag(satchel, tmp_path):
    repo = new_repo(tmp_path / "ext")
    gemini = {"name": "ext", "version": "1.2.0", "description": "An extension."}
    commit(repo, {"gemini-extension.json": json.dumps(gemini), "GEMINI.md": "Hi."})
    git("tag", "1.2.0", cwd=repo)
    commit(repo, {"GEMINI.md": "Hello."})
    message = (
        "plugin 'ext' changed after version 1.2.0 was tagged 1.2.0: 1 later commit; "
        "1 file differs: GEMINI.md"
    )
    assert found(satchel, repo) == {
        "ext": [unbumped(repo, "gemini-extension.json", message, "1.2.0")]
    }
    git("tag", "v1.2.0", cwd=repo)  # preferred to the bare version's tag
    assert found(satchel, repo) == {"ext": []}


def test_nothing_is_said_without_a_repo_a_committed_version_or_git(satchel, tmp_path, monkeypatch):
    native = {
        "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        "name": "kit",
        "version": "1.0.0",
        "description": "A kit.",
    }
    plain = tmp_path / "plain"
    write_tree(plain, {"plugin.json": json.dumps(native)})
    assert found(satchel, plain) == {"kit": []}
    repo = new_repo(tmp_path / "repo")
    commit(repo, {"README.md": "x"})
    write_tree(repo, {"kit/plugin.json": json.dumps(native)})  # never committed
    assert found(satchel, repo / "kit") == {"kit": []}
    commit(repo, {})
    write_tree(repo, {"kit/README.md": "changed"})
    assert [c for c, *_ in found(satchel, repo / "kit")["kit"]] == ["plugin.version.unbumped"]
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))  # git cannot be found
    assert found(satchel, repo / "kit") == {"kit": []}


def test_a_shallow_clone_without_a_tag_says_why_it_is_not_checked(satchel, tmp_path):
    origin = new_repo(tmp_path / "origin")
    commit(origin, {".claude-plugin/plugin.json": claude_manifest("alpha", "1.0.0")})
    commit(origin, {"README.md": "A"})
    clone = tmp_path / "clone"
    git("clone", "-q", "--depth", "1", f"file://{origin}", str(clone), cwd=tmp_path)
    manifest = ".claude-plugin/plugin.json"
    info = (
        "plugin.version.unchecked",
        "whether plugin 'alpha' changed after version 1.0.0 was released is not checked: "
        "the clone is shallow and no tag marks the release",
        str(clone / manifest),
        "fetch the whole history (git fetch --unshallow), or tag the release",
    )
    assert found(satchel, clone) == {"alpha": [info]}


def test_no_program_the_repositorys_config_names_runs(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    manifest = ".claude-plugin/plugin.json"
    commit(repo, {manifest: claude_manifest("alpha", "1.0.0"), "README.md": "A"})
    canary = hostile_config(repo, tmp_path)
    attributes = "* diff=evil text eol=crlf\nREADME.md filter=evil\n"
    write_tree(repo, {".git/info/attributes": attributes, "README.md": "B", "NEW.md": "C"})
    message = (
        "plugin 'alpha' changed after version 1.0.0 was set in commit "
        f"{git('rev-parse', 'HEAD', cwd=repo)[:7]}: uncommitted changes; 1 file differs: NEW.md"
    )
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message), filtered(repo)]}
    assert not canary.exists()


def test_loading_runs_no_git_and_validate_does(satchel, tmp_path, monkeypatch, layout):
    repo = new_repo(tmp_path / "alpha")
    commit(repo, {".claude-plugin/plugin.json": claude_manifest("alpha", "1.0.0")})
    programs, log = tmp_path / "programs", tmp_path / "git.log"
    wrapper = f'#!/bin/sh\necho "$1" >> {log}\nexec {shutil.which("git")} "$@"\n'
    put(programs, "git", wrapper, mode=0o755)
    monkeypatch.setenv("PATH", f"{programs}{os.pathsep}{os.environ['PATH']}")
    env = load(layout=layout, plugin_dirs=(repo,))
    assert list(env.plugins.plugins) == ["alpha"]
    assert not log.exists()
    assert found(satchel, repo) == {"alpha": []}
    assert log.read_text().split()[0] == "-c"  # satchel's git ran, its config first


def test_a_release_tagged_by_claude_plugin_tag_is_read(satchel, tmp_path, claude_code_next):
    repo = new_repo(tmp_path / "market")
    listing = {
        "name": "market",
        "owner": {"name": "Owner"},
        "plugins": [{"name": "alpha", "source": "./plugins/alpha", "version": "1.0.0"}],
    }
    commit(
        repo,
        {
            ".claude-plugin/marketplace.json": json.dumps(listing),
            "plugins/alpha/.claude-plugin/plugin.json": claude_manifest("alpha", "1.0.0"),
            "plugins/alpha/commands/go.md": "Go.",
        },
    )
    alpha = repo / "plugins/alpha"
    home = tmp_path / "claude-home"
    home.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    env |= {"GIT_COMMITTER_NAME": "Author", "GIT_COMMITTER_EMAIL": "author@example.com"}
    done = subprocess.run(
        [str(claude_code_next), "plugin", "tag"],
        cwd=alpha,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert git("tag", "--list", cwd=repo) == "alpha--v1.0.0"
    assert found(satchel, alpha) == {"alpha": []}
    commit(repo, {"plugins/alpha/commands/go.md": "Go now."})
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: 1 later commit; "
        "1 file differs: commands/go.md"
    )
    manifest = ".claude-plugin/plugin.json"
    assert found(satchel, alpha) == {"alpha": [unbumped(alpha, manifest, message)]}


AUTOCRLF = "[core]\n\tautocrlf = true\n"


def tagged(repo: Path, files: dict[str, str | bytes]) -> Path:
    """`repo` with `files` and alpha's 1.0.0 manifest committed and tagged."""
    files = {".claude-plugin/plugin.json": claude_manifest("alpha", "1.0.0"), **files}
    commit(repo, files, tag="alpha--v1.0.0")
    return repo


def checked_out_again(repo: Path, *names: str) -> None:
    """Delete `names` and check them out again, so git writes them as its config says;
    git itself then sees nothing to commit."""
    for name in names:
        (repo / name).unlink()
    git("checkout", "--", *names, cwd=repo)
    assert git("status", "--porcelain", cwd=repo) == ""


def test_a_clean_checkout_with_eol_crlf_is_no_change_and_an_edit_is(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    attributes = "*.md text eol=crlf\nid.txt ident\n"
    tagged(repo, {".gitattributes": attributes, "README.md": "A\nB\n", "id.txt": "$Id$\n"})
    checked_out_again(repo, "README.md", "id.txt")
    assert (repo / "README.md").read_bytes() == b"A\r\nB\r\n"
    assert (repo / "id.txt").read_text().startswith("$Id: ")  # expanded, stored as $Id$
    assert found(satchel, repo) == {"alpha": []}
    write_tree(repo, {"README.md": b"A\r\nC\r\n"})
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: uncommitted "
        "changes; 1 file differs: README.md"
    )
    manifest = ".claude-plugin/plugin.json"
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}


def test_line_endings_follow_core_autocrlf_and_files_committed_with_crlf(
    satchel, tmp_path, monkeypatch
):
    repo = new_repo(tmp_path / "alpha")
    crlf = b"Committed\r\nwith CRLF.\r\n"
    tagged(repo, {"README.md": "A\nB\n", "legacy.md": crlf, "logo.bin": b"\0\r\n"})
    git("config", "core.autocrlf", "true", cwd=repo)
    checked_out_again(repo, "README.md", "legacy.md")
    assert (repo / "README.md").read_bytes() == b"A\r\nB\r\n"
    assert (repo / "legacy.md").read_bytes() == crlf  # git keeps a committed CRLF
    assert found(satchel, repo) == {"alpha": []}
    # the user's own config counts too, as it does for git status
    git("config", "--unset", "core.autocrlf", cwd=repo)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(put(tmp_path, "gitconfig", AUTOCRLF)))
    assert found(satchel, repo) == {"alpha": []}
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    assert [c for c, *_ in found(satchel, repo)["alpha"]] == ["plugin.version.unbumped"]
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    write_tree(repo, {"logo.bin": b"\0\n"})  # binary: its CR is content
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: uncommitted "
        "changes; 1 file differs: logo.bin"
    )
    manifest = ".claude-plugin/plugin.json"
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}


def test_a_file_git_stores_through_a_filter_is_named_not_compared(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    # an LFS-style pair of programs, run here by the test's git only
    git("config", "filter.lfs.clean", "tr a-z A-Z", cwd=repo)
    git("config", "filter.lfs.smudge", "tr A-Z a-z", cwd=repo)
    attributes = "*.bin filter=lfs diff=lfs merge=lfs -text\n"
    tagged(repo, {".gitattributes": attributes, "big.bin": "data", "small.bin": "more"})
    checked_out_again(repo, "big.bin", "small.bin")
    assert (repo / "big.bin").read_text() == "data"  # the blob holds DATA
    assert found(satchel, repo) == {"alpha": [filtered(repo, "2 files", "big.bin, small.bin")]}
    write_tree(repo, {"new.bin": "new"})  # a file the release lacks is a change
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: uncommitted "
        "changes; 1 file differs: new.bin"
    )
    manifest = ".claude-plugin/plugin.json"
    expected = [unbumped(repo, manifest, message), filtered(repo, "2 files", "big.bin, small.bin")]
    assert found(satchel, repo) == {"alpha": expected}


def test_file_modes_count_only_where_core_filemode_and_symlinks_trust_them(satchel, tmp_path):
    repo = new_repo(tmp_path / "alpha")
    (repo / "link").symlink_to("run.sh")
    tagged(repo, {"run.sh": "echo hi\n"})
    (repo / "run.sh").chmod(0o755)
    git("config", "core.filemode", "false", cwd=repo)
    git("config", "core.symlinks", "false", cwd=repo)
    checked_out_again(repo, "link")
    assert (repo / "link").read_text() == "run.sh"  # a plain file holding the target
    assert found(satchel, repo) == {"alpha": []}
    git("config", "core.filemode", "true", cwd=repo)
    message = (
        "plugin 'alpha' changed after version 1.0.0 was tagged alpha--v1.0.0: uncommitted "
        "changes; 1 file differs: run.sh"
    )
    manifest = ".claude-plugin/plugin.json"
    assert found(satchel, repo) == {"alpha": [unbumped(repo, manifest, message)]}
