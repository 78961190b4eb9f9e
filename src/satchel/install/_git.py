"""Fetch a git repository with nothing in it able to run, pinned to a commit SHA.

A real ``git`` runs through `satchel.foundations.process.run_process`, with:

- no user or system config (an empty ``HOME`` and ``XDG_CONFIG_HOME``,
  ``GIT_CONFIG_NOSYSTEM``), so no filter, hook path or credential helper of the
  machine applies; ``core.hooksPath=/dev/null`` and no fsmonitor on top;
- only the URL's own transport allowed (``protocol.allow=never`` and one
  ``protocol.<scheme>.allow=always``), so ``ext::`` and ``fd::`` never run;
- a credential only for the URL's own host over https (`_auth.git_auth_env`: a
  token or an approved header helper's headers as ``http.<origin>.extraHeader`` in
  command-scope config from the environment, never in an argv, with
  ``http.followRedirects=false``); the machine's credential helpers are not read
  (no user config), so a private repository needs a token, a helper or ssh;
- a shallow fetch into a bare repository (no checkout: no smudge filter, no LFS
  download, ``GIT_LFS_SKIP_SMUDGE=1`` besides), submodules never fetched;
- each command ended once it passes `Settings.deadline`, and over http(s) once the
  server sends nothing for `Settings.timeout` seconds (``http.lowSpeedLimit`` and
  ``http.lowSpeedTime``), both ``install.fetch.timeout``;
- the tree exported with ``git archive`` and unpacked by satchel's own extractor,
  so links and paths follow the same rules as any archive (cases I04, I05).

A pinned SHA is checked to be reachable from a branch or tag of the repository:
a fork-network or dangling commit gives ``install.commit.unreachable``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.process import ProcessResult, base_env, run_process
from satchel.install._auth import git_auth_env
from satchel.install._errors import refuse
from satchel.install._extract import extract_archive
from satchel.install._settings import Settings

__all__ = ["Checkout", "fetch_git", "git_env", "is_sha"]

_SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")
_LISTING = 16 * 1024 * 1024


@model
class Checkout:
    """A fetched tree: where it was unpacked, the commit and what was noticed."""

    tree: Path
    commit: str
    diagnostics: tuple[Diagnostic, ...] = ()


def is_sha(ref: str | None) -> bool:
    """Whether `ref` is a full commit SHA (SHA-1 or SHA-256)."""
    return ref is not None and _SHA.match(ref) is not None


def git_env(environ: Mapping[str, str], home: Path) -> dict[str, str]:
    """The scrubbed environment git runs with: no config but the command line's."""
    env = base_env(environ)
    env.update(
        {
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_LFS_SKIP_SMUDGE": "1",
            "GIT_ATTR_NOSYSTEM": "1",
        }
    )
    return env


def fetch_git(
    url: str,
    ref: str | None,
    work: Path,
    settings: Settings,
    environ: Mapping[str, str] | None = None,
) -> Checkout:
    """Fetch `ref` (default: the remote's HEAD; a full SHA is pinned and checked for
    reachability) of `url` into the empty directory `work`, unpacked at
    ``work/tree``."""
    git = _Git(url, work, settings, os.environ if environ is None else environ)
    repo = work / "repo.git"
    git.run("init", "--quiet", "--bare", str(repo), cwd=work)
    if is_sha(ref):
        assert ref is not None
        commit = git.pinned(ref)
    else:
        git.run("fetch", "--quiet", "--depth=1", "--no-tags", "--", url, ref or "HEAD")
        commit = git.run("rev-parse", "--verify", "FETCH_HEAD^{commit}").strip()
    notes = git.submodules(commit)
    archive = work / "tree.tar"
    git.run("archive", "--format=tar", "-o", str(archive), commit)
    tree = work / "tree"
    tree.mkdir()
    extract_archive(archive, tree, settings.limits)
    archive.unlink()
    return Checkout(tree, commit, notes)


class _Git:
    def __init__(
        self, url: str, work: Path, settings: Settings, environ: Mapping[str, str]
    ) -> None:
        self.url = url
        self.work = work
        self.deadline = settings.deadline
        self.quiet = max(1, math.ceil(settings.timeout))  # git counts whole seconds
        home = work / "home"
        home.mkdir()
        self.env = {**git_env(environ, home), **git_auth_env(url, settings)}
        scheme = urlsplit(url).scheme.lower() or "file"
        self.config = [
            "-c", "core.hooksPath=/dev/null",
            "-c", "core.fsmonitor=false",
            "-c", "protocol.allow=never",
            "-c", f"protocol.{scheme}.allow=always",
            "-c", "submodule.recurse=false",
            "-c", "fetch.recurseSubmodules=false",
            "-c", "filter.lfs.required=false",
            "-c", "transfer.fsckObjects=true",
            "-c", "advice.detachedHead=false",
            "-c", "http.lowSpeedLimit=1",  # over http(s): a server quiet for timeout s
            "-c", f"http.lowSpeedTime={self.quiet}",
        ]  # fmt: skip

    def attempt(
        self, *args: str, cwd: Path | None = None, max_output: int = 1024 * 1024
    ) -> ProcessResult:
        """Run one git command (in the bare repository unless `cwd` is given)."""
        argv = ["git", *self.config]
        if cwd is None:
            argv += ["--git-dir", str(self.work / "repo.git")]
        return run_process(
            [*argv, *args],
            cwd=cwd or self.work,
            env=self.env,
            timeout=self.deadline,
            max_output=max_output,
        )

    def run(self, *args: str, cwd: Path | None = None, max_output: int = 1024 * 1024) -> str:
        """Run one git command; its stdout, or ``install.fetch.failed``."""
        result = self.attempt(*args, cwd=cwd, max_output=max_output)
        if not result.ok:
            why = _last_lines(result.stderr) or (
                result.diagnostics[0].message if result.diagnostics else "it failed"
            )
            if result.timed_out:
                message = (
                    f"git {args[0]} of {self.url} went on past its deadline of "
                    f"{self.deadline:g} s, so it was stopped"
                )
                hint = f"SATCHEL_FETCH_DEADLINE allows more than {self.deadline:g} s"
                raise refuse("install.fetch.timeout", message, hint=hint)
            raise refuse("install.fetch.failed", f"git {args[0]} of {self.url} failed: {why}")
        return result.stdout

    def pinned(self, sha: str) -> str:
        """Fetch every branch and tag, then require `sha` to be reachable from one."""
        specs = ("+refs/heads/*:refs/r/heads/*", "+refs/tags/*:refs/r/tags/*")
        self.run("fetch", "--quiet", "--no-tags", "--", self.url, *specs)
        found = ""
        if self.attempt("cat-file", "-e", f"{sha}^{{commit}}").ok:
            found = self.run(
                "for-each-ref", "--count=1", "--format=%(refname)", f"--contains={sha}", "refs/r"
            )
        if not found.strip():
            message = f"commit {sha} is not reachable from any branch or tag of {self.url}"
            raise refuse("install.commit.unreachable", message)
        return sha

    def submodules(self, commit: str) -> tuple[Diagnostic, ...]:
        """An ``install.git.submodule-ignored`` warning naming the commit's submodules."""
        listing = self.run("ls-tree", "-r", "-z", commit, max_output=_LISTING)
        paths = [
            line.split("\t", 1)[1]
            for line in listing.split("\0")
            if line.startswith("160000 ") and "\t" in line
        ]
        if not paths:
            return ()
        shown = ", ".join(paths[:10]) + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")
        message = f"{self.url} has submodules that were not fetched: {shown}"
        return (diagnostic("install.git.submodule-ignored", message),)


def _last_lines(text: str, n: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " / ".join(lines[-n:])
