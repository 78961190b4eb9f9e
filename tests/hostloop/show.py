"""What a host sent its model, read out of the first request of its loop.

`seen(host, turn)` takes the recorded requests of one run and returns a `Seen`: the
model, the system text (Claude Code's ``system`` blocks, Codex's developer messages,
Gemini CLI's ``systemInstruction``), the skills listing and agent-type listing as the
host wrote them, the tools it offered, and the instruction files it loaded with their
text, each as the host wraps them. `render(seen)` prints it for a person.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.hostloop.capture import Ran
from tests.hostloop.hosts import Turn
from tests.hostloop.model import Recorded

__all__ = ["Instruction", "Seen", "render", "seen", "texts"]

CLAUDE_SKILLS = "The following skills are available for use with the Skill tool:\n\n"
CLAUDE_AGENTS = "Available agent types for the Agent tool:\n"
CLAUDE_MEMORY = "Codebase and user instructions are shown below."
_CLAUDE_FILE = re.compile(r"(?:^|\n\n)Contents of (.+?) \(([^()\n]+)\):\n\n")
_CODEX_AGENTS = re.compile(
    r"^# AGENTS\.md instructions for (.*)\n\n<INSTRUCTIONS>\n(.*)\n</INSTRUCTIONS>$", re.S
)
_GEMINI_FILE = re.compile(
    r"--- Context from: (.+?) ---\n(.*?)\n--- End of Context from: \1 ---", re.S
)
_GEMINI_SKILL = re.compile(r"<skill>\s*<name>(.*?)</name>\s*<description>(.*?)</description>", re.S)
_GEMINI_AGENT = re.compile(
    r"<subagent>\s*<name>(.*?)</name>\s*<description>(.*?)</description>", re.S
)


@dataclass(frozen=True, slots=True)
class Instruction:
    """One instruction file in the prompt: its path and how the host labels it
    (Claude Code: ``project instructions, checked into the codebase``; Gemini CLI:
    ``global`` or ``project``; Codex: ``AGENTS.md``), and its text as sent."""

    path: str
    kind: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "kind": self.kind, "text": self.text}


@dataclass(frozen=True, slots=True)
class Seen:
    """What the host put in front of its model on the first turn, and what it ran."""

    host: str
    model: str
    system: str
    skills: tuple[str, ...]
    agents: tuple[str, ...]
    tools: tuple[str, ...]
    instructions: tuple[Instruction, ...]
    instructions_block: str | None
    turns: int
    requests: int
    returncode: int
    output: str
    hooks: tuple[Ran, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "model": self.model,
            "returncode": self.returncode,
            "output": self.output,
            "requests": self.requests,
            "turns": self.turns,
            "system": self.system,
            "skills": list(self.skills),
            "agents": list(self.agents),
            "tools": list(self.tools),
            "instructions": [i.to_json() for i in self.instructions],
            "instructions_block": self.instructions_block,
            "hooks": [h.to_json() for h in self.hooks],
        }


def texts(value: Any) -> Iterator[str]:
    """Every ``text`` string (and a message's plain-text ``content``) inside a request
    body part, depth first, in order."""
    if isinstance(value, dict):
        if isinstance(value.get("text"), str):
            yield value["text"]
        for key, item in value.items():
            if key != "text" and isinstance(item, (dict, list)):
                yield from texts(item)
            elif key == "content" and isinstance(item, str):  # a message's plain text
                yield item
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)
    elif isinstance(value, str):
        yield value


def _section(haystack: list[str], head: str) -> tuple[str, ...]:
    """The ``- `` entries that follow `head` in the first text holding it, up to a
    blank line (an entry's description may run on over several lines)."""
    for text in haystack:
        at = text.find(head)
        if at >= 0:
            block = text[at + len(head) :].split("\n\n", 1)[0].strip("\n")
            return tuple(re.split(r"\n(?=- )", block)) if block else ()
    return ()


def _claude_memory(haystack: list[str]) -> tuple[tuple[Instruction, ...], str | None]:
    for text in haystack:
        if CLAUDE_MEMORY not in text:
            continue
        block = text.removeprefix("<system-reminder>\n").removesuffix("\n</system-reminder>")
        heads = list(_CLAUDE_FILE.finditer(block))
        found = []
        for n, head in enumerate(heads):
            end = heads[n + 1].start() if n + 1 < len(heads) else len(block)
            found.append(Instruction(head.group(1), head.group(2), block[head.end() : end]))
        return tuple(found), block
    return (), None


def _claude(first: Recorded) -> dict[str, Any]:
    body = first.body
    system = "\n\n".join(texts(body.get("system") or []))
    haystack = list(texts(body.get("messages") or []))
    files, block = _claude_memory(haystack)
    return {
        "system": system,
        "skills": _section(haystack, CLAUDE_SKILLS),
        "agents": _section(haystack, CLAUDE_AGENTS),
        "tools": tuple(str(t.get("name")) for t in body.get("tools") or ()),
        "instructions": files,
        "instructions_block": block,
    }


def _codex_tools(items: list[Any]) -> tuple[str, ...]:
    names: list[str] = []
    for item in items:
        if isinstance(item, dict) and item.get("type") == "additional_tools":
            for tool in item.get("tools") or ():
                if not isinstance(tool, dict):
                    continue
                inner = tool.get("tools") if tool.get("type") == "namespace" else None
                if isinstance(inner, list):  # a namespace: `functions.exec`, `clock.sleep`
                    names += [f"{tool.get('name')}.{t.get('name')}" for t in inner]
                else:
                    names.append(str(tool.get("name") or tool.get("type")))
    return tuple(names)


def _codex(first: Recorded) -> dict[str, Any]:
    items = first.body.get("input") or []
    developer = [i for i in items if isinstance(i, dict) and i.get("role") == "developer"]
    system = "\n\n".join(t for t in texts(developer) if not t.startswith("<skills_instructions>"))
    haystack = list(texts(items))
    skills = next((t for t in haystack if t.startswith("<skills_instructions>")), "")
    lines = tuple(x for x in skills.split("\n") if x.startswith("- ") and "(file: " in x)
    files: tuple[Instruction, ...] = ()
    block = None
    for text in haystack:
        if m := _CODEX_AGENTS.match(text):
            files, block = (Instruction(m.group(1), "AGENTS.md", m.group(2)),), text
    return {
        "system": system,
        "skills": lines,
        "agents": (),
        "tools": _codex_tools(items),
        "instructions": files,
        "instructions_block": block,
    }


def _gemini(first: Recorded) -> dict[str, Any]:
    body = first.body
    system = "\n\n".join(texts(body.get("systemInstruction") or {}))
    contents = "\n\n".join(texts(body.get("contents") or []))
    files = [Instruction(m.group(1), "global", m.group(2)) for m in _GEMINI_FILE.finditer(system)]
    files += [
        Instruction(m.group(1), "project", m.group(2)) for m in _GEMINI_FILE.finditer(contents)
    ]
    declared = [d for t in body.get("tools") or () for d in t.get("functionDeclarations") or ()]
    return {
        "system": system,
        "skills": tuple(f"- {n}: {d}" for n, d in _GEMINI_SKILL.findall(system)),
        "agents": tuple(f"- {n}: {d}" for n, d in _GEMINI_AGENT.findall(system)),
        "tools": tuple(str(d.get("name")) for d in declared),
        "instructions": tuple(files),
        "instructions_block": next(
            (t for t in texts(body.get("contents") or []) if "<loaded_context>" in t), None
        ),
    }


_READERS = {"claude": _claude, "codex": _codex, "gemini": _gemini}


def seen(host: str, turn: Turn, hooks: tuple[Ran, ...] = ()) -> Seen:
    """What `turn` shows its model: `host` is ``claude``, ``codex`` or ``gemini``."""
    first = turn.turns[0] if turn.turns else None
    read = _READERS[host](first) if first is not None else {}
    return Seen(
        host=host,
        model=str(first.body.get("model") or _model_of_path(first.path)) if first else "",
        system=read.get("system", ""),
        skills=read.get("skills", ()),
        agents=read.get("agents", ()),
        tools=read.get("tools", ()),
        instructions=read.get("instructions", ()),
        instructions_block=read.get("instructions_block"),
        turns=len(turn.turns),
        requests=len(turn.requests),
        returncode=turn.returncode,
        output=turn.stdout,
        hooks=hooks,
    )


def _model_of_path(path: str) -> str:
    m = re.search(r"/models/([^:/?]+)", path)
    return m.group(1) if m else ""


def _heading(title: str) -> str:
    return f"\n== {title} =="


def render(s: Seen, *, system: bool = False) -> str:
    """`s` for a person: each part under a heading; the system text only when asked."""
    out = [
        f"host: {s.host}   model: {s.model}   exit: {s.returncode}",
        f"requests: {s.requests} ({s.turns} turns of the host's loop)",
    ]
    if system:
        out += [_heading("system"), s.system]
    out += [_heading(f"tools ({len(s.tools)})"), ", ".join(s.tools) or "(none)"]
    out += [_heading(f"skills listing ({len(s.skills)})"), *(s.skills or ("(none)",))]
    out += [_heading(f"agent types ({len(s.agents)})"), *(s.agents or ("(none shown)",))]
    out.append(_heading(f"instruction files ({len(s.instructions)})"))
    for i in s.instructions:
        out += [f"-- {i.path} ({i.kind})", i.text.rstrip("\n")]
    if not s.instructions:
        out.append("(none)")
    out.append(_heading(f"hooks run ({len(s.hooks)})"))
    for h in s.hooks:
        out.append(f"-- {h.event or '?'}: {h.hook} -> exit {h.exit}")
        out.append(json.dumps(h.payload, indent=2, sort_keys=True))
        if h.stdout.strip():
            out.append(f"stdout: {h.stdout.rstrip()}")
    if not s.hooks:
        out.append("(none)")
    out += [_heading("output"), s.output.rstrip("\n")]
    return "\n".join(out) + "\n"
