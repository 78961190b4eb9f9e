"""The skills runtime for one conversation: `Session`, its tools and their adapters."""

from satchel.session._adapters import (
    anthropic_result,
    anthropic_tools,
    openai_chat_result,
    openai_chat_tools,
    openai_responses_result,
    openai_responses_tools,
)
from satchel.session._core import Session
from satchel.session._model import (
    ActiveSkill,
    ContextSegment,
    SkillEvent,
    Tool,
    ToolReceipt,
    ToolResult,
)
from satchel.session._options import TOOLSETS, SessionOptions

__all__ = [
    "ActiveSkill",
    "anthropic_result",
    "anthropic_tools",
    "ContextSegment",
    "openai_chat_result",
    "openai_chat_tools",
    "openai_responses_result",
    "openai_responses_tools",
    "Session",
    "SessionOptions",
    "SkillEvent",
    "Tool",
    "ToolReceipt",
    "ToolResult",
    "TOOLSETS",
]
