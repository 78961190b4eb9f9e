"""satchel's extractor (threat model I01-I03): each bad archive is refused with its
code and exact message, and an install from it leaves the scope and the home as
they were; good archives keep in-tree links and sanitise modes."""

from __future__ import annotations

import os
import stat
import tarfile
from pathlib import Path

import pytest

from satchel.install import InstallError, Limits, extract_archive
from tests.support import skill_md

from .support import Entry, make_tar, make_zip, state

SKILL = Entry("pdf/SKILL.md", skill_md("pdf").encode())


def refused(archive: Path, dest: Path, limits: Limits | None = None) -> InstallError:
    dest.mkdir()
    with pytest.raises(InstallError) as caught:
        extract_archive(archive, dest, limits or Limits())
    return caught.value


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../../.bashrc", "has a '..' segment"),
        ("/etc/cron.d/x", "is absolute"),
        ("C:\\x", "holds a backslash or NUL"),
        ("C:/x", "is absolute"),
        ("..\\..\\x", "holds a backslash or NUL"),
        ("pdf/../../x", "has a '..' segment"),
    ],
)
def test_i01_zip_slip_tar(tmp_path: Path, name: str, why: str) -> None:
    archive = make_tar(tmp_path / "a.tgz", [SKILL, Entry(name, b"evil")])
    error = refused(archive, tmp_path / "out")
    assert error.code == "install.archive.path"
    assert error.diagnostic.message == f"archive entry {name!r} {why}"


def test_i01_zip_slip_zip(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "a.zip", {"pdf/SKILL.md": b"x", "../../.bashrc": b"evil"})
    error = refused(archive, tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (
        "install.archive.path",
        "archive entry '../../.bashrc' has a '..' segment",
    )
    assert not (tmp_path / ".bashrc").exists()


@pytest.mark.parametrize(
    ("entries", "code", "message"),
    [
        (
            [Entry("docs", kind=tarfile.SYMTYPE, link="/home/user"),
             Entry("docs/.ssh/authorized_keys", b"key")],
            "install.archive.link",
            "archive entry 'docs' links outside the tree (/home/user)",
        ),
        (
            [Entry("x", kind=tarfile.SYMTYPE, link="../../..")],
            "install.archive.link",
            "archive entry 'x' links outside the tree (../../..)",
        ),
        (
            [Entry("docs", kind=tarfile.SYMTYPE, link="pdf"), Entry("docs/evil", b"x")],
            "install.archive.link",
            "archive entry 'docs/evil' is written through a symlink",
        ),
        (
            [Entry("passwd", kind=tarfile.LNKTYPE, link="/etc/passwd")],
            "install.archive.link",
            "archive entry 'passwd' is a hardlink",
        ),
        (
            [Entry("same", kind=tarfile.LNKTYPE, link="pdf/SKILL.md")],
            "install.archive.link",
            "archive entry 'same' is a hardlink",
        ),
        (
            [Entry("dev", kind=tarfile.CHRTYPE)],
            "install.archive.special",
            "archive entry 'dev' is a device",
        ),
        (
            [Entry("fifo", kind=tarfile.FIFOTYPE)],
            "install.archive.special",
            "archive entry 'fifo' is a FIFO",
        ),
    ],
)  # fmt: skip
def test_i02_links_and_devices(
    tmp_path: Path, entries: list[Entry], code: str, message: str
) -> None:
    archive = make_tar(tmp_path / "a.tgz", [SKILL, *entries])
    error = refused(archive, tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (code, message)


def test_i02_zip_symlink_out_is_refused(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "a.zip", {"pdf/SKILL.md": b"x"}, links={"key": "/srv/u/.ssh"})
    error = refused(archive, tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (
        "install.archive.link",
        "archive entry 'key' links outside the tree (/srv/u/.ssh)",
    )


def test_i02_modes_are_sanitised_and_in_tree_links_kept(tmp_path: Path) -> None:
    archive = make_tar(
        tmp_path / "a.tgz",
        [
            SKILL,
            Entry("pdf/run.sh", b"#!/bin/sh\n", mode=0o4777),
            Entry("pdf/open", b"x", mode=0o666),
            Entry("pdf/ref", kind=tarfile.SYMTYPE, link="open"),
        ],
    )
    out = tmp_path / "out"
    out.mkdir()
    extract_archive(archive, out, Limits())
    assert stat.S_IMODE(os.stat(out / "pdf/run.sh").st_mode) == 0o755
    assert stat.S_IMODE(os.stat(out / "pdf/open").st_mode) == 0o644
    assert os.readlink(out / "pdf/ref") == "open"


def test_i03_ratio_bomb_stops_while_streaming(tmp_path: Path) -> None:
    archive = make_tar(tmp_path / "bomb.tgz", [SKILL, Entry("zeros", b"\0" * (40 * 1024 * 1024))])
    assert archive.stat().st_size < 100 * 1024  # more than 1:400
    error = refused(archive, tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (
        "install.archive.too-large",
        "the archive is refused: it unpacks to more than 200 times its size",
    )
    assert (tmp_path / "out/zeros").stat().st_size < 16 * 1024 * 1024  # stopped early


def test_i03_entry_count_and_total_size(tmp_path: Path) -> None:
    many = make_tar(tmp_path / "many.tgz", [Entry(f"f{i}") for i in range(101)])
    error = refused(many, tmp_path / "o1", Limits(max_files=100))
    assert error.diagnostic.message == "the archive is refused: it has more than 100 entries"
    big = make_tar(tmp_path / "big.tgz", [Entry("f", os.urandom(2048))])
    error = refused(big, tmp_path / "o2", Limits(max_bytes=1024))
    assert error.diagnostic.message == "the archive is refused: it unpacks to more than 1,024 bytes"
    zipped = make_zip(tmp_path / "many.zip", {f"f{i}": b"" for i in range(101)})
    error = refused(zipped, tmp_path / "o3", Limits(max_files=100))
    assert (
        error.diagnostic.message == "the archive is refused: it has 101 entries; the limit is 100"
    )


def test_i03_deep_nesting(tmp_path: Path) -> None:
    name = "/".join(["d"] * 49) + "/f"
    error = refused(make_tar(tmp_path / "deep.tgz", [Entry(name)]), tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (
        "install.archive.path",
        f"archive entry {name!r} is deeper or longer than the limit",
    )


@pytest.mark.parametrize(
    ("names", "twice"),
    [
        (["pdf/SKILL.md", "pdf/SKILL.md"], "pdf/SKILL.md"),
        (["pdf/Skill.md", "pdf/skill.md"], "pdf/skill.md"),
        (["caf\u00e9/a", "cafe\u0301/a"], "cafe\u0301/a"),
    ],
)
def test_i03_duplicates(tmp_path: Path, names: list[str], twice: str) -> None:
    archive = make_tar(tmp_path / "dup.tgz", [Entry(n, n.encode()) for n in names])
    error = refused(archive, tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (
        "install.archive.duplicate",
        f"archive entry {twice!r} is in the archive twice",
    )


def test_i03_nested_archive_is_a_plain_file(tmp_path: Path) -> None:
    inner = make_tar(tmp_path / "inner.tgz", [Entry("../../x", b"evil")])
    archive = make_tar(tmp_path / "outer.tgz", [SKILL, Entry("pdf/inner.tgz", inner.read_bytes())])
    out = tmp_path / "out"
    out.mkdir()
    extract_archive(archive, out, Limits())
    assert sorted(state(out)) == ["pdf", "pdf/SKILL.md", "pdf/inner.tgz"]


def test_not_an_archive(tmp_path: Path) -> None:
    path = tmp_path / "x.tgz"
    path.write_bytes(b"hello")
    error = refused(path, tmp_path / "out")
    assert (error.code, error.diagnostic.message) == (
        "install.archive.invalid",
        "not a tar or zip archive",
    )


# Each bad archive installed through the CLI: refused, and the scope and the home
# (apart from the emptied cache) are exactly as they were (C3).

BAD = {
    "slip": [SKILL, Entry("../../.bashrc", b"evil")],
    "link": [SKILL, Entry("docs", kind=tarfile.SYMTYPE, link="/etc"), Entry("docs/x", b"x")],
    "device": [SKILL, Entry("pdf/dev", kind=tarfile.CHRTYPE)],
    "duplicate": [SKILL, Entry("pdf/skill.md", b"x")],
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_archive_install_leaves_scope_as_it_was(
    satchel, project: Path, home: Path, tmp_path: Path, case: str
) -> None:
    archive = make_tar(tmp_path / f"{case}.tgz", BAD[case])
    (project / ".satchel/skills/keep").mkdir(parents=True)
    (project / ".satchel/skills/keep/SKILL.md").write_text(skill_md("keep"))
    before = (state(project), state(home))
    code, _out, err = satchel("install", archive)
    assert code == 1
    assert err.startswith("satchel: install.archive.")
    assert (state(project), state(home)) == before
