"""Read a local git repository's history, read-only, with nothing of it able to run.

A real ``git`` runs through `satchel.foundations.process.run_process` with the environment
`satchel.install._git.git_env` gives (no user or system config) and
``GIT_OPTIONAL_LOCKS=0`` (nothing is written, not even the index's stat cache). Only
commands that read the object database, the refs, the index, attributes and config are
used (``rev-parse``, ``for-each-ref``, ``log``, ``rev-list``, ``cat-file``, ``ls-tree``,
``ls-files``, ``check-attr``, ``config``): none reads a working-tree file's content (so
no filter, textconv or external diff runs),
and ``core.fsmonitor`` and ``log.showSignature`` are off (so no fsmonitor hook or gpg
program), so no program the repository's own config names is started. Only a config
read (`config_env`) sees the user's and the system's config, as ``git status`` would.
Every command of one `Repo` shares one deadline; past it, or when git is missing or
fails, a call gives None and `Repo.problem` says why.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from satchel.foundations.process import base_env, run_process
from satchel.install._git import git_env

__all__ = ["DEADLINE", "Repo", "config_env", "open_repo"]

DEADLINE = 30.0  # seconds for every git command of one check together
_CONFIG = (
    "-c", "core.fsmonitor=false",
    "-c", "log.showSignature=false",
    "-c", "core.hooksPath=/dev/null",
    "-c", "core.untrackedCache=false",
    "-c", "protocol.allow=never",
    "-c", "core.quotePath=false",
)  # fmt: skip


class Repo:
    """One git work tree: its `top` folder, the `head` commit, whether the clone is
    `shallow`, the object format's hash name (`hash`: ``sha1`` or ``sha256``), and a
    bounded `git` runner."""

    def __init__(self, top: Path, env: dict[str, str], ends: float) -> None:
        self.top = top
        self.head = ""
        self.env = env
        self.ends = ends
        self.shallow = False
        self.hash = "sha1"
        self.problem: str | None = None

    def git(
        self,
        *args: str,
        cap: int = 16 * 1024 * 1024,
        may_fail: bool = False,
        stdin: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> str | None:
        """The stdout of ``git ARGS`` run at `top` (fed `stdin`, with `env` in place of
        the repository's own), or None (and `problem` set) when it did not succeed in
        time; `may_fail`: a non-zero exit is an answer, not a problem."""
        left = self.ends - time.monotonic()
        if left <= 0:
            self.problem = "git did not finish within its deadline"
            return None
        result = run_process(
            ["git", *_CONFIG, *args],
            cwd=self.top,
            env=self.env if env is None else env,
            stdin=stdin,
            timeout=left,
            max_output=cap,
        )
        if result.timed_out:
            self.problem = f"git {args[0]} did not finish within its deadline"
        elif result.exit_code is None or result.truncated or not (result.ok or may_fail):
            self.problem = f"git {args[0]} failed: {_last_line(result.stderr)}"
        return result.stdout if result.ok and not result.truncated else None


def open_repo(folder: Path, environ: Mapping[str, str], deadline: float = DEADLINE) -> Repo | None:
    """The git work tree `folder` is in, with a commit checked out; None when there is
    none (no ``.git`` above it, no git program, no commit yet, a repository git refuses)."""
    if not _in_work_tree(folder):
        return None
    # a home below the null device cannot exist, so no one's config is in it
    env = {
        **git_env(environ, Path(os.devnull) / "home"),
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_LITERAL_PATHSPECS": "1",  # a folder named ``*`` is that folder, not a glob
    }
    probe = Repo(folder, env, time.monotonic() + deadline)
    out = probe.git("rev-parse", "--show-toplevel", "--is-shallow-repository", "HEAD")
    lines = (out or "").splitlines()
    if len(lines) != 3:
        return None
    repo = Repo(Path(lines[0]), env, probe.ends)
    repo.shallow = lines[1] == "true"
    repo.head = lines[2]
    repo.hash = "sha256" if len(lines[2]) == 64 else "sha1"
    return repo


def config_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment a ``git config`` read runs with: the user's and the system's
    config files as `environ` names them, nothing else of it."""
    names = ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM")
    kept = {name: environ[name] for name in names if name in environ}
    return {**base_env(environ), **kept, "GIT_OPTIONAL_LOCKS": "0"}


def _in_work_tree(folder: Path) -> bool:
    """Whether a ``.git`` is in `folder` or above it (git is not started otherwise)."""
    here = Path(os.path.abspath(folder))
    return any(os.path.lexists(p / ".git") for p in (here, *here.parents))


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"
