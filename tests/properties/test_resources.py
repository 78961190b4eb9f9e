"""The resource resolver never gives a path outside the real skill root
(`satchel.kinds.resources`), for paths built from whole segments: ``..``, absolute and
Windows forms, NUL, unicode, on a real tree holding symlinks that stay in, lead out,
loop and point at the root's parent. Extends `tests/test_resources.py`, whose property
draws single characters."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from satchel.core.errors import ResourceError
from satchel.kinds.resources import list_resources, read_resource, resolve_file

from .support import PROPS

SECRET = b"outside the skill"

_SEGMENTS = st.sampled_from(
    ["..", ".", "", "a", "b", "c", "refs", "in", "out", "up", "loop", "abs", "self", "f.md",
     "C:", "C:\\", "\\\\srv\\share", "//", "/", "/etc", "~", "~root", "$HOME", "%2e%2e", "..\\..",
     "a\x00", "\x00", "é", "e\u0301", "\u202e", "\udcff", "..\u2215..", "\uff0e\uff0e", "file:",
     "x" * 300, "CON", "a:b", " ", "a "]
)  # fmt: skip
_PREFIXES = st.sampled_from(["", "", "/", "//", "\\", "C:/", "c:", "\\\\?\\", "file:///", "~/"])
_PATHS = st.builds(
    lambda prefix, parts, sep: prefix + sep.join(parts),
    _PREFIXES,
    st.lists(_SEGMENTS, max_size=8),
    st.sampled_from(["/", "/", "\\", "//"]),
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("resources")
    (base / "secret.md").write_bytes(SECRET)
    (base / "sibling").mkdir()
    (base / "sibling" / "f.md").write_bytes(SECRET)
    root = base / "skill"
    (root / "refs" / "a").mkdir(parents=True)
    (root / "refs" / "f.md").write_bytes(b"ref")
    (root / "refs" / "a" / "f.md").write_bytes(b"deep")
    (root / "é").write_bytes(b"accent")
    (root / "in").symlink_to("refs/a")
    (root / "refs" / "up").symlink_to("../refs")
    (root / "out").symlink_to("../secret.md")
    (root / "refs" / "b").symlink_to("../../sibling")
    (root / "abs").symlink_to(base / "sibling" / "f.md")
    (root / "c").symlink_to(root / "refs" / "f.md")  # absolute, but inside
    (root / "loop").symlink_to("loop")
    (root / "self").symlink_to(".")
    (root / "dotdot").symlink_to("..")
    return root


def _inside(path: Path, root: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


@PROPS
@given(_PATHS, st.sampled_from([None, ("refs",), ("refs", "in")]))
def test_a_read_is_refused_or_inside_the_real_root(tree: Path, path: str, areas) -> None:
    try:
        got = read_resource(tree, path, areas=areas)
    except ResourceError as e:
        assert e.code.startswith("resource.")
        assert e.diagnostic.message.isprintable()
        return
    assert got.real.is_relative_to(tree.resolve())
    assert _inside(got.real, tree)
    assert got.data != SECRET


@PROPS
@given(_PATHS)
def test_a_resolved_file_is_inside_the_real_root(tree: Path, path: str) -> None:
    try:
        got = resolve_file(tree, path)
    except ResourceError as e:
        assert e.code.startswith("resource.")
        return
    assert _inside(got, tree)
    assert got.read_bytes() != SECRET


def test_listing_names_only_files_inside(tree: Path) -> None:
    shown, more = list_resources(tree)
    assert more == 0
    for relative in shown:
        assert _inside(tree / relative, tree), relative
        assert read_resource(tree, relative).data != SECRET
