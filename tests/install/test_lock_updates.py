"""skills.lock under installs run at once: each is a read-modify-write made while
holding the lock file, so none is lost; a wait past SATCHEL_LOCK_WAIT is
``install.lock.busy``; and `verify` reports a tree satchel placed that the lock does
not hold (``install.lock.unlisted``)."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import skill_md, write_tree

from .support import git_repo

NAMES = ("alpha", "bravo", "charlie", "delta", "echo")


def _env(home: Path, **more: str) -> dict[str, str]:
    return {**os.environ, "HOME": str(home), **more}


def _sources(tmp_path: Path) -> list[Path]:
    return [
        write_tree(tmp_path / f"src-{n}", {f"skills/{n}/SKILL.md": skill_md(n, f"Does {n}.")})
        for n in NAMES
    ]


def _while_locked(
    state: Path, home: Path, *args: str, project: Path
) -> subprocess.CompletedProcess[bytes]:
    """`satchel ARGS --json` run while another satchel holds the lock of `state`, with
    SATCHEL_LOCK_WAIT at 0.2 s."""
    fd = os.open(state, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another satchel, busy with the lock
        return subprocess.run(
            [sys.executable, "-m", "satchel", *args,
             "--project", str(project), "--home", str(home), "--json"],
            capture_output=True, env=_env(home, SATCHEL_LOCK_WAIT="0.2"), timeout=120,
            check=False,
        )  # fmt: skip
    finally:
        os.close(fd)


def test_five_installs_at_once_each_keep_their_entry(satchel, tmp_path, project, home):
    where = ["--project", str(project), "--home", str(home)]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "satchel", "install", str(src), *where, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(home),
        )
        for src in _sources(tmp_path)
    ]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert (run.returncode, err) == (0, b""), out
    lock = json.loads((project / ".satchel" / "skills.lock").read_text())
    assert [e["name"] for e in lock["entries"]] == list(NAMES)
    code, out, _ = satchel("verify", "--json")  # the five processes are done: read here
    assert code == 0
    assert [e["status"] for e in json.loads(out)["entries"]] == ["ok"] * len(NAMES)


def test_an_install_waits_for_the_lock_a_bounded_time(tmp_path, project, home):
    state = project / ".satchel"
    state.mkdir()
    done = _while_locked(state, home, "install", str(_sources(tmp_path)[0]), project=project)
    assert done.returncode == 1
    (problem,) = json.loads(done.stdout)["diagnostics"]
    assert (problem["code"], problem["message"], problem["hint"]) == (
        "install.lock.busy",
        "another satchel has been changing skills.lock for more than 0.2 s; nothing was written",
        f"run again once it is done (it holds {state})",
    )
    assert sorted(p.name for p in state.iterdir()) == []  # nothing left behind


# A satchel killed between placing its tree and writing the lock: SIGKILL where the
# lock would be written, after the tree is in place.
_KILLED_BEFORE_THE_LOCK = """
import os, signal, sys
import satchel.install._installer as installer
installer.write_lock = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
from satchel.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_verify_reports_an_installed_skill_the_lock_does_not_hold(satchel, tmp_path, project, home):
    sources = _sources(tmp_path)
    assert satchel("install", sources[0])[0] == 0
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_BEFORE_THE_LOCK, "install", str(sources[1]),
         "--project", str(project), "--home", str(home)],
        capture_output=True, env=_env(home), timeout=120, check=False,
    )  # fmt: skip
    assert killed.returncode == -9
    (project / ".satchel" / "skills" / "mine").mkdir()  # not placed by satchel: not reported
    code, out, _ = satchel("verify", "--json")
    assert code == 1
    doc = json.loads(out)
    path = project / ".satchel" / "skills" / "bravo"
    assert [(e["name"], e["status"]) for e in doc["entries"]] == [
        ("alpha", "ok"),
        ("bravo", "unlisted"),
    ]
    assert [(d["code"], d["message"], d["path"]) for d in doc["diagnostics"]] == [
        (
            "install.lock.unlisted",
            f"skill 'bravo' is installed at {path}, but skills.lock does not list it, so "
            "update, remove and install --frozen do not know it",
            str(path),
        )
    ]
    assert satchel("install", sources[1], "--force")[0] == 0  # pinned again
    assert satchel("verify")[0] == 0
    assert not (project / ".satchel" / ".skills.lock.placed").exists()


def test_a_refused_install_leaves_no_lock_state_behind(satchel, tmp_path, project):
    assert satchel("install", _sources(tmp_path)[0])[0] == 0
    state = project / ".satchel"
    before = sorted(p.name for p in state.iterdir())
    bad = write_tree(tmp_path / "bad", {"skills/bad/SKILL.md": skill_md("bad", "Bad.")})
    (bad / "skills" / "bad" / "out").symlink_to("/etc")
    assert satchel("install", bad)[0] != 0
    assert sorted(p.name for p in state.iterdir()) == before == ["skills", "skills.lock"]


def test_five_marketplaces_added_at_once_are_all_kept(tmp_path, project, home):
    where = ["--project", str(project), "--home", str(home)]
    markets = [
        git_repo(
            tmp_path / f"market-{n}",
            {
                ".claude-plugin/marketplace.json": json.dumps(
                    {"name": f"m-{n}", "owner": {"name": "Team"}, "plugins": []}
                )
            },
        )
        for n in NAMES
    ]  # git repositories: each add fetches for a while between its read and its write
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "satchel",
                "marketplace",
                "add",
                f"file://{m}",
                *where,
                "--json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(home),
        )
        for m in markets
    ]
    done = [(run.communicate(timeout=120), run.returncode) for run in runs]
    for (out, err), code in done:
        assert (code, err) == (0, b""), out
    store = home / ".config" / "satchel" / "marketplaces" / "marketplaces.json"
    kept = json.loads(store.read_text())["marketplaces"]
    assert sorted(k["name"] for k in kept) == [f"m-{n}" for n in NAMES]


def test_a_record_that_is_a_link_is_never_followed(satchel, tmp_path, project):
    """A project may commit `.satchel/.skills.lock.placed` as a link: an install
    neither appends to what it points at nor copies it back into the project."""
    outside = tmp_path / "outside"
    outside.write_text("SECRET\n")
    record = project / ".satchel" / ".skills.lock.placed"
    record.parent.mkdir()
    record.symlink_to(outside)
    code, out, _ = satchel("install", _sources(tmp_path)[0], "--json")
    assert code == 1
    [problem] = json.loads(out)["diagnostics"]
    assert (problem["code"], problem["message"], problem["hint"]) == (
        "install.lock.invalid",
        f".skills.lock.placed cannot be used: {os.strerror(errno.ELOOP)}; nothing was written",
        f"remove {record}",
    )
    assert outside.read_text() == "SECRET\n"
    assert record.is_symlink() and not (project / ".satchel" / "skills").exists()


def test_a_user_scope_whose_folder_is_a_link_installs(satchel, tmp_path, home):
    """Dotfiles kept elsewhere: the user's satchel folder is a link, and its lock is
    taken on the folder it leads to."""
    kept = tmp_path / "dotfiles" / "satchel"
    kept.mkdir(parents=True)
    (home / ".config").mkdir(parents=True, exist_ok=True)
    (home / ".config" / "satchel").symlink_to(kept)
    assert satchel("install", _sources(tmp_path)[0], "--scope", "user")[0] == 0
    assert [e["name"] for e in json.loads((kept / "skills.lock").read_text())["entries"]] == [
        "alpha"
    ]


def test_a_frozen_install_waits_for_the_lock_too(satchel, tmp_path, project, home):
    assert satchel("install", _sources(tmp_path)[0])[0] == 0
    state = project / ".satchel"
    shutil.rmtree(state / "skills" / "alpha")  # to be placed again from the lock
    done = _while_locked(state, home, "install", "--frozen", project=project)
    assert done.returncode == 1
    assert [d["code"] for d in json.loads(done.stdout)["diagnostics"]] == ["install.lock.busy"]
    assert not (state / "skills" / "alpha").exists()
    assert satchel("install", "--frozen")[0] == 0
    assert (state / "skills" / "alpha" / "SKILL.md").is_file()
    assert sorted(p.name for p in state.iterdir()) == ["skills", "skills.lock"]


def test_a_signature_round_trips_through_the_lock_file_and_a_bad_one_is_refused(tmp_path):
    from satchel.install._lock import Lock, LockEntry, Signature, read_lock, write_lock

    signed = Signature("dev@example.com", "https://issuer.test", "sha256:" + "a" * 64, "bundle", 7)
    entry = LockEntry(
        "pdf",
        "skill",
        "satchel",
        "o/r",
        None,
        None,
        None,
        "skills/pdf",
        "sha256:0",
        signature=signed,
    )
    path = tmp_path / "skills.lock"
    write_lock(path, Lock((entry,)))
    assert read_lock(path).entries == (entry,)
    row = json.loads(path.read_text())["entries"][0]
    assert row["signature"] == {
        "identity": "dev@example.com",
        "issuer": "https://issuer.test",
        "digest": "sha256:" + "a" * 64,
        "kind": "bundle",
        "log_index": 7,
    }
    row["signature"]["kind"] = "handshake"
    path.write_text(json.dumps({"version": 1, "entries": [row]}))
    from satchel.install import InstallError

    with pytest.raises(InstallError, match="signature kind 'handshake' is not known"):
        read_lock(path)
