"""Git sources: bare repositories over file://, git daemon on 127.0.0.1; nothing in a
repository runs (I04 submodules, I05 checkout-time filters and hooks), commits are
pinned and moved tags are caught (I07)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from satchel.core.layout import Layout
from satchel.install import InstallError, install_from_spec, install_frozen, read_lock, update
from tests.support import skill_md

from .support import bare, commit, git, git_repo, head, state

SKILLS = {"skills/pdf/SKILL.md": skill_md("pdf"), "skills/tdd/SKILL.md": skill_md("tdd")}


def env_with_home(home: Path) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(home)}


def test_file_url_installs_and_pins_the_commit(layout: Layout, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "work", SKILLS, tag="v1")
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    result = install_from_spec(f"{url}#v1:skills", skills=["tdd"], layout=layout, environ={})
    (done,) = result.installed
    assert done.path == layout.project / ".satchel/skills/tdd"
    assert (done.entry.resolved, done.entry.ref, done.entry.folder) == (
        head(repo),
        "v1",
        "skills/tdd",
    )
    assert (done.path / "SKILL.md").read_text() == skill_md("tdd")
    lock = json.loads((layout.project / ".satchel/skills.lock").read_text())
    assert lock["entries"][0]["source"] == f"{url}#v1:skills"


def test_git_daemon_serves_a_repository(layout: Layout, tmp_path: Path, git_daemon) -> None:
    base, root = git_daemon
    repo = git_repo(tmp_path / "work", SKILLS)
    bare(repo, root / "skills.git")
    result = install_from_spec(f"{base}/skills.git", layout=layout, environ={})
    assert sorted(i.entry.name for i in result.installed) == ["pdf", "tdd"]
    assert {i.entry.resolved for i in result.installed} == {head(repo)}


def test_a_pinned_sha_is_fetched(layout: Layout, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "work", SKILLS)
    first = head(repo)
    commit(repo, {"skills/pdf/SKILL.md": skill_md("pdf", "Newer.")})
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    result = install_from_spec(f"{url}#{first}", skills=["pdf"], layout=layout, environ={})
    assert result.installed[0].entry.resolved == first
    assert (result.installed[0].path / "SKILL.md").read_text() == skill_md("pdf")


def test_i04_submodules_are_never_fetched(layout: Layout, tmp_path: Path, home: Path) -> None:
    canary = tmp_path / "canary"
    repo = git_repo(tmp_path / "work", SKILLS)
    modules = (
        f'[submodule "ext"]\n\tpath = skills/pdf/sub\n\turl = ext::sh -c touch% {canary}\n'
        '[submodule "ssh"]\n\tpath = skills/tdd/keys\n\turl = file:///srv/user/.ssh\n'
        '[submodule "up"]\n\tpath = up\n\turl = ../../../etc\n'
    )
    (repo / ".gitmodules").write_text(modules)
    sha = head(repo)
    for path in ("skills/pdf/sub", "skills/tdd/keys", "up"):
        git("update-index", "--add", "--cacheinfo", f"160000,{sha},{path}", cwd=repo)
    git("add", ".gitmodules", cwd=repo)
    git("commit", "-q", "-m", "submodules", cwd=repo)
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    result = install_from_spec(url, layout=layout, environ=env_with_home(home))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        (
            "install.git.submodule-ignored",
            f"{url} has submodules that were not fetched: skills/pdf/sub, skills/tdd/keys, up",
        )
    ]
    assert not canary.exists()
    # the submodule is an empty directory, as in a clone without --recurse-submodules
    pdf = state(result.installed[0].path)
    assert pdf == {"SKILL.md": state(repo / "skills/pdf")["SKILL.md"], "sub": "dir"}


def test_i04_a_submodule_named_like_a_path_is_refused_by_fsck(
    layout: Layout, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "work", SKILLS)
    (repo / ".gitmodules").write_text('[submodule "../../hooks"]\n\tpath = x\n\turl = ./x\n')
    git("update-index", "--add", "--cacheinfo", f"160000,{head(repo)},x", cwd=repo)
    git("add", ".gitmodules", cwd=repo)
    git("commit", "-q", "-m", "submodule", cwd=repo)
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    before = state(layout.project)
    with pytest.raises(InstallError) as caught:
        install_from_spec(url, layout=layout, environ={})
    assert caught.value.code == "install.fetch.failed"
    assert "disallowed submodule name: ../../hooks" in caught.value.diagnostic.message
    assert state(layout.project) == before


def test_i05_filters_and_hooks_of_the_machine_do_not_run(
    layout: Layout, tmp_path: Path, home: Path
) -> None:
    canary = tmp_path / "canary"
    # the user's own git config defines the filters and a hook path: none may apply
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "post-merge", "reference-transaction", "pre-auto-gc"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {canary}\n")
        (hooks / hook).chmod(0o755)
    (home / ".gitconfig").write_text(
        f'[filter "evil"]\n\tsmudge = sh -c "touch {canary}; cat"\n\trequired = true\n'
        f'[filter "lfs"]\n\tsmudge = sh -c "touch {canary}; cat"\n'
        f'\tprocess = sh -c "touch {canary}"\n'
        f"[core]\n\thooksPath = {hooks}\n\tfsmonitor = sh -c 'touch {canary}'\n"
    )
    pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64 + "\nsize 9\n"
    files = {
        **SKILLS,
        ".gitattributes": "* filter=evil\n*.bin filter=lfs diff=lfs merge=lfs -text\n",
        ".gitconfig": f"[core]\n\thooksPath = {hooks}\n",
        "skills/pdf/data.bin": pointer,
    }
    repo = git_repo(tmp_path / "work", files)
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    result = install_from_spec(url, layout=layout, environ=env_with_home(home))
    assert not canary.exists()
    pdf = layout.project / ".satchel/skills/pdf"
    assert (pdf / "data.bin").read_text() == pointer  # the pointer stays plain text
    assert [(d.code, d.message) for d in result.diagnostics] == [
        (
            "install.git.lfs-pointer",
            "pdf/data.bin is a Git LFS pointer; its content was not fetched",
        )
    ]


def test_i05_cve_2024_32002_shape_is_refused(layout: Layout, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "work", {**SKILLS, "A/modules/x/hooks/post-checkout": "#!/bin/sh\n"})
    os.symlink(".git", repo / "a")
    commit(repo, {})
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    before = state(layout.project)
    with pytest.raises(InstallError) as caught:
        install_from_spec(url, layout=layout, environ={})
    assert caught.value.code == "install.archive.duplicate"
    assert state(layout.project) == before


def test_i07_moved_tag_frozen_update_and_warning(layout: Layout, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "work", SKILLS, tag="v1")
    old = head(repo)
    served = bare(repo, tmp_path / "r.git")
    url = f"file://{served}#v1:skills"
    install_from_spec(url, skills=["pdf"], layout=layout, environ={})
    locked = read_lock(layout.project / ".satchel/skills.lock")
    # the tag moves to another commit
    commit(repo, {"skills/pdf/SKILL.md": skill_md("pdf", "Moved."), "skills/pdf/new.md": "n"})
    git("tag", "-f", "v1", cwd=repo)
    git("push", "-q", "-f", served, "main", "v1", cwd=repo)
    new = head(repo)
    # a frozen install reproduces the locked commit exactly
    pdf = layout.project / ".satchel/skills/pdf"
    (pdf / "SKILL.md").write_text("edited")
    install_frozen(layout=layout, environ={})
    assert (pdf / "SKILL.md").read_text() == skill_md("pdf")
    assert read_lock(layout.project / ".satchel/skills.lock") == locked
    # install again: the move is reported
    result = install_from_spec(url, skills=["pdf"], layout=layout, environ={})
    assert [(d.code, d.message) for d in result.diagnostics] == [
        (
            "install.ref.moved",
            f"file://{served}#v1:skills was {old} when 'pdf' was installed and is {new} now",
        )
    ]
    # back to the old commit through the lock, then update shows the change
    (layout.project / ".satchel/skills.lock").write_text(
        json.dumps({"version": 1, "entries": [locked.entries[0].to_json()]})
    )
    install_frozen(layout=layout, environ={})
    (change,) = update(layout=layout, environ={})
    assert (change.before, change.after) == (old, new)
    assert (change.added, change.changed, change.removed) == (("new.md",), ("SKILL.md",), ())
    assert read_lock(layout.project / ".satchel/skills.lock").entries[0].resolved == new


def test_i07_unreachable_commit_is_refused(layout: Layout, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "work", SKILLS)
    served = bare(repo, tmp_path / "r.git")
    git("checkout", "-q", "-b", "side", cwd=repo)
    commit(repo, {"skills/pdf/SKILL.md": skill_md("pdf", "Impostor.")})
    impostor = head(repo)
    git("push", "-q", served, "side", cwd=repo)
    git("branch", "-q", "-D", "side", cwd=served)  # the commit stays in the object store
    before = state(layout.project)
    with pytest.raises(InstallError) as caught:
        install_from_spec(f"file://{served}#{impostor}", layout=layout, environ={})
    assert (caught.value.code, caught.value.diagnostic.message) == (
        "install.commit.unreachable",
        f"commit {impostor} is not reachable from any branch or tag of file://{served}",
    )
    assert state(layout.project) == before


def test_a_missing_repository_fails_plainly(layout: Layout, tmp_path: Path) -> None:
    with pytest.raises(InstallError) as caught:
        install_from_spec(f"file://{tmp_path}/nothing.git", layout=layout, environ={})
    assert caught.value.code == "install.fetch.failed"
    assert caught.value.diagnostic.message.startswith(
        f"git fetch of file://{tmp_path}/nothing.git failed: "
    )
