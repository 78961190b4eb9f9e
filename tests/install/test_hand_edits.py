"""`verify` and `update` judge a hand-edited tree by one rule (file modes included), and
`install --frozen` with no lock file is a refusal."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import skill_md, write_tree

from .support import state


@pytest.fixture
def source(tmp_path: Path) -> Path:
    root = write_tree(
        tmp_path / "src",
        {
            "skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs."),
            "skills/pdf/references/a.md": "A\n",
            "skills/pdf/scripts/run.sh": "#!/bin/sh\necho run\n",
        },
    )
    (root / "skills/pdf/scripts/run.sh").chmod(0o775)  # installed as 0755
    (root / "skills/pdf/references/a.md").chmod(0o664)  # installed as 0644
    return root


def _tree(project: Path) -> Path:
    return project / ".satchel/skills/pdf"


def _v1_hash(root: Path) -> str:
    """The tree hash as locks recorded it before modes counted: each entry by name,
    depth first, with its kind, whether executable and its bytes."""
    digest = hashlib.sha256()

    def walk(directory: Path, prefix: str) -> None:
        for path in sorted(directory.iterdir(), key=lambda p: p.name):
            rel = prefix + path.name
            if path.is_dir():
                digest.update(f"{rel}\0dir\n".encode())
                walk(path, rel + "/")
            else:
                kind = "exec" if path.stat().st_mode & 0o111 else "file"
                sha = hashlib.sha256(path.read_bytes()).hexdigest()
                digest.update(f"{rel}\0{kind}:{sha}\n".encode())

    walk(root, "")
    return f"sha256:{digest.hexdigest()}"


def _entries(project: Path) -> list[dict[str, str]]:
    lock = json.loads((project / ".satchel/skills.lock").read_text())
    return list(lock["entries"])


def test_a_lock_written_before_modes_counted_keeps_its_meaning(satchel, source, project):
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    (entry,) = _entries(project)
    assert entry["hash"] == _v1_hash(_tree(project))
    assert satchel("verify")[0] == 0


@pytest.mark.parametrize("mode", [0o4755, 0o2755, 0o1644, 0o664, 0o646, 0o600, 0o744], ids=oct)
def test_verify_sees_a_mode_change(satchel, source, project, mode):
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    path = _tree(project) / "scripts/run.sh"
    path.chmod(mode)
    code, out, _ = satchel("verify", "--json")
    assert code == 1
    (entry,) = _entries(project)
    doc = json.loads(out)
    assert [(e["name"], e["status"]) for e in doc["entries"]] == [("pdf", "modified")]
    assert [(d["code"], d["message"]) for d in doc["diagnostics"]] == [
        (
            "install.integrity",
            f"skill 'pdf' was changed since it was installed at {_tree(project)}: "
            f"it no longer matches its locked hash {entry['hash']}",
        )
    ]
    path.chmod(0o755)
    assert satchel("verify")[0] == 0


def test_verify_sees_a_setuid_directory_but_not_a_strict_umask(satchel, source, project):
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    (_tree(project) / "scripts").chmod(0o700)  # an older install under umask 077
    assert satchel("verify")[0] == 0
    (_tree(project) / "scripts").chmod(0o2775)
    assert satchel("verify")[0] == 1


def _content(tree: Path) -> None:
    (tree / "references/a.md").write_text("edited\n")


def _new_file(tree: Path) -> None:
    (tree / "references/new.md").write_text("new\n")


def _removed_file(tree: Path) -> None:
    (tree / "references/a.md").unlink()


def _mode(tree: Path) -> None:
    (tree / "scripts/run.sh").chmod(0o4755)


def _symlink_inside(tree: Path) -> None:
    (tree / "references/passwd.md").symlink_to("/etc/passwd")


def _tree_is_a_symlink(tree: Path) -> None:
    os.rename(tree, tree.with_name("moved"))
    tree.symlink_to(tree.with_name("moved"))


CHANGED = "was changed since it was installed at"
EDITS: dict[str, tuple[Callable[[Path], None], str, tuple[list[str], list[str], list[str]]]] = {
    # edit, what verify and update say, the files update --force then shows (+, ~, -)
    "content": (_content, CHANGED, ([], ["references/a.md"], [])),
    "new file": (_new_file, CHANGED, ([], [], ["references/new.md"])),
    "removed file": (_removed_file, CHANGED, (["references/a.md"], [], [])),
    "mode": (_mode, CHANGED, ([], ["scripts/run.sh"], [])),
    "symlink inside": (
        _symlink_inside,
        CHANGED,
        ([], [], ["references/passwd.md"]),
    ),
    "tree replaced by a symlink": (
        _tree_is_a_symlink,
        "was replaced by a symlink at",
        (["SKILL.md", "references", "references/a.md", "scripts", "scripts/run.sh"], [], []),
    ),
}  # fmt: skip


@pytest.mark.parametrize("edit", list(EDITS))
def test_update_and_verify_agree_about_a_hand_edit(satchel, source, project, edit):
    """The source did not move: verify says the tree changed, and so does update,
    which leaves it alone without --force and restores it with --force."""
    change, why, shown = EDITS[edit]
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    assert satchel("update")[1] == "pdf: up to date (-)\n"
    change(_tree(project))
    tree = _tree(project)

    code, out, _ = satchel("verify", "--json")
    assert (code, [e["status"] for e in json.loads(out)["entries"]]) == (1, ["modified"])
    message = json.loads(out)["diagnostics"][0]["message"]
    assert message.startswith(f"skill 'pdf' {why} {tree}")

    before = state(project)
    code, _, err = satchel("update")
    assert (code, err) == (
        1,
        f"satchel: install.integrity: skill 'pdf' {why} {tree}; --force overwrites it\n",
    )
    assert state(project) == before

    code, out, _ = satchel("update", "--force", "--json")
    assert code == 0
    (done,) = json.loads(out)["changes"]
    assert (done["updated"], (done["added"], done["changed"], done["removed"])) == (True, shown)
    assert satchel("verify")[0] == 0
    assert satchel("update")[1] == "pdf: up to date (-)\n"


def test_a_removed_tree_is_missing_for_verify_and_put_back_by_update(satchel, source, project):
    assert satchel("install", source, "--skill", "pdf")[0] == 0
    installed = state(_tree(project))
    for path in sorted(_tree(project).rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    _tree(project).rmdir()
    code, out, _ = satchel("verify", "--json")
    assert (code, [e["status"] for e in json.loads(out)["entries"]]) == (1, ["missing"])
    assert json.loads(out)["diagnostics"][0]["message"] == (
        f"skill 'pdf' is not installed at {_tree(project)}"
    )
    code, out, _ = satchel("update", "--json")
    assert code == 0
    (done,) = json.loads(out)["changes"]
    assert done["updated"] is True
    assert state(_tree(project)) == installed
    assert satchel("verify")[0] == 0


def test_frozen_without_a_lock_file_is_refused(satchel, project):
    before = state(project)
    code, out, err = satchel("install", "--frozen")
    lock = project / ".satchel/skills.lock"
    assert (code, out) == (1, "")
    assert err == (
        f"satchel: install.lock.missing: there is no lock file at {lock}, so --frozen has "
        "nothing to install\n"
        "hint: install a source first (satchel install SOURCE), or give the right --scope\n"
    )
    assert state(project) == before
    code, out, _ = satchel("install", "--frozen", "--json")
    assert code == 1
    assert json.loads(out)["diagnostics"][0]["code"] == "install.lock.missing"
