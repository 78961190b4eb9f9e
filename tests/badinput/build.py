"""Build bad-input fixtures at test time, in a temporary directory.

Nothing binary is committed: every case is written here from bytes. A `Tree` is one
fixture: a project (with ``.git``), a home, a directory of secrets outside every
skills root, and a canary directory that payloads try to write into.
"""

from __future__ import annotations

import hashlib
import os
import stat
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import satchel
from satchel import Diagnostic, Environment, Layout, WalkBounds
from tests.support import skill_md, write_skill

SIBLING = "sibling-ok"
NESTED = WalkBounds(nested=True, max_depth=6, max_dirs=2000)


@dataclass(frozen=True)
class Tree:
    """One fixture: where the project, the home, the secrets and the canary live."""

    base: Path
    project: Path
    home: Path
    outside: Path
    canary: Path

    @property
    def skills(self) -> Path:
        """The project skills root most cases write into."""
        return self.project / ".claude" / "skills"

    def root(self, scope: str = "project", family: str = ".claude") -> Path:
        """A skills root of satchel's default layout, created on demand."""
        if scope == "project":
            path = self.project / family / "skills"
        elif family == ".satchel":
            path = self.home / ".config" / "satchel" / "skills"
        else:
            path = self.home / family / "skills"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def layout(self, walk: WalkBounds | None = None) -> Layout:
        return Layout.default(self.project, home=self.home, project=self.project, walk=walk)

    def load(self, walk: WalkBounds | None = None, **options: object) -> Environment:
        return satchel.load(layout=self.layout(walk), **options)


def make_tree(base: Path) -> Tree:
    tree = Tree(
        base=base,
        project=base / "fixture" / "project",
        home=base / "fixture" / "home",
        outside=base / "outside",
        canary=base / "canary",
    )
    (tree.project / ".git").mkdir(parents=True)
    tree.home.mkdir(parents=True)
    tree.outside.mkdir()
    tree.canary.mkdir()
    tree.skills.mkdir(parents=True)
    (tree.outside / "secret.md").write_text(
        "---\nname: secret\ndescription: a file no skill may read\n---\nTOP SECRET\n"
    )
    return tree


# What a skill the bad-input tests write says, unless a case says otherwise.
DOES_ONE_THING = "Does one thing. Use it when a test needs it."
INSTRUCTIONS = "# Instructions\n\nDo the thing.\n"


def write_sibling(root: Path, name: str = SIBLING) -> Path:
    """A valid skill next to the bad one: it must still load (C3)."""
    return write_skill(
        root,
        name,
        skill_md(name, "A valid sibling that must always load.", INSTRUCTIONS, gap=False),
    )


# --- reading results -----------------------------------------------------------------


def found(env: Environment | tuple[Diagnostic, ...], code: str) -> list[Diagnostic]:
    diags = env.diagnostics if isinstance(env, Environment) else env
    return [d for d in diags if d.code == code]


def only(env: Environment | tuple[Diagnostic, ...], code: str) -> Diagnostic:
    """The single diagnostic with `code` (the test fails if there are none or several)."""
    hits = found(env, code)
    diags = env.diagnostics if isinstance(env, Environment) else env
    assert len(hits) == 1, f"expected one {code}, got {[(d.code, d.message) for d in diags]}"
    return hits[0]


def about(env: Environment, path: Path) -> list[Diagnostic]:
    """The diagnostics whose path is `path` or lies under it."""
    return [d for d in env.diagnostics if d.path is not None and d.path.is_relative_to(path)]


def is_control(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf")


# --- C3: nothing lost ------------------------------------------------------------------


def snapshot(top: Path) -> dict[str, str]:
    """Every entry under `top` (links not followed): its kind, mode and content hash."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, top)
            if os.path.islink(path):
                out[rel] = "link:" + os.readlink(path)
            elif os.path.isdir(path):
                out[rel] = f"dir:{st.st_mode:o}"
            elif not stat.S_ISREG(st.st_mode):  # a FIFO or socket: opening it could block
                out[rel] = f"special:{st.st_mode:o}"
            else:
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                out[rel] = f"file:{st.st_mode:o}:{digest}"
    return out


# --- C4: listing order -----------------------------------------------------------------


class _Listing:
    """A finished `os.scandir` listing, served in reversed order."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self.entries = entries

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __iter__(self) -> Iterator[os.DirEntry[str]]:
        return iter(reversed(self.entries))

    def close(self) -> None:
        return None


@contextmanager
def reversed_listing(monkeypatch: object) -> Iterator[None]:
    """Within the block, `os.scandir` yields entries in reversed order."""
    real = os.scandir

    def scandir(path: str = ".") -> _Listing:
        with real(path) as it:
            return _Listing(list(it))

    monkeypatch.setattr(os, "scandir", scandir)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        monkeypatch.setattr(os, "scandir", real)  # type: ignore[attr-defined]
