"""The skills runtime for one conversation: `Session`, its tools and their adapters.

`Session` (`_core`) composes one object per part: `Activation` (`_activation`: the
skills offered and active), `Toolbox` (`_toolbox`, over the tools of `_tools`), `Gate`
(`_tool_gate`), `SessionHooks` (`_hooks`), `SystemPrompt` (`_system_prompt`) and
`PluginRuntime` (`_plugin_runtime`); the other modules are the values and rules those
parts use.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.session._adapters import (
        anthropic_result,
        anthropic_tools,
        openai_chat_result,
        openai_chat_tools,
        openai_responses_result,
        openai_responses_tools,
    )
    from satchel.session._core import Session
    from satchel.session._fork import Forked, ForkRequest
    from satchel.session._model import (
        ActiveSkill,
        ContextSegment,
        SkillEvent,
        Tool,
        ToolReceipt,
        ToolResult,
    )
    from satchel.session._options import TOOLSETS, SessionOptions, SessionOverrides
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.session._adapters": (
                "anthropic_result",
                "anthropic_tools",
                "openai_chat_result",
                "openai_chat_tools",
                "openai_responses_result",
                "openai_responses_tools",
            ),
            "satchel.session._core": ("Session",),
            "satchel.session._fork": ("ForkRequest", "Forked"),
            "satchel.session._model": (
                "ActiveSkill",
                "ContextSegment",
                "SkillEvent",
                "Tool",
                "ToolReceipt",
                "ToolResult",
            ),
            "satchel.session._options": ("TOOLSETS", "SessionOptions", "SessionOverrides"),
        },
    )

__all__ = [
    "ActiveSkill",
    "anthropic_result",
    "anthropic_tools",
    "ContextSegment",
    "Forked",
    "ForkRequest",
    "openai_chat_result",
    "openai_chat_tools",
    "openai_responses_result",
    "openai_responses_tools",
    "Session",
    "SessionOptions",
    "SessionOverrides",
    "SkillEvent",
    "Tool",
    "ToolReceipt",
    "ToolResult",
    "TOOLSETS",
]
