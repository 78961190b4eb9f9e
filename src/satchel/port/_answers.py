"""Whether a hook's script answers in a shape the target does not read.

Port does not run or rewrite a hook's script, so it cannot translate its answer. It
reads the plugin files the command names (``${CLAUDE_PLUGIN_ROOT}/x``,
``${PLUGIN_ROOT}/x``, ``./x``) and says so when one holds Claude Code's JSON refusal,
``hookSpecificOutput.permissionDecision``, and the target does not read that shape
(`PortHooks.answers`: Gemini CLI 0.61.0 runs the call). The hook is still written:
its other answers (exit 2, ``{"decision": "block"}``) refuse there.
"""

from __future__ import annotations

import re
from pathlib import Path

from satchel._contain import contained
from satchel.hooks._spec import HookSpec

__all__ = ["PERMISSION_DECISION", "answers_unread"]

PERMISSION_DECISION = "permission-decision"
_FILE = re.compile(r"""(?:\$\{(?:CLAUDE_|KIMI_)?PLUGIN_ROOT\}/|(?<![\w/.])\./)([^\s"';|&]+)""")
_MAX = 1 << 20


def answers_unread(root: Path, hook: HookSpec, reads: tuple[str, ...] | None) -> str | None:
    """The plugin file (relative) of `hook`'s command that answers with Claude Code's
    ``permissionDecision``, when the target (its `reads`) does not read that; else None
    (and when what the target reads is not known)."""
    if reads is None or PERMISSION_DECISION in reads:
        return None
    text = " ".join([hook.command, *(hook.args or ())])
    found: list[str] = _FILE.findall(text)
    for rel in found:
        path = root / rel
        try:
            if not contained(path, root.resolve()) or path.stat().st_size > _MAX:
                continue
            if "permissionDecision" in path.read_text(encoding="utf-8", errors="replace"):
                return rel
        except OSError:
            continue
    return None
