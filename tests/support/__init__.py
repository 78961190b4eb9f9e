"""What the tests share: one tree writer, one golden comparison, diagnostics as codes,
and a session that runs nothing."""

from tests.support.diagnostics import codes
from tests.support.golden import GOLDEN, check_golden
from tests.support.session import session
from tests.support.tree import put, skill_md, write_skill, write_tree

__all__ = [
    "GOLDEN",
    "check_golden",
    "codes",
    "put",
    "session",
    "skill_md",
    "write_skill",
    "write_tree",
]
