"""Helpers for agent tests: write agent files into real directory trees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

AgentWriter = Callable[..., Path]


def claude_text(
    name: str | None = "helper",
    description: str | None = "Helps with things.",
    body: str = "You help.\n",
    **extra: str,
) -> str:
    lines = []
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    lines += [f"{key}: {value}" for key, value in extra.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + body


VIBE_OK = """\
schemaVersion = 1
agentType = "subagent"
displayName = "Researcher"
description = "Searches the knowledge base and summarizes findings."
safety = "safe"
activeModel = "mistral-medium-3.5"
instructions = "You are a research assistant."
enabledTools = ["read_file", "grep"]
disabledTools = ["bash"]
[tools.bash]
permission = "never"
allowlist = ["ls"]
denylist = ["rm"]
"""


@pytest.fixture
def put() -> AgentWriter:
    """put(directory, relative_path, text) -> the path written (parents created)."""

    def _put(directory: Path, relative: str, text: str | bytes) -> Path:
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        return path

    return _put
