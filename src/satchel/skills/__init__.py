"""Skills: the `Skill` value, reading and judging one SKILL.md, and walking roots.

`parse_skill(path)` reads one skill as a host would; `check_paths` judges files and
directories as `satchel validate` does; `scan_root` walks one root. Nothing here runs
anything.

It may import: `core`, `foundations`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.skills._check import Checked, check_paths
    from satchel.skills._discover import RootScan, scan_root, skill_dirs
    from satchel.skills._fields import FieldRules
    from satchel.skills._model import MAX_SKILL_FILE, Skill
    from satchel.skills._read import SKILL_FILE, parse_skill, read_skill
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.skills._check": ("Checked", "check_paths"),
            "satchel.skills._discover": ("RootScan", "scan_root", "skill_dirs"),
            "satchel.skills._fields": ("FieldRules",),
            "satchel.skills._model": ("MAX_SKILL_FILE", "Skill"),
            "satchel.skills._read": ("SKILL_FILE", "parse_skill", "read_skill"),
        },
    )

__all__ = [
    "MAX_SKILL_FILE",
    "SKILL_FILE",
    "Checked",
    "FieldRules",
    "RootScan",
    "Skill",
    "check_paths",
    "parse_skill",
    "read_skill",
    "scan_root",
    "skill_dirs",
]
