"""Host profiles: each agent host's every decision about where skills, commands,
agents and plugins come from and how they are read, as one frozen `Host` value.

``load(host="codex")`` sees a project as Codex does; `get` gives a built-in profile,
`names` their names, `resolve` a built-in or a user-defined one (``[hosts.<name>]``
in ``config.toml``). See docs/hosts.md.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.hosts._agent_listing import agent_line, agent_listing
    from satchel.hosts._config import get, names, resolve, user_profiles
    from satchel.hosts._describe import decisions
    from satchel.hosts._instruction_text import instruction_blocks
    from satchel.hosts._model import Host, Index, Limits
    from satchel.hosts._models import (
        CLAUDE_CODE_MODELS,
        CODEX_MODELS,
        GEMINI_MODELS,
        Models,
        Resolved,
        Window,
    )
    from satchel.hosts._profiles import PROFILES
    from satchel.skills._names import NameRule
else:
    from satchel import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.hosts._agent_listing": ("agent_line", "agent_listing"),
            "satchel.hosts._config": ("get", "names", "resolve", "user_profiles"),
            "satchel.hosts._describe": ("decisions",),
            "satchel.hosts._instruction_text": ("instruction_blocks",),
            "satchel.hosts._model": ("Host", "Index", "Limits"),
            "satchel.hosts._models": (
                "CLAUDE_CODE_MODELS",
                "CODEX_MODELS",
                "GEMINI_MODELS",
                "Models",
                "Resolved",
                "Window",
            ),
            "satchel.hosts._profiles": ("PROFILES",),
            "satchel.skills._names": ("NameRule",),
        },
    )

__all__ = [
    "CLAUDE_CODE_MODELS",
    "CODEX_MODELS",
    "GEMINI_MODELS",
    "PROFILES",
    "Host",
    "Index",
    "Limits",
    "Models",
    "NameRule",
    "Resolved",
    "Window",
    "agent_line",
    "agent_listing",
    "decisions",
    "get",
    "instruction_blocks",
    "names",
    "resolve",
    "user_profiles",
]
