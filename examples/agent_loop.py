"""A complete agent loop around a satchel Session, with a scripted model (no network).

The model reads the skills index in its system prompt, calls load_skill for the
instructions, reads a resource the instructions point to, and answers. Run it from
the repository root:

    .venv/bin/python examples/agent_loop.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import satchel
from satchel.session import Session, anthropic_result, anthropic_tools

WORKSPACE = Path(__file__).resolve().parent / "refund-desk"
INSTRUCTIONS = "Resolve support requests."
QUESTION = "Can I refund an order from 40 days ago?"


class ScriptedModel:
    """Stands in for an LLM: it decides from what is in front of it, step by step."""

    def reply(
        self, system: str, tools: list[dict[str, Any]], messages: list[dict[str, Any]]
    ) -> dict[str, Any]:
        results = [
            b["content"]
            for m in messages
            if m["role"] == "user"
            for b in _blocks(m)
            if b["type"] == "tool_result"
        ]
        if not results and "- refund-policy:" in system and tools:
            return _use("refund-policy")
        if len(results) == 1 and "references/exceptions.md" in results[0]:
            return _use("refund-policy", "references/exceptions.md")
        if results and "supervisor approves" in results[0]:
            return {"type": "text", "text": "Past 30 days, so a supervisor has to approve it."}
        return {"type": "text", "text": "I do not know."}


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return content if isinstance(content, list) else []


def _use(name: str, resource: str | None = None) -> dict[str, Any]:
    arguments = {"name": name} if resource is None else {"name": name, "resource": resource}
    return {
        "type": "tool_use",
        "id": f"call-{resource or name}",
        "name": "load_skill",
        "input": arguments,
    }


def run(session: Session, model: ScriptedModel, prompt: str) -> str:
    tools = anthropic_tools(session.tools())
    system = "\n\n".join([INSTRUCTIONS, *(s.text for s in session.context())])
    messages: list[dict[str, Any]] = [{"role": "user", "content": session.expand(prompt)}]
    for _ in range(8):
        block = model.reply(system, tools, messages)
        if block["type"] == "text":
            return str(block["text"])
        messages.append({"role": "assistant", "content": [block]})
        result = session.call(block["name"], block["input"])  # only satchel's tools here
        messages.append({"role": "user", "content": [anthropic_result(block["id"], result)]})
    return ""


def main() -> int:
    with tempfile.TemporaryDirectory() as home:  # an empty ~, as in the capture
        layout = satchel.Layout.default(WORKSPACE, home=home, project=WORKSPACE, env={})
        environment = satchel.load(layout=layout)
        session = Session(environment)
        text = run(session, ScriptedModel(), QUESTION)
        bill = {
            **satchel.token_bill({"instruction": INSTRUCTIONS, "user_intent": QUESTION}),
            **session.system_prompt.context_bill(),
        }
        print("skills:", list(environment.skills))
        print("tools:", [t.name for t in session.tools()])
        print("contexts:", [s.id for s in session.context()])
        print("text:", json.dumps(text))
        print("contextBill:", json.dumps(dict(sorted(bill.items())), separators=(",", ":")))
        receipts = [r.to_json() for r in session.toolbox.receipt()]
        print("receipt.tools:", json.dumps(receipts, separators=(",", ":")))
        print("diagnostics:", [d.code for d in environment.diagnostics + session.diagnostics])
    return 0


if __name__ == "__main__":
    sys.exit(main())
