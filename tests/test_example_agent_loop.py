"""examples/agent_loop.py runs caveman's flow end to end; every line it prints is checked."""

from __future__ import annotations

import json
import subprocess
import sys

import satchel
from tests.support.checkout import examples_root

EXAMPLES = examples_root() / "examples"  # what git tracks of examples/, never the checkout's own
EXAMPLE = EXAMPLES / "agent_loop.py"
SKILL = EXAMPLES / "refund-desk" / ".agents" / "skills" / "refund-policy"


def test_the_agent_loop_prints_the_capture(tmp_path):
    out = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    lines = out.stdout.splitlines()
    tools_line = [t.name for t in _session().tools()]
    bill = {
        "instruction": satchel.approx_tokens("Resolve support requests."),
        "skill": satchel.approx_tokens(_session().context()[0].text),
        "tool_schema": _session().system_prompt.context_bill()["tool_schema"],
        "user_intent": satchel.approx_tokens("Can I refund an order from 40 days ago?"),
    }
    assert lines == [
        "skills: ['refund-policy']",
        f"tools: {tools_line}",
        "contexts: ['agent.skills']",
        'text: "Past 30 days, so a supervisor has to approve it."',
        f"contextBill: {json.dumps(bill, separators=(',', ':'))}",
        'receipt.tools: [{"name":"load_skill","calls":2,"errors":0}]',
        "diagnostics: []",
    ]
    assert tools_line == ["load_skill"]
    assert (bill["instruction"], bill["skill"], bill["user_intent"]) == (7, 66, 10)  # caveman's
    assert out.stderr == ""


def _session() -> satchel.Session:
    workspace = SKILL.parents[2]
    layout = satchel.Layout.default(workspace, home=workspace / "no-home", project=workspace)
    return satchel.Session(satchel.load(layout=layout), environ={})
