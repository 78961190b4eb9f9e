"""The variables satchel sets for a hook: what the runner starts it with, and what a
trust pin (`satchel.trust._approval`) reads its command with.

- ``<CLIENT>_HOOK_EVENT``: satchel's event name (`event_variable`);
- ``CLAUDE_ENV_FILE`` for a session-start event (`satchel.runtime.hooks._envfile`);
- ``PLUGIN_ROOT`` and ``PLUGIN_DATA`` for a plugin's hooks;
- the variables the hook format's host definition names (`HookVariables`): its
  project variables (Claude Code's ``CLAUDE_PROJECT_DIR``; Gemini CLI's
  ``GEMINI_PROJECT_DIR`` and its alias ``CLAUDE_PROJECT_DIR``) and its plugin
  variables (Claude Code's ``CLAUDE_PLUGIN_ROOT`` and ``CLAUDE_PLUGIN_DATA``, Kimi's
  ``KIMI_PLUGIN_ROOT``). Under a host profile the runner also sets what that host sets
  from its session (Gemini CLI's ``GEMINI_SESSION_ID``, ``GEMINI_CWD``,
  ``GEMINI_PLANS_DIR``: `satchel.runtime.hooks._payload.hook_variables`).
"""

from __future__ import annotations

import re
from pathlib import Path

from satchel.core.layout import Layout
from satchel.hooks._model import Hook
from satchel.hosts._dialects import hook_dialect

__all__ = ["ENV_FILE_VARIABLE", "event_variable", "host_variables"]

ENV_FILE_VARIABLE = "CLAUDE_ENV_FILE"  # the file a session-start hook writes variables to


_NOT_NAME = re.compile(r"[^A-Za-z0-9_]")


def event_variable(client: str) -> str:
    """The variable naming the event: ``<CLIENT>_HOOK_EVENT``."""
    return f"{_NOT_NAME.sub('_', client).upper()}_HOOK_EVENT"


def host_variables(
    hook: Hook, layout: Layout, event: str = "", env_path: Path | None = None
) -> dict[str, str]:
    """The variables satchel sets for `hook` (see the module docstring); with no
    `event`, the event's variable is left out (what a trust pin reads commands with)."""
    fixed = {event_variable(layout.client): event} if event else {}
    if env_path is not None:
        fixed[ENV_FILE_VARIABLE] = str(env_path)
    names = hook_dialect(hook.spec.format).variables
    fixed.update(dict.fromkeys(names.project, str(layout.project)))
    if hook.root is not None:
        fixed["PLUGIN_ROOT"] = str(hook.root)
        fixed.update(dict.fromkeys(names.plugin_root, str(hook.root)))
        if hook.data_dir is not None:
            fixed["PLUGIN_DATA"] = str(hook.data_dir)
            fixed.update(dict.fromkeys(names.plugin_data, str(hook.data_dir)))
    return fixed
