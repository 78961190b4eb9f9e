"""Every path a model (or a host) names inside a skill directory.

`load_skill(name, resource)`, `skills_read` (any file, or the session's `read_areas`) and
`skills_run_script` (``scripts/`` only) come through here. The path is untrusted text;
the skill directory (found by discovery) is trusted, and nothing outside it is opened.

Decisions:

- The requested path must be relative, in POSIX form: no backslash, no drive, share or
  leading ``/``, no ``~`` or ``$`` prefix, no URL scheme, no NUL. Windows forms are
  judged with `PureWindowsPath` on every OS.
- Any ``..`` segment is refused, even one that would stay inside. ``%2e%2e`` is a
  literal name: nothing is URL-decoded.
- Symlinks that stay inside the skill directory are followed (an absolute target is
  spliced in when it lies under the skill directory); a link that leads out is refused
  (`resource.symlink.escape`), and more than `MAX_SYMLINKS` links on one path is
  `resource.symlink.loop`.
- Resolution is race-safe: the skill directory is opened once, then every segment is
  opened with ``O_NOFOLLOW`` relative to a directory fd already held, so swapping a file
  for a symlink mid-read can never reach outside. ``..`` in a link target pops that stack
  of fds; the kernel never resolves a ``..``. On Linux, the opened file's
  ``/proc/self/fd`` path is checked against the expected one too.
- Only regular files are opened: a FIFO, socket, device or directory is refused after an
  ``lstat`` and never opened, and the opened fd is ``fstat``-ed again.
- A file with more than one hard link is refused unless ``allow_hardlinks=True``: a hard
  link may be a file from outside the tree and no path check can tell.
- Reads are bounded by the cap (cap + 1 bytes at most), even if the size on disk lied.
- `areas` is checked on the requested path, before any link is followed: a link inside
  ``references/`` that leads elsewhere in the tree is fine.

These reads need ``dir_fd`` support (Linux, macOS, the BSDs); elsewhere they are refused
with `resource.unreadable`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.kinds.resources._listing import MAX_LIST_ENTRIES, list_resources
    from satchel.kinds.resources._paths import MAX_PATH, MAX_SEGMENT, check_relative, quote
    from satchel.kinds.resources._read import (
        MAX_RESOURCE,
        Resource,
        is_readable_text,
        read_resource,
        resolve_file,
    )
    from satchel.kinds.resources._walk import MAX_SYMLINKS
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.kinds.resources._listing": ("MAX_LIST_ENTRIES", "list_resources"),
            "satchel.kinds.resources._paths": (
                "MAX_PATH",
                "MAX_SEGMENT",
                "check_relative",
                "quote",
            ),
            "satchel.kinds.resources._read": (
                "MAX_RESOURCE",
                "Resource",
                "is_readable_text",
                "read_resource",
                "resolve_file",
            ),
            "satchel.kinds.resources._walk": ("MAX_SYMLINKS",),
        },
    )

__all__ = [
    "check_relative",
    "is_readable_text",
    "list_resources",
    "MAX_LIST_ENTRIES",
    "MAX_PATH",
    "MAX_RESOURCE",
    "MAX_SEGMENT",
    "MAX_SYMLINKS",
    "quote",
    "read_resource",
    "resolve_file",
    "Resource",
]
