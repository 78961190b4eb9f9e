"""`satchel outdated`: every plugin and skill installed on this machine, by satchel or
by a host, compared with its source by content, never by version string (see
docs/outdated.md).

`outdated(layout=..., hosts=...)` gathers the installs (satchel's lock files, and the
records of each host whose definition says where it keeps them), reads each source as
recorded (a marketplace's folder or clone, a git remote's ref, an npm package, an OCI
digest) and returns an `Outdated` of `Report` values: the state, the files that
differ, what loading changes, and the new risk.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.reports.outdated._check import DEADLINE, outdated
    from satchel.reports.outdated._model import (
        FileChange,
        Install,
        LoadChange,
        Origin,
        Outdated,
        Report,
    )
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.reports.outdated._check": ("DEADLINE", "outdated"),
            "satchel.reports.outdated._model": (
                "FileChange",
                "Install",
                "LoadChange",
                "Origin",
                "Outdated",
                "Report",
            ),
        },
    )

__all__ = [
    "DEADLINE",
    "FileChange",
    "Install",
    "LoadChange",
    "Origin",
    "outdated",
    "Outdated",
    "Report",
]
