"""browse, install, update, remove, verify and install --frozen end to end through the
CLI, from local directories and archives; interrupted installs (I07)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.support import skill_md, write_tree

from .support import Entry, make_tar, state

PLUGIN = {
    "plugin.json": json.dumps(
        {
            "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
            "name": "helper",
            "version": "1.0.0",
            "description": "Helps.",
        }
    ),
    "skills/inner/SKILL.md": skill_md("inner"),
}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "src",
        {
            "skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs."),
            "skills/pdf/references/a.md": "A\n",
            "skills/tdd/SKILL.md": skill_md("tdd", "Test first."),
            **{f"plugins/helper/{k}": v for k, v in PLUGIN.items()},
        },
    )


def test_browse_shows_skills_and_plugins(satchel, source: Path) -> None:
    code, out, err = satchel("browse", source, "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert [(s["name"], s["folder"]) for s in doc["skills"]] == [
        ("pdf", "skills/pdf"),
        ("tdd", "skills/tdd"),
    ]
    assert [(p["name"], p["folder"], p["description"]) for p in doc["plugins"]] == [
        ("helper", "plugins/helper", "Helps.")
    ]
    code, out, _ = satchel("browse", source)
    assert code == 0
    assert "Skills: 2" in out and "Plugins: 1" in out and "Reads PDFs." in out


def test_install_all_skills_and_plugins(satchel, source: Path, project: Path) -> None:
    code, _out, err = satchel("install", source)
    assert code == 0
    # the plugin, not the skills, waits for the project to be trusted
    assert err.startswith("satchel: .satchel/plugins/helper/ not loaded: the project ")
    assert sorted(os.listdir(project / ".satchel/skills")) == ["pdf", "tdd"]
    assert os.listdir(project / ".satchel/plugins") == ["helper"]
    assert state(project / ".satchel/plugins/helper") == state(source / "plugins/helper")
    lock = json.loads((project / ".satchel/skills.lock").read_text())
    assert [(e["kind"], e["name"], e["folder"]) for e in lock["entries"]] == [
        ("plugin", "helper", "plugins/helper"),
        ("skill", "pdf", "skills/pdf"),
        ("skill", "tdd", "skills/tdd"),
    ]
    assert not os.path.lexists(project / ".satchel/.satchel-staging")


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["--family", "agents"], "{project}/.agents/skills"),
        (["--family", "claude"], "{project}/.claude/skills"),
        (["--scope", "user"], "{home}/.config/satchel/skills"),
        (["--scope", "user", "--family", "agents"], "{home}/.agents/skills"),
        (["--scope", "user", "--family", "claude"], "{home}/.claude/skills"),
    ],
)
def test_scopes_and_families(
    satchel, source: Path, project: Path, home: Path, args: list[str], where: str
) -> None:
    code, _, err = satchel("install", source, "--skill", "skills/tdd", *args)
    assert (code, err) == (0, "")
    root = Path(where.format(project=project, home=home))
    assert os.listdir(root) == ["tdd"]
    lock = (
        project / ".satchel" if "user" not in args else home / ".config/satchel"
    ) / "skills.lock"
    assert json.loads(lock.read_text())["entries"][0]["family"] == (
        args[args.index("--family") + 1] if "--family" in args else "satchel"
    )


def test_refusals_leave_the_scope_as_it_was(
    satchel, source: Path, project: Path, home: Path, tmp_path: Path
) -> None:
    mine = project / ".satchel/skills/pdf"
    write_tree(mine, {"SKILL.md": skill_md("pdf", "Mine.")})
    bad = write_tree(tmp_path / "bad", {"s/SKILL.md": "---\nname: s\n---\nno description\n"})
    empty = write_tree(tmp_path / "empty", {"README.md": "nothing\n"})
    before = (state(project), state(home))
    cases = [
        ((source,), "install.skill.exists", f"{mine} exists and was not installed by satchel"),
        ((source, "--skill", "nope"), "install.skill.unknown", f"{source} has no skill 'nope'"),
        (
            (bad,),
            "install.skill.invalid",
            "skill 's': skill.description.missing: the skill has no description, "
            "so no model would know when to use it",
        ),
        ((empty,), "install.skill.none", f"{empty} holds no skill or plugin"),
    ]
    for args, code_name, message in cases:
        code, out, _err = satchel("install", *args, "--json")
        assert code == 1
        doc = json.loads(out)
        error = doc["error"]
        assert (error["code"], error["message"].split(" (")[0]) == (code_name, message)
    assert (state(project), state(home)) == before


def test_force_replaces_and_case_twins_are_refused(satchel, source: Path, project: Path) -> None:
    write_tree(project / ".satchel/skills/pdf", {"SKILL.md": skill_md("pdf", "Mine.")})
    assert satchel("install", source, "--skill", "pdf", "--force")[0] == 0
    assert "Reads PDFs." in (project / ".satchel/skills/pdf/SKILL.md").read_text()
    write_tree(project / ".satchel/skills/TDD", {"SKILL.md": skill_md("tdd")})
    code, _, err = satchel("install", source, "--skill", "tdd", "--force")
    assert code == 1
    assert err.startswith("satchel: install.skill.exists: TDD differs from 'tdd' only in case")


def test_remove_deletes_only_what_it_installed(
    satchel, source: Path, project: Path, tmp_path: Path
) -> None:
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    write_tree(project / ".satchel/skills/mine", {"SKILL.md": skill_md("mine")})
    code, out, _ = satchel("remove", "mine")
    assert (code, json.loads(satchel("remove", "mine", "--json")[1])["error"]["code"]) == (
        1,
        "install.not-installed",
    )
    assert (project / ".satchel/skills/mine/SKILL.md").exists()
    # an installed directory swapped for a symlink is left alone
    outside = write_tree(tmp_path / "outside", {"keep.md": "keep"})
    pdf = project / ".satchel/skills/pdf"
    os.rename(pdf, tmp_path / "moved")
    os.symlink(outside, pdf)
    code, _, err = satchel("remove", "pdf")
    assert code == 1
    assert err.startswith("satchel: install.skill.exists: ")
    assert (outside / "keep.md").exists()
    os.unlink(pdf)
    os.rename(tmp_path / "moved", pdf)
    code, out, _ = satchel("remove", "pdf")
    assert (code, out) == (0, f"Removed skill pdf (from {source}).\n")
    assert os.listdir(project / ".satchel/skills") == ["mine"]
    assert json.loads((project / ".satchel/skills.lock").read_text())["entries"] == []


def test_verify_reports_changed_and_missing_trees(satchel, source: Path, project: Path) -> None:
    assert satchel("install", source, "--skill", "pdf", "--skill", "tdd")[0] == 0
    assert satchel("verify")[0] == 0
    (project / ".satchel/skills/pdf/references/a.md").write_text("changed")
    (project / ".satchel/skills/tdd/SKILL.md").unlink()
    (project / ".satchel/skills/tdd").rmdir()
    code, out, _ = satchel("verify", "--json")
    assert code == 1
    doc = json.loads(out)
    assert [(e["name"], e["status"]) for e in doc["entries"]] == [
        ("pdf", "modified"),
        ("tdd", "missing"),
    ]
    assert [d["code"] for d in doc["diagnostics"]] == ["install.integrity"] * 2


def test_frozen_reproduces_the_lock(
    satchel, source: Path, project: Path, home: Path, tmp_path: Path
) -> None:
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    lock = (project / ".satchel/skills.lock").read_text()
    installed = state(project / ".satchel/skills")
    # a new checkout of the project: only the lock file
    other = tmp_path / "other"
    write_tree(other, {".satchel/skills.lock": lock})
    (other / ".git").mkdir()
    fresh = ("--project", other, "--home", home)
    code, _out, err = satchel("install", "--frozen", *fresh, where=False)
    assert (code, err) == (0, "")
    assert state(other / ".satchel/skills") == installed
    # the source changed: frozen refuses and writes nothing
    (source / "skills/pdf/SKILL.md").write_text(skill_md("pdf", "Changed."))
    (project / ".satchel/skills/pdf/references/a.md").unlink()
    before = state(project)
    code, _, err = satchel("install", "--frozen")
    assert code == 1
    assert err.startswith("satchel: install.integrity: skill 'pdf' from ")
    assert state(project) == before
    code, _, err = satchel("install", "--frozen", source)
    assert code == 2


def test_update_shows_what_changed(satchel, source: Path, project: Path) -> None:
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    assert satchel("update")[1] == "pdf: up to date (-)\n"
    write_tree(
        source / "skills/pdf", {"references/b.md": "B\n", "SKILL.md": skill_md("pdf", "New.")}
    )
    (source / "skills/pdf/references/a.md").unlink()
    (project / ".satchel/skills/pdf/references/a.md").write_text("local edit")
    code, _, err = satchel("update", "pdf")
    assert code == 1
    assert err.startswith("satchel: install.integrity: ")
    code, out, _ = satchel("update", "pdf", "--force", "--json")
    assert code == 0
    (change,) = json.loads(out)["changes"]
    assert (change["added"], change["changed"], change["removed"]) == (
        ["references/b.md"],
        ["SKILL.md"],
        ["references/a.md"],
    )
    assert satchel("verify")[0] == 0


KILL_AT = {
    # kill -9 once three archive entries are written in the private workspace
    "extracting": (
        "import os, satchel.install._extract as m\n"
        "orig = m._Writer.file\n"
        "def file(self, *a):\n"
        "    orig(self, *a)\n"
        "    if self.files >= 3: os.kill(os.getpid(), 9)\n"
        "m._Writer.file = file\n"
    ),
    # kill -9 after the new tree is copied beside the skills root, before the rename
    "placing": (
        "import os, satchel.install._staging as m\n"
        "orig = m.copy_tree\n"
        "def copy(*a):\n"
        "    orig(*a)\n"
        "    os.kill(os.getpid(), 9)\n"
        "m.copy_tree = copy\n"
    ),
}


@pytest.mark.parametrize("when", sorted(KILL_AT))
def test_i07_a_killed_install_leaves_the_old_version(
    satchel, project: Path, home: Path, tmp_path: Path, when: str
) -> None:
    old = make_tar(tmp_path / "old.tgz", [Entry("pdf/SKILL.md", skill_md("pdf", "Old.").encode())])
    assert satchel("install", old)[0] == 0
    installed = state(project / ".satchel/skills")
    new = make_tar(
        tmp_path / "new.tgz",
        [Entry(f"pdf/{n}.md", b"x") for n in range(5)]
        + [Entry("pdf/SKILL.md", skill_md("pdf", "New.").encode())],
    )
    code = KILL_AT[when] + (
        "from satchel.cli import main\n"
        f"main(['install', {str(new)!r}, '--project', {str(project)!r}, '--home', {str(home)!r}])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=120, check=False
    )
    assert done.returncode == -9
    assert state(project / ".satchel/skills") == installed  # nothing half-installed is visible
    leftovers = (
        home / ".cache/satchel/staging"
        if when == "extracting"
        else project / ".satchel/.satchel-staging"
    )
    assert os.listdir(leftovers)  # the killed run's staging directory
    assert satchel("install", new)[0] == 0  # the next run cleans it and installs
    assert not os.path.lexists(leftovers)
    assert "New." in (project / ".satchel/skills/pdf/SKILL.md").read_text()


def test_a_full_disk_leaves_the_old_version(
    satchel, project: Path, home: Path, tmp_path: Path
) -> None:
    old = make_tar(tmp_path / "old.tgz", [Entry("pdf/SKILL.md", skill_md("pdf", "Old.").encode())])
    assert satchel("install", old)[0] == 0
    before = (state(project), state(home))
    new = make_tar(
        tmp_path / "new.tgz",
        [Entry("pdf/SKILL.md", skill_md("pdf").encode()), Entry("pdf/big", os.urandom(2 << 20))],
    )
    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))\n"
        "from satchel.cli import main\n"
        f"raise SystemExit(main(['install', {str(new)!r}, '--project', {str(project)!r}, "
        f"'--home', {str(home)!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 1
    assert done.stderr.startswith("satchel: install.archive.invalid: the archive cannot be read: ")
    assert (state(project), state(home)) == before


def test_a_tar_with_a_setuid_script_installs_sanitised(
    satchel, project: Path, tmp_path: Path
) -> None:
    archive = make_tar(
        tmp_path / "a.tgz",
        [
            Entry("pdf/SKILL.md", skill_md("pdf").encode()),
            Entry("pdf/scripts/run.sh", b"#!/bin/sh\n", mode=0o6777),
            Entry("pdf/link", kind=tarfile.SYMTYPE, link="scripts/run.sh"),
        ],
    )
    assert satchel("install", archive)[0] == 0
    pdf = project / ".satchel/skills/pdf"
    assert oct((pdf / "scripts/run.sh").stat().st_mode & 0o7777) == oct(0o755)
    assert os.readlink(pdf / "link") == "scripts/run.sh"


def test_a_lock_that_cannot_be_read_stops_every_verb(satchel, project: Path) -> None:
    lock = project / ".satchel/skills.lock"
    lock.parent.mkdir()
    lock.write_text('{"version": 2, "entries": []}')
    before = state(project)
    for args in (["verify"], ["update"], ["remove", "pdf"], ["install", "--frozen"]):
        code, _, err = satchel(*args)
        assert (code, err) == (
            1,
            "satchel: install.lock.invalid: the lock file is not valid: "
            f"it is not a version 1 lock ({lock})\n",
        )
    assert state(project) == before


def test_a_project_cannot_redirect_installs_out_of_itself(
    satchel, source: Path, project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, project / ".agents")
    code, _, err = satchel("install", source, "--skill", "pdf", "--family", "agents")
    assert code == 1
    assert err.startswith(
        f"satchel: install.root.escape: {project}/.agents/skills leads out of the project"
    )
    assert os.listdir(elsewhere) == []


@pytest.mark.parametrize(
    ("link", "why"),
    [
        ("../../secret.txt", "'pdf/leak' links outside the tree (../../secret.txt)"),
        ("{secret}", "'pdf/leak' links outside the tree ({secret})"),
        ("..\\secret.txt", "'pdf/leak' is a symlink with a bad target"),
    ],
    ids=["climbing", "absolute", "backslash"],
)
def test_a_local_folder_with_a_link_out_of_it_is_refused_by_the_extractors_rule(
    satchel, project: Path, tmp_path: Path, link: str, why: str
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's secret\n")
    folder = write_tree(tmp_path / "local", {"pdf/SKILL.md": skill_md("pdf", "PDFs.")})
    os.symlink(link.replace("{secret}", str(secret)), folder / "pdf" / "leak")
    before = state(project)
    code, out, _ = satchel("install", folder, "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["code"], error["message"]) == (
        "install.archive.link",
        f"{why.replace('{secret}', str(secret))} ({folder})",
    )
    assert state(project) == before
