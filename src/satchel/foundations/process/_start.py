"""Why a process could not start, in words that say what to fix."""

from __future__ import annotations

import codecs
import errno
import os
import shutil
import sys
from collections.abc import Mapping

from satchel.core._files import FileProblem, open_regular

_HEAD = 256  # bytes of a script read to explain a start failure


def bad_input(
    args: tuple[str, ...], cwd: str | os.PathLike[str], env: Mapping[str, str]
) -> str | None:
    """What the OS would refuse before starting anything (it raises ValueError)."""
    for index, arg in enumerate(args):
        if "\0" in arg:
            return f"argument {index} holds a NUL byte"
    if "\0" in os.fspath(cwd):
        return "the working directory holds a NUL byte"
    for name, value in env.items():
        if not name or "=" in name or "\0" in name or "\0" in value:
            return f"environment variable {name!r} is not a valid name or holds a NUL byte"
    return None


def start_reason(
    argv0: str, cwd: str | os.PathLike[str], env: Mapping[str, str], e: OSError
) -> str:
    """Why `argv0` did not start, in words that say what to fix."""
    if e.filename is cwd or not os.path.isdir(cwd):  # subprocess names `cwd` if chdir failed
        return _cwd_reason(cwd, e)
    target = _locate(argv0, cwd, env)
    if target is None and e.errno == errno.ENOENT:
        return "no such file" if os.sep in argv0 else "command not found on PATH"
    if target is not None and e.errno in (errno.ENOENT, errno.ENOEXEC):
        return _script_reason(target, e.errno)
    if target is not None and e.errno == errno.EACCES:
        if os.path.isdir(target):
            return "it is a directory"
        if not os.access(target, os.X_OK):
            return "the file is not executable (chmod +x)"
    return e.strerror or str(e)


def _cwd_reason(cwd: str | os.PathLike[str], e: OSError) -> str:
    where = f"working directory {os.fspath(cwd)!r}"
    if e.errno == errno.ENOENT:
        return f"{where} does not exist"
    if e.errno == errno.ENOTDIR:
        return f"{where} is not a directory"
    return f"{where} cannot be entered: {e.strerror or e}"


def _locate(argv0: str, cwd: str | os.PathLike[str], env: Mapping[str, str]) -> str | None:
    """The file the OS tried to run, if it exists: a path is taken from `cwd`, a
    bare name is looked up on the PATH of `env`."""
    if os.sep in argv0:
        path = os.path.join(cwd, argv0)
        return path if os.path.lexists(path) else None
    search = os.pathsep.join(os.get_exec_path(dict(env)))
    return shutil.which(argv0, mode=os.F_OK, path=search)


def _script_reason(target: str, code: int) -> str:
    head = _head(target)
    if head.startswith(b"#!"):
        line = head[2:].split(b"\n", 1)[0]
        if line.endswith(b"\r"):
            return (
                "its #! line ends in a carriage return (CRLF line endings); convert the file to LF"
            )
        words = line.split()
        if not words:
            return "its #! line names no interpreter"
        interpreter = words[0].decode("utf-8", "replace")
        if code == errno.ENOENT:
            return f"its #! interpreter {interpreter!r} was not found"
        return f"its #! interpreter {interpreter!r} cannot be run (exec format error)"
    if head.startswith(codecs.BOM_UTF8 + b"#!"):
        return "a byte order mark comes before its #! line; remove it"
    if code == errno.ENOEXEC:
        return "exec format error (no #! line, and not a program for this machine)"
    return "its interpreter or program loader was not found"


def _head(path: str) -> bytes:
    """At most the first `_HEAD` bytes of a regular file; empty if it cannot be read."""
    try:
        fd, _ = open_regular(path, sys.maxsize)
    except FileProblem:
        return b""
    try:
        return os.read(fd, _HEAD)
    except OSError:
        return b""
    finally:
        os.close(fd)
