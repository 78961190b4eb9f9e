"""Resource paths named inside a skill directory: the P01–P07 and S02 cases of the threat
model, built at test time in tmp_path (never a real ~/.ssh or /etc file is read)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satchel.kinds.resources._listing as listing
import satchel.kinds.resources._walk as walk
from satchel.core.errors import ResourceError
from satchel.kinds.resources import (
    MAX_RESOURCE,
    Resource,
    check_relative,
    is_readable_text,
    list_resources,
    quote,
    read_resource,
    resolve_file,
)

pytestmark = pytest.mark.skipif(
    os.open not in os.supports_dir_fd, reason="resource reads need dir_fd support"
)

SECRET = b"TOP SECRET: never read me\n"
GUIDE = b"# Guide\n"
SHARED = b"shared text\n"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_bytes(SECRET)
    return path


@pytest.fixture
def root(tmp_path: Path, secret: Path) -> Path:
    """skills/demo with SKILL.md, references/guide.md, shared/a.md, scripts/run.sh,
    and a sibling skill skills/other-skill."""
    skill = tmp_path / "skills" / "demo"
    for folder in ("references", "assets", "scripts", "shared"):
        (skill / folder).mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: d\n---\n")
    (skill / "references" / "guide.md").write_bytes(GUIDE)
    (skill / "shared" / "a.md").write_bytes(SHARED)
    (skill / "scripts" / "run.sh").write_text("echo hi\n")
    other = tmp_path / "skills" / "other-skill"
    other.mkdir()
    (other / "SKILL.md").write_text("---\nname: other-skill\ndescription: o\n---\n")
    return skill


def refusal(root: Path, path: str, **kwargs: object) -> tuple[str, str]:
    with pytest.raises(ResourceError) as caught:
        read_resource(root, path, **kwargs)  # type: ignore[arg-type]
    return caught.value.code, caught.value.diagnostic.message


def escape_message(asked: str, link: str, target: str) -> str:
    return (
        f"{asked!r} is refused: the symlink {link!r} points to {target!r}, "
        "outside the skill directory"
    )


LOOP = "is refused: more than 40 symlinks on the path; they loop or nest too deep"
DOTDOT = "the resource path has a .. segment"
INVALID = "resource.path.invalid"
ABSOLUTE = "resource.path.absolute"
TRAVERSAL = "resource.path.traversal"


# P01: dotdot variants -------------------------------------------------------------------

LONG = "a/" * 2500


@pytest.mark.parametrize(
    ("path", "code", "message"),
    [
        ("../../etc/passwd", TRAVERSAL, f"{DOTDOT}: '../../etc/passwd'"),
        ("refs/../../x", TRAVERSAL, f"{DOTDOT}: 'refs/../../x'"),
        ("refs/./../..//x", TRAVERSAL, f"{DOTDOT}: 'refs/./../..//x'"),
        ("refs/..", TRAVERSAL, f"{DOTDOT}: 'refs/..'"),
        (
            "references/../references/guide.md",
            TRAVERSAL,
            f"{DOTDOT}: {'references/../references/guide.md'!r}",
        ),  # stays inside, still refused
        ("..", TRAVERSAL, f"{DOTDOT}: '..'"),
        (
            "..\\..\\x",
            INVALID,
            "the resource path holds a backslash; folders are separated by /: " + repr("..\\..\\x"),
        ),
        (
            "%2e%2e/x",
            "resource.missing",
            "'%2e%2e/x' does not exist: no '%2e%2e' in the skill directory",
        ),
        (
            "%2e%2e%2fx",
            "resource.missing",
            "'%2e%2e%2fx' does not exist: no '%2e%2e%2fx' in the skill directory",
        ),
        (
            LONG,
            INVALID,
            "the resource path is longer than 4,096 characters: "
            f"{LONG[:200]!r}... (5,000 characters)",
        ),
    ],
)
def test_p01_dotdot_variants(root, path, code, message):
    assert refusal(root, path) == (code, message)


# P02: absolute variants -----------------------------------------------------------------

DRIVE = "the resource path names a Windows drive or share"


@pytest.mark.parametrize(
    ("path", "code", "message"),
    [
        ("/etc/passwd", ABSOLUTE, "the resource path is absolute: '/etc/passwd'"),
        ("//etc/passwd", ABSOLUTE, "the resource path is absolute: '//etc/passwd'"),
        ("C:\\Windows\\win.ini", ABSOLUTE, f"{DRIVE}: " + repr("C:\\Windows\\win.ini")),
        ("C:relative", ABSOLUTE, f"{DRIVE}: 'C:relative'"),
        ("c:/x", ABSOLUTE, f"{DRIVE}: 'c:/x'"),
        ("\\\\srv\\share\\x", ABSOLUTE, f"{DRIVE}: " + repr("\\\\srv\\share\\x")),
        ("\\x", ABSOLUTE, "the resource path is absolute: " + repr("\\x")),
        ("~/.ssh/id_rsa", INVALID, "the resource path starts with ~: '~/.ssh/id_rsa'"),
        ("~", INVALID, "the resource path starts with ~: '~'"),
        ("$HOME/.env", INVALID, "the resource path starts with $: '$HOME/.env'"),
        (
            "file:///etc/passwd",
            INVALID,
            "the resource path is a URL, not a path: 'file:///etc/passwd'",
        ),
        ("file:x", INVALID, "the resource path is a URL, not a path: 'file:x'"),
        (
            "http://example.com/a",
            INVALID,
            "the resource path is a URL, not a path: 'http://example.com/a'",
        ),
        ("s3+x.y://b/k", INVALID, "the resource path is a URL, not a path: 's3+x.y://b/k'"),
        ("", INVALID, "the resource path is empty: ''"),
        (" \t\n", INVALID, "the resource path is empty: ' \\t\\n'"),
        ("a\x00.md", INVALID, "the resource path holds a NUL character: 'a\\x00.md'"),
        (
            "a\udcff.md",
            INVALID,
            "the resource path holds a character that is not valid UTF-8: 'a\\udcff.md'",
        ),
        (
            "refs/" + "é" * 128,
            INVALID,
            "a segment of the resource path is longer than 255 bytes: " + repr("refs/" + "é" * 128),
        ),
    ],
)
def test_p02_absolute_and_invalid_variants(root, path, code, message):
    assert refusal(root, path) == (code, message)


def test_check_relative_normalizes_and_puts_root_in_the_diagnostic(root):
    assert check_relative("refs/./a.md") == ("refs", "a.md")
    assert check_relative("a//b/") == ("a", "b")
    assert check_relative("./a") == ("a",)
    assert check_relative("...") == ("...",)
    assert check_relative("refs/~x/$y/a:b.md") == ("refs", "~x", "$y", "a:b.md")
    assert check_relative("é" * 127) == ("é" * 127,)
    with pytest.raises(ResourceError) as caught:
        check_relative("/x", root=root)
    assert caught.value.diagnostic.path == root
    with pytest.raises(ResourceError) as caught:
        check_relative("/x")
    assert caught.value.diagnostic.path is None


def test_messages_escape_control_and_bidi_characters(root):
    code, message = refusal(root, "references/\x1b[31mred\u202e.md")
    assert code == "resource.missing"
    assert message == (
        "'references/\\x1b[31mred\\u202e.md' does not exist: "
        "no '\\x1b[31mred\\u202e.md' in 'references'"
    )
    assert message.isprintable()


def test_quote_caps_at_200_characters():
    assert quote("a" * 200) == repr("a" * 200)
    assert quote("b" * 201) == repr("b" * 200) + "... (201 characters)"


# P03: symlink escape, and in-tree links ---------------------------------------------------


def test_p03_link_to_a_secret_outside_is_an_escape(root, secret):
    (root / "references" / "key.md").symlink_to(secret)
    assert refusal(root, "references/key.md") == (
        "resource.symlink.escape",
        escape_message("references/key.md", "references/key.md", str(secret)),
    )


def test_p03_link_to_a_sibling_skill_is_an_escape(root):
    (root / "references" / "x.md").symlink_to("../../other-skill/SKILL.md")
    assert refusal(root, "references/x.md") == (
        "resource.symlink.escape",
        escape_message("references/x.md", "references/x.md", "../../other-skill/SKILL.md"),
    )


def test_p03_intermediate_directory_link_to_slash_is_an_escape(root):
    (root / "refs").symlink_to("/")
    assert refusal(root, "refs/etc/passwd") == (
        "resource.symlink.escape",
        escape_message("refs/etc/passwd", "refs", "/"),
    )


def test_p03_link_that_climbs_out_and_back_in_is_an_escape(root):
    (root / "references" / "back.md").symlink_to(f"../../{root.name}/shared/a.md")
    assert refusal(root, "references/back.md")[0] == "resource.symlink.escape"


def test_p03_positive_control_in_tree_relative_link(root):
    (root / "references" / "a.md").symlink_to("../shared/a.md")
    got = read_resource(root, "references/a.md")
    assert got == Resource("references/a.md", root.resolve() / "shared" / "a.md", SHARED, 12)


def test_p03_absolute_link_inside_the_root_is_allowed(root):
    (root / "references" / "abs.md").symlink_to(root.resolve() / "shared" / "a.md")
    got = read_resource(root, "references/abs.md")
    assert (got.data, got.real) == (SHARED, root.resolve() / "shared" / "a.md")


def test_p03_link_with_dotdot_that_stays_inside_is_allowed(root):
    (root / "references" / "b.md").symlink_to("../references/../shared/./a.md")
    assert read_resource(root, "references/b.md").data == SHARED


def test_p03_in_tree_directory_link_is_followed(root):
    (root / "docs").symlink_to("shared")
    got = read_resource(root, "docs/a.md")
    assert (got.relative, got.real, got.data) == (
        "docs/a.md",
        root.resolve() / "shared/a.md",
        SHARED,
    )


def test_p03_dotdot_after_a_directory_link_is_physical(root):
    (root / "shared" / "deep").mkdir()
    (root / "shared" / "deep" / "x.md").write_bytes(b"deep\n")
    (root / "d").symlink_to("shared/deep")
    (root / "references" / "up.md").symlink_to("../d/../a.md")  # d/.. is shared, not the root
    assert read_resource(root, "references/up.md").data == SHARED


def test_p03_root_given_through_a_symlink(tmp_path, root):
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    (root / "references" / "via.md").symlink_to(alias / "shared" / "a.md")
    got = read_resource(alias, "references/via.md")
    assert (got.real, got.data) == (root.resolve() / "shared" / "a.md", SHARED)
    # from the real root, the alias is somewhere else: an escape
    assert refusal(root, "references/via.md")[0] == "resource.symlink.escape"


def test_p03_dangling_link_is_missing_and_names_the_segment(root):
    (root / "references" / "gone.md").symlink_to("nope.md")
    assert refusal(root, "references/gone.md") == (
        "resource.missing",
        "'references/gone.md' does not exist: no 'nope.md' in 'references'",
    )


# P04: loops ----------------------------------------------------------------------------


def test_p04_two_links_pointing_at_each_other(root):
    (root / "a").symlink_to("b")
    (root / "b").symlink_to("a")
    assert refusal(root, "a") == ("resource.symlink.loop", f"'a' {LOOP}")


def test_p04_self_loop(root):
    (root / "references" / "x").symlink_to("x")
    assert refusal(root, "references/x/y.md") == (
        "resource.symlink.loop",
        f"'references/x/y.md' {LOOP}",
    )


def test_p04_growing_link(root):
    (root / "e").symlink_to("e/f")
    assert refusal(root, "e")[0] == "resource.symlink.loop"


def test_p04_directory_cycle_requested_deep(root):
    (root / "d").mkdir()
    (root / "d" / "sub").symlink_to("..")
    (root / "x").write_bytes(b"x\n")
    assert read_resource(root, "d/sub/" * 40 + "x").data == b"x\n"  # 40 links: allowed
    deep = "d/sub/" * 41 + "x"
    shown = f"{deep[:200]!r}... (247 characters)"
    assert refusal(root, deep) == ("resource.symlink.loop", f"{shown} {LOOP}")


# P05: special files --------------------------------------------------------------------


def run_with_timeout(call, timeout=5.0):
    box: dict[str, object] = {}

    def target():
        try:
            box["value"] = call()
        except BaseException as e:  # noqa: BLE001  (carried to the test thread)
            box["error"] = e

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the read blocked"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]


def test_p05_fifo_is_refused_without_blocking(root):
    os.mkfifo(root / "references" / "pipe.md")
    for call in (read_resource, resolve_file):
        with pytest.raises(ResourceError) as caught:
            run_with_timeout(lambda call=call: call(root, "references/pipe.md"))
        assert caught.value.code == "resource.not-regular"
        assert caught.value.diagnostic.message == (
            "'references/pipe.md' is not a regular file: it is a FIFO"
        )


def test_p05_fifo_behind_an_in_tree_link(root):
    os.mkfifo(root / "shared" / "pipe")
    (root / "references" / "p.md").symlink_to("../shared/pipe")
    with pytest.raises(ResourceError) as caught:
        run_with_timeout(lambda: read_resource(root, "references/p.md"))
    assert caught.value.code == "resource.not-regular"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/random", "/proc/self/environ"])
def test_p05_link_to_a_device_or_proc_is_an_escape(root, device):
    (root / "references" / "dev.md").symlink_to(device)
    assert refusal(root, "references/dev.md") == (
        "resource.symlink.escape",
        escape_message("references/dev.md", "references/dev.md", device),
    )


def test_p05_unix_socket(root, monkeypatch):
    monkeypatch.chdir(root / "references")  # a short name: AF_UNIX paths are limited
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("s.sock")
        assert refusal(root, "references/s.sock") == (
            "resource.not-regular",
            "'references/s.sock' is not a regular file: it is a socket",
        )


@pytest.mark.parametrize("path", ["references", "references/", "./references/."])
def test_p05_directory(root, path):
    assert refusal(root, path) == (
        "resource.not-regular",
        "'references' is not a regular file: it is a directory",
    )


def test_the_skill_directory_itself_is_not_a_file(root):
    assert refusal(root, ".") == (
        "resource.not-regular",
        "'.' is not a regular file: it is a directory",
    )


def test_a_link_to_an_in_tree_directory_is_not_a_file(root):
    (root / "references" / "up").symlink_to("..")
    assert refusal(root, "references/up") == (
        "resource.not-regular",
        "'references/up' is not a regular file: it is a directory",
    )


# P06: a file flipped between in-tree content and a link to a secret ------------------------


def test_p06_toctou_swap_never_reads_the_secret(root, secret):
    refs = root / "references"
    target, tmp_link, tmp_file = refs / "a.md", refs / ".tmp-link", refs / ".tmp-file"
    target.write_bytes(GUIDE)
    stop = threading.Event()
    flips = [0]

    def flipper():
        while not stop.is_set():
            os.symlink(secret, tmp_link)
            os.replace(tmp_link, target)
            tmp_file.write_bytes(GUIDE)
            os.replace(tmp_file, target)
            flips[0] += 1

    thread = threading.Thread(target=flipper, daemon=True)
    thread.start()
    outcomes: dict[str, int] = {}
    try:
        for _ in range(10_000):
            try:
                got = read_resource(root, "references/a.md")
            except ResourceError as e:
                outcome = e.code
            else:
                assert SECRET not in got.data
                assert (got.data, got.real) == (GUIDE, root.resolve() / "references" / "a.md")
                outcome = "read"
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    finally:
        stop.set()
        thread.join(10)
    assert set(outcomes) <= {"read", "resource.symlink.escape", "resource.missing"}
    assert flips[0] > 0


def test_p06_belt_and_braces_fd_path_check(root, monkeypatch):
    if sys.platform != "linux":
        pytest.skip("the /proc/self/fd check is Linux only")
    real_fd_path = walk._fd_path

    def moved(fd):
        path = real_fd_path(fd)
        return path if stat.S_ISDIR(os.fstat(fd).st_mode) else "/elsewhere/guide.md"

    monkeypatch.setattr(walk, "_fd_path", moved)
    assert refusal(root, "references/guide.md") == (
        "resource.symlink.escape",
        "'references/guide.md' is refused: the file opened is no longer inside the skill directory",
    )


def test_p06_fd_path_check_tolerates_a_deleted_file(root, monkeypatch):
    real_fd_path = walk._fd_path

    def deleted(fd):
        path = real_fd_path(fd)
        return path if stat.S_ISDIR(os.fstat(fd).st_mode) else f"{path} (deleted)"

    monkeypatch.setattr(walk, "_fd_path", deleted)
    assert read_resource(root, "references/guide.md").data == GUIDE


# P07: hard links -----------------------------------------------------------------------


def test_p07_hardlink_to_a_secret_is_refused_by_default(root, secret):
    os.link(secret, root / "references" / "key.md")
    message = (
        "'references/key.md' is refused: the file has 2 hard links, "
        "so it may be a file from outside the skill directory"
    )
    assert refusal(root, "references/key.md") == ("resource.hardlink", message)
    with pytest.raises(ResourceError) as caught:
        resolve_file(root, "references/key.md")
    assert caught.value.code == "resource.hardlink"
    assert read_resource(root, "references/key.md", allow_hardlinks=True).data == SECRET
    assert resolve_file(root, "references/key.md", allow_hardlinks=True) == (
        root.resolve() / "references" / "key.md"
    )


# S02: sizes ----------------------------------------------------------------------------


def test_s02_one_byte_over_the_cap(root):
    (root / "assets" / "big.bin").write_bytes(b"x" * (MAX_RESOURCE + 1))
    assert refusal(root, "assets/big.bin") == (
        "resource.too-large",
        "'assets/big.bin' is 4,194,305 bytes, larger than the cap of 4,194,304 bytes",
    )


def test_s02_exactly_the_cap_reads(root):
    (root / "assets" / "fits.bin").write_bytes(b"y" * MAX_RESOURCE)
    got = read_resource(root, "assets/fits.bin")
    assert got.size == len(got.data) == MAX_RESOURCE


def test_s02_a_smaller_cap(root):
    assert read_resource(root, "references/guide.md", cap=8).data == GUIDE
    assert refusal(root, "references/guide.md", cap=7) == (
        "resource.too-large",
        "'references/guide.md' is 8 bytes, larger than the cap of 7 bytes",
    )


@pytest.fixture
def counted_reads(monkeypatch):
    """Every os.read, recorded as the number of bytes it returned."""
    sizes: list[int] = []
    real_read = os.read

    def read(fd, n):
        chunk = real_read(fd, n)
        sizes.append(len(chunk))
        return chunk

    monkeypatch.setattr(os, "read", read)
    return sizes


def test_s02_size_on_disk_lies(root, monkeypatch, counted_reads):
    """st_size says 0 (as procfs does) but the file yields 4 MiB + 1: the read stops at cap + 1."""
    (root / "assets" / "liar.bin").write_bytes(b"z" * (MAX_RESOURCE + 1000))
    real_fstat = os.fstat

    def lying_fstat(fd):
        s = real_fstat(fd)
        return os.stat_result((s.st_mode, s.st_ino, s.st_dev, s.st_nlink, s.st_uid, s.st_gid, 0,
                               int(s.st_atime), int(s.st_mtime), int(s.st_ctime)))  # fmt: skip

    monkeypatch.setattr(os, "fstat", lying_fstat)
    assert refusal(root, "assets/liar.bin") == (
        "resource.too-large",
        "'assets/liar.bin' grew past the cap of 4,194,304 bytes while it was read",
    )
    assert sum(counted_reads) == MAX_RESOURCE + 1


def test_s02_file_grows_while_it_is_read(root, monkeypatch):
    path = root / "assets" / "log.txt"
    path.write_bytes(b"start\n")
    real_read = os.read
    grown = []

    def read(fd, n):
        if not grown:  # an appender writes between the fstat and the read
            with path.open("ab") as f:
                f.write(b"more\n" * 1000)
            grown.append(True)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", read)
    assert refusal(root, "assets/log.txt", cap=100) == (
        "resource.too-large",
        "'assets/log.txt' grew past the cap of 100 bytes while it was read",
    )


def test_s02_appender_thread_never_yields_more_than_the_cap(root):
    path = root / "assets" / "grow.txt"
    path.write_bytes(b"")
    stop = threading.Event()

    def appender():
        with path.open("ab") as f:
            while not stop.is_set():
                f.write(b"g" * 4096)
                f.flush()

    thread = threading.Thread(target=appender, daemon=True)
    thread.start()
    try:
        for _ in range(50):
            try:
                got = read_resource(root, "assets/grow.txt", cap=64 * 1024)
            except ResourceError as e:
                assert e.code == "resource.too-large"
            else:
                assert got.size <= 64 * 1024
    finally:
        stop.set()
        thread.join(10)


# areas ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "areas", "message"),
    [
        (
            "scripts/run.sh",
            ("references", "assets"),
            "'scripts/run.sh' is outside references/ and assets/, the folders this tool reads",
        ),
        (
            "references/guide.md",
            ("scripts",),
            "'references/guide.md' is outside scripts/, the folder this tool reads",
        ),
        (
            "SKILL.md",
            ("a", "b", "c"),
            "'SKILL.md' is outside a/, b/ and c/, the folders this tool reads",
        ),
        (
            "./references2/x",
            ("references",),
            "'references2/x' is outside references/, the folder this tool reads",
        ),
        (".", ("references",), "'.' is outside references/, the folder this tool reads"),
    ],
)
def test_areas_refusal(root, path, areas, message):
    assert refusal(root, path, areas=areas) == ("resource.area", message)


def test_areas_check_the_requested_path_not_the_link_target(root):
    (root / "references" / "tool.sh").symlink_to("../scripts/run.sh")
    got = read_resource(root, "references/tool.sh", areas=("references", "assets"))
    assert got.real == root.resolve() / "scripts" / "run.sh"


def test_path_problems_come_before_the_area(root):
    assert refusal(root, "../scripts/x", areas=("scripts",))[0] == TRAVERSAL


# resolve_file, missing and unreadable --------------------------------------------------


def test_resolve_file_returns_the_real_path_without_reading(root, counted_reads):
    (root / "scripts" / "go").symlink_to("run.sh")
    got = resolve_file(root, "scripts/go", areas=("scripts",))
    assert got == root.resolve() / "scripts" / "run.sh"
    assert counted_reads == []


def test_resolve_file_refuses_what_read_refuses(root, secret):
    (root / "scripts" / "evil.sh").symlink_to(secret)
    for path, code in [
        ("scripts", "resource.not-regular"),
        ("scripts/evil.sh", "resource.symlink.escape"),
        ("scripts/none.sh", "resource.missing"),
        ("/bin/sh", ABSOLUTE),
    ]:
        with pytest.raises(ResourceError) as caught:
            resolve_file(root, path)
        assert caught.value.code == code


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("nope.md", "'nope.md' does not exist: no 'nope.md' in the skill directory"),
        ("references/nope.md", "'references/nope.md' does not exist: no 'nope.md' in 'references'"),
        ("nodir/x.md", "'nodir/x.md' does not exist: no 'nodir' in the skill directory"),
        (
            "references/guide.md/x",
            "'references/guide.md/x' does not exist: 'references/guide.md' is not a folder",
        ),
    ],
)
def test_missing_names_the_segment(root, path, message):
    code, got = refusal(root, path)
    assert (code, got) == ("resource.missing", message)


def test_missing_diagnostic_path_is_the_requested_file(root):
    with pytest.raises(ResourceError) as caught:
        read_resource(root, "references/./nope.md")
    assert caught.value.diagnostic.path == root / "references" / "nope.md"


def test_a_missing_skill_directory(tmp_path):
    assert refusal(tmp_path / "gone", "a.md") == (
        "resource.missing",
        "'a.md' cannot be read: the skill directory does not exist",
    )


def test_unreadable_when_open_is_refused(root, monkeypatch):
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if path == "guide.md":
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    assert refusal(root, "references/guide.md") == (
        "resource.unreadable",
        "'references/guide.md' cannot be read: Permission denied at 'references/guide.md'",
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file(root):
    path = root / "references" / "locked.md"
    path.write_bytes(b"x")
    path.chmod(0)
    try:
        assert refusal(root, "references/locked.md") == (
            "resource.unreadable",
            "'references/locked.md' cannot be read: Permission denied at 'references/locked.md'",
        )
    finally:
        path.chmod(0o600)


def test_no_fd_is_left_open(root, secret):
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd")
    (root / "references" / "key.md").symlink_to(secret)
    (root / "loop").symlink_to("loop")
    os.mkfifo(root / "references" / "pipe")
    before = len(os.listdir("/proc/self/fd"))
    for path in ["references/guide.md", "references/key.md", "loop/x", "references/pipe",
                 "references/nope/x", "references", "references/guide.md/x"]:  # fmt: skip
        for _ in range(20):
            with contextlib.suppress(ResourceError):
                read_resource(root, path)
    list_resources(root)
    assert len(os.listdir("/proc/self/fd")) == before


# list_resources ------------------------------------------------------------------------


@pytest.fixture
def tree(root, secret):
    (root / "skill.md").write_text("twin")
    (root / "references" / "b.md").write_text("b")
    (root / "references" / "alias.md").symlink_to("guide.md")
    (root / "references" / "out.md").symlink_to(secret)
    (root / "references" / "dangling.md").symlink_to("nope.md")
    (root / "references" / "loop").symlink_to("loop")
    os.mkfifo(root / "references" / "pipe")
    (root / "assets" / "logo.png").write_bytes(b"\x89PNG")
    (root / "nested" / "inner").mkdir(parents=True)
    (root / "nested" / "SKILL.md").write_text("not the top one")
    (root / "nested" / "inner" / "deep.md").write_text("deep")
    (root / ".hidden.md").write_text("dot file, listed")
    for skipped in (".git", "node_modules", "__pycache__", ".venv"):
        (root / skipped).mkdir()
        (root / skipped / "x.txt").write_text("skipped")
    (root / "linked-dir").symlink_to("references")  # a directory link: not followed
    (root / "outside-dir").symlink_to(secret.parent)
    return root


ALL = (
    ".hidden.md",
    "assets/logo.png",
    "nested/SKILL.md",
    "nested/inner/deep.md",
    "references/alias.md",
    "references/b.md",
    "references/guide.md",
    "scripts/run.sh",
    "shared/a.md",
)


def test_list_resources_sorted_without_skill_md_dot_dirs_or_dir_links(tree):
    assert list_resources(tree) == (ALL, 0)


def test_list_resources_limit_and_omitted_count(tree):
    assert list_resources(tree, limit=3) == (ALL[:3], len(ALL) - 3)
    assert list_resources(tree, limit=0) == ((), len(ALL))


def test_list_resources_max_depth(tree):
    assert list_resources(tree, max_depth=1) == ((".hidden.md",), 0)
    assert "nested/inner/deep.md" not in list_resources(tree, max_depth=2)[0]
    assert "nested/SKILL.md" in list_resources(tree, max_depth=2)[0]


def test_list_resources_walk_is_bounded(tree, monkeypatch):
    monkeypatch.setattr(listing, "MAX_LIST_ENTRIES", 5)
    shown, omitted = list_resources(tree)
    assert len(shown) + omitted <= 5


def test_list_resources_never_follows_a_directory_cycle(root):
    (root / "d").mkdir()
    (root / "d" / "sub").symlink_to("..")
    (root / "d" / "x.md").write_text("x")
    assert list_resources(root)[0] == (
        "d/x.md", "references/guide.md", "scripts/run.sh", "shared/a.md",
    )  # fmt: skip


def test_list_resources_of_a_missing_directory(tmp_path):
    with pytest.raises(ResourceError) as caught:
        list_resources(tmp_path / "gone")
    assert caught.value.code == "resource.missing"


# The audit hook: nothing outside the skill directory is ever opened ---------------------

AUDIT_CHILD = r"""
import json, os, sys
from pathlib import Path
from satchel.core.errors import ResourceError
from satchel.kinds.resources import list_resources, read_resource

root, cases = Path(sys.argv[1]), json.loads(sys.argv[2])
events, on = [], [False]

def hook(event, args):
    if on[0] and event == "open":
        path = args[0]
        name = os.fsdecode(path) if isinstance(path, (str, bytes)) else repr(path)
        events.append([name, args[2]])

def run():
    codes = []
    for case in cases:
        try:
            read_resource(root, case)
            codes.append("read")
        except ResourceError as e:
            codes.append(e.code)
    list_resources(root)
    return codes

run()  # imports and caches warmed up before the hook records
sys.addaudithook(hook)
on[0] = True
codes = run()
on[0] = False
print(json.dumps({"codes": codes, "events": events}))
"""


def test_audit_hook_sees_no_open_outside_the_root(root, secret, tmp_path):
    refs = root / "references"
    (refs / "key.md").symlink_to(secret)
    (refs / "up.md").symlink_to("../../../outside/secret.txt")
    (root / "refs").symlink_to("/")
    (root / "outer").symlink_to(secret.parent)
    (refs / "dev.md").symlink_to("/dev/zero")
    (refs / "a.md").symlink_to("../shared/a.md")
    os.link(secret, refs / "hard.md")
    os.mkfifo(refs / "pipe")
    cases = {
        "../outside/secret.txt": TRAVERSAL,
        "references/../../../outside/secret.txt": TRAVERSAL,
        str(secret): ABSOLUTE,
        "%2e%2e/outside/secret.txt": "resource.missing",
        "references/key.md": "resource.symlink.escape",
        "references/up.md": "resource.symlink.escape",
        "refs/etc/passwd": "resource.symlink.escape",
        "outer/secret.txt": "resource.symlink.escape",
        "references/dev.md": "resource.symlink.escape",
        "references/hard.md": "resource.hardlink",
        "references/pipe": "resource.not-regular",
        "references/a.md": "read",
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", AUDIT_CHILD, str(root), json.dumps(list(cases))],
        capture_output=True, text=True, check=True, timeout=60, env=env,
    )  # fmt: skip
    report = json.loads(out.stdout)
    assert report["codes"] == list(cases.values())
    assert report["events"], "the hook saw no open at all"
    inside = (str(root), str(root.resolve()))
    for path, flags in report["events"]:
        if os.path.isabs(path):
            assert path in inside, path  # only the skill directory itself, by path
        else:  # one name at a time, relative to a directory fd already held
            assert "/" not in path and path not in ("", ".", ".."), path
            assert flags & os.O_NOFOLLOW, path


# Properties ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    (base / "secret").write_bytes(SECRET)
    root = base / "skill"
    (root / "a" / "a").mkdir(parents=True)
    (root / "a" / "a" / "a").write_bytes(b"aaa")
    (root / "aa").write_bytes(b"aa")
    (root / "é").write_bytes(b"e")
    (root / "$").write_bytes(b"dollar")
    (root / "a:b").write_bytes(b"colon")
    (root / "b").symlink_to("a/a")
    (root / "a" / "b").symlink_to("../aa")
    (root / "a" / "c").symlink_to("../../secret")
    (root / "a" / "~").symlink_to(base / "secret")
    (root / "bb").symlink_to("/")
    (root / "a" / "a" / "b").symlink_to("..")
    return root


@pytest.mark.parametrize(
    ("path", "outcome"),
    [
        ("a/a/a", "a/a/a"),
        ("b/a", "a/a/a"),
        ("a/b", "aa"),
        ("a/a/b/b", "aa"),
        ("a/a/b/a/b", "resource.not-regular"),
        ("é", "é"),
        ("a/c", "resource.symlink.escape"),
        ("a/~", "resource.symlink.escape"),
        ("bb/etc", "resource.symlink.escape"),
        ("a:b", ABSOLUTE),
        ("$", INVALID),
    ],
)
def test_the_fuzz_tree_has_reads_and_escapes(fuzz_root, path, outcome):
    try:
        got = read_resource(fuzz_root, path)
    except ResourceError as e:
        assert e.code == outcome
    else:
        assert got.real == fuzz_root.resolve() / outcome


ALPHABET = st.sampled_from([".", "/", "\\", ":", "~", "$", "a", "b", "\x00", "é", "\u202e",
                            "\udcff", " ", "%2e"])  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.lists(ALPHABET, max_size=24).map("".join))
def test_property_read_is_refused_or_inside_the_root(fuzz_root, path):
    real = fuzz_root.resolve()
    try:
        got = read_resource(fuzz_root, path)
    except ResourceError as e:
        assert e.code.startswith("resource.")
        assert e.diagnostic.message.isprintable()
        return
    assert got.real.is_relative_to(real)
    assert got.data != SECRET
    assert got.data == got.real.read_bytes()


@given(path=st.text(max_size=60))
def test_property_check_relative_segments_are_plain_names(path):
    try:
        segments = check_relative(path)
    except ResourceError as e:
        assert e.code.startswith("resource.path.")
        return
    for segment in segments:
        assert segment not in ("", ".", "..")
        assert "/" not in segment and "\\" not in segment and "\x00" not in segment


def test_is_readable_text_says_what_read_resource_would_read_as_text(tmp_path):
    root = tmp_path / "skill"
    (root / "sub").mkdir(parents=True)
    (root / "ok.md").write_text("héllo\n")
    (root / "cut.md").write_bytes(b"x" * 1023 + "é".encode() * 10)  # é cut at byte 1,024
    (root / "nul.bin").write_bytes(b"abc\x00def")
    (root / "latin1.txt").write_bytes(b"caf\xe9\n")
    (root / "big.md").write_text("y" * 100)
    os.link(root / "ok.md", root / "twin.md")
    os.mkfifo(root / "pipe.md")
    os.symlink("/etc/hostname", root / "out.md")
    (tmp_path / "plain.md").write_text("plain\n")

    def readable(path: str, **kw: object) -> bool:
        return is_readable_text(root, path, **kw)  # type: ignore[arg-type]

    assert readable("cut.md")  # a character cut at the sniff's end is still text
    assert not readable("ok.md")  # two hard links now
    assert [readable(p) for p in ("nul.bin", "latin1.txt", "pipe.md", "out.md", "sub")] == [
        False
    ] * 5
    assert not readable("big.md", cap=50)
    assert readable("big.md", cap=100)
    assert not readable("../plain.md")
    assert not readable("big.md", areas=("references",))
