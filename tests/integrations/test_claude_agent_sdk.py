"""`satchel.integrations.claude_agent_sdk`: the SDK's bundled Claude Code runs the desk
script once (module-scoped) against the scripted model on 127.0.0.1, with a scratch
HOME, offline; the tests read what Claude Code sent back to the model for each call and
which hooks ran with which payloads."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

import satchel
from satchel.hosts._claude_code import claude_agent_tools, claude_tool_names
from satchel.integrations import Bridge
from satchel.integrations.claude_agent_sdk import (
    SERVER,
    handed_plugins,
    options,
    prompt,
    tools,
)
from satchel.session import Session
from satchel.trust._approval import digests
from satchel.trust._trust import trust
from tests.hooks.support import hooks_toml, pre_tool, py_hook, reply, write_hooks
from tests.hostloop.model import Call, Model, Recorded, Text

from .support import ANSWER, EXPANDED, HOOK_REFUSAL, LIST_TICKETS, PROMPT, desk, desk_session

SKILL = ".agents/skills/release-notes"
STYLE = "Lead each line with what the user can now do. No ticket numbers in the text.\n"
STARTED = "The release train leaves on Fridays."
REWRITTEN = "the draft tag is added at release time"
CHECKED = "Checked against the house style."
SHARED = "the tracker is shared with support"
CLAUDE_ALLOWS = ["Read", "Write", "Bash", LIST_TICKETS]
"""Claude Code's own permission rules in the run: every tool it may call runs without a
prompt, so a refusal can only come from a hook or satchel's gate."""


def own(tool: str) -> str:
    return f"mcp__{SERVER}__{tool}"


def script(root: Path) -> list[Call | Text]:
    """The desk script (tests/integrations/support.py) in Claude Code's tool names, the
    recursive delete first: before the skill is active, satchel's gate lets ``Bash``
    through, so the plugin's guard alone refuses it."""
    return [
        Call("Bash", {"command": "echo draft"}),
        Call("Bash", {"command": "rm -rf build"}),
        Call(own("skills_use"), {"name": "release-notes"}),
        Call("Read", {"file_path": str(root / SKILL / "references" / "style.md")}),
        Call(own("skills_run_script"), {"name": "release-notes", "script": "scripts/version.sh"}),
        Call(LIST_TICKETS, {"status": "done"}),
        Call("Write", {"file_path": str(root / "DEPLOYED"), "content": "2.4.0"}),
        Text(ANSWER),
    ]


RECORD = """import json, sys
payload = json.load(sys.stdin)
with open(sys.argv[1], "a") as log:
    log.write(json.dumps(payload) + "\\n")
if len(sys.argv) > 2:
    print(sys.argv[2])
"""


def recorder(where: Path, event: str, answer: dict[str, Any] | None = None) -> dict[str, Any]:
    """A command hook that appends its payload to `where/<event>.jsonl` (and answers)."""
    command = py_hook(where, "record", RECORD) + f' "{where / event}.jsonl"'
    if answer is not None:
        command += " '" + json.dumps(answer) + "'"
    return {"command": command}


REWRITE = """import json, sys
call = json.load(sys.stdin)
if call["tool_input"].get("command") == "echo draft":
    specific = {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                "updatedInput": {"command": "echo rewritten"}, "additionalContext": sys.argv[1]}
    print(json.dumps({"hookSpecificOutput": specific}))
"""


def answers(where: Path) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """satchel hooks that answer: ``echo draft`` rewritten (with context), the tickets
    tool asked about, and context after a Read."""
    rewrite = py_hook(where, "rewrite", REWRITE) + f' "{REWRITTEN}"'
    ask = reply(where, "ask", out=pre_tool("ask", SHARED))
    more = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": CHECKED}}
    return [
        ("before_tool_use", "Bash", [{"command": rewrite}]),
        ("before_tool_use", LIST_TICKETS, [{"command": ask}]),
        ("after_tool_use", "Read", [{"command": reply(where, "checked", out=more)}]),
    ]


@dataclass
class Run:
    root: Path
    logs: Path
    session: Session
    options: ClaudeAgentOptions
    asked: list[tuple[str, dict[str, Any], str | None]]
    requests: list[Recorded]
    result: ResultMessage | None

    def hooks(self, event: str) -> list[dict[str, Any]]:
        path = self.logs / f"{event}.jsonl"
        lines = path.read_text().splitlines() if path.exists() else []
        return [json.loads(line) for line in lines]

    def read(self) -> list[str]:
        """The text of each tool result Claude Code sent the model, in call order."""
        last = [r for r in self.requests if r.turn][-1]
        found = []
        for message in last.body["messages"]:
            content = message.get("content")
            for block in content if isinstance(content, list) else ():
                if block.get("type") == "tool_result":
                    found.append(_text(block.get("content")))
        return found


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or () if isinstance(b, dict))


def _log_guard(root: Path, logs: Path) -> None:
    """The plugin's guard also appends each payload it gets to `logs/guard.jsonl`."""
    guard = root / ".satchel" / "plugins" / "tickets" / "hooks" / "guard.py"
    text = guard.read_text().replace(
        "call = json.load(sys.stdin)\n",
        "call = json.load(sys.stdin)\n"
        f"with open({str(logs / 'guard.jsonl')!r}, 'a') as log:\n"
        "    log.write(json.dumps(call) + '\\n')\n",
    )
    guard.write_text(text)


async def _drive(opts: ClaudeAgentOptions, text: str) -> ResultMessage | None:
    result = None
    async for message in query(prompt=text, options=opts):
        if isinstance(message, ResultMessage):
            result = message
    return result


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    base = tmp_path_factory.mktemp("claude_agent_sdk")
    layout = desk(base)
    root, logs = layout.project, base / "logs"
    logs.mkdir()
    _log_guard(root, logs)
    groups = [
        ("before_tool_use", None, [recorder(logs, "pre")]),
        ("after_tool_use", None, [recorder(logs, "post")]),
        ("user_prompt_submit", None, [recorder(logs, "prompt")]),
        ("stop", None, [recorder(logs, "stop")]),
        ("session_start", None, [recorder(logs, "start", {"hookSpecificOutput": {
            "hookEventName": "SessionStart", "additionalContext": STARTED}})]),
    ]  # fmt: skip
    write_hooks(root, hooks_toml(*groups, *answers(logs)))
    trust(layout, root)  # the hooks above and the logging guard are the project's now
    (root / "build").mkdir()  # what the refused rm -rf would have removed
    session = desk_session(layout)
    home = base / "home-claude"
    home.mkdir()
    with Model(script(root)) as model:
        env = {
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "sk-ant-offline",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        asked: list[tuple[str, dict[str, Any], str | None]] = []

        def approve(name: str, tool_input: Any, reason: str | None) -> bool:
            asked.append((name, dict(tool_input), reason))
            return True

        opts = options(session, ask=approve, allowed_tools=CLAUDE_ALLOWS, env=env)
        result = asyncio.run(asyncio.wait_for(_drive(opts, prompt(session, PROMPT)), 120))
        return Run(root, logs, session, opts, asked, list(model.requests), result)


def test_the_sdk_is_the_version_these_tests_speak_for():
    assert version("claude-agent-sdk") == "0.2.190"
    from claude_agent_sdk._cli_version import __cli_version__

    assert __cli_version__ == "2.1.337"


def test_claude_code_runs_the_desk_script_and_ends_with_the_answer(run):
    assert run.result is not None
    assert (run.result.is_error, run.result.result) == (False, ANSWER)


def test_what_the_model_read_back_for_each_call(run):
    read = run.read()
    assert len(read) == 7
    assert read[0] == "rewritten"  # satchel's hook rewrote the command Claude Code ran
    read = read[1:]
    assert read[0] == (  # the plugin's guard, run by Claude Code from the plugin directory
        f"PreToolUse:Bash hook error: [{run.root / '.satchel/plugins/tickets/hooks/guard.py'}]: "
        f"{HOOK_REFUSAL}\n\nThis hook comes from the tickets@inline plugin."
    )
    assert read[1].startswith('<skill_content name="release-notes">')
    assert STYLE.strip() in read[2]
    assert json.loads(read[3])["stdout"] == "2.4.0\n"
    assert [t["id"] for t in json.loads(read[4])] == ["T-101", "T-102"]
    assert read[5] == (  # Claude Code's words around satchel's refusal
        "PreToolUse:Write hook error: tool 'Write' is not allowed: skill 'release-notes' is "
        f"active and allows only: Read, {LIST_TICKETS}. To use this tool, first call "
        'skills_use({"name": "release-notes", "mode": "deactivate"}).'
    )
    assert not (run.root / "DEPLOYED").exists()  # the refused Write never ran
    assert (run.root / "build").is_dir()  # nor the refused rm -rf
    assert run.session.activation.is_active("release-notes")


def test_an_ask_went_to_the_developers_callback_which_approved_it(run):
    assert run.asked == [(LIST_TICKETS, {"status": "done"}, SHARED)]


def test_hook_context_reached_the_model_next_to_the_result(run):
    said = json.dumps(run.requests[-1].body["messages"])
    assert REWRITTEN in said
    assert CHECKED in said


def test_the_plugins_guard_runs_once_in_claude_code_and_not_again_in_satchel(run):
    # Claude Code runs a call's hooks side by side, each on the input the model gave
    assert [p["tool_input"] for p in run.hooks("guard")] == [
        {"command": "echo draft"},
        {"command": "rm -rf build"},
    ]
    assert [h for h in run.session.environment.hooks.hooks if h.origin.plugin] == []
    assert run.options.plugins == [
        {"type": "local", "path": str(run.root / ".satchel" / "plugins" / "tickets")}
    ]


def test_satchels_pre_tool_hooks_see_every_call_by_the_name_satchel_knows_it(run):
    seen = [(p["tool_name"], p["tool_input"]) for p in run.hooks("pre")]
    assert seen == [
        ("Bash", {"command": "echo draft"}),
        ("Bash", {"command": "rm -rf build"}),
        ("skills_use", {"name": "release-notes"}),
        ("Read", {"file_path": str(run.root / SKILL / "references" / "style.md")}),
        ("skills_run_script", {"name": "release-notes", "script": "scripts/version.sh"}),
        (LIST_TICKETS, {"status": "done"}),
        ("Write", {"file_path": str(run.root / "DEPLOYED"), "content": "2.4.0"}),
    ]


def test_post_tool_hooks_see_each_call_that_ran_with_its_response(run):
    seen = [(p["tool_name"], p["tool_response"]) for p in run.hooks("post")]
    assert [name for name, _ in seen] == [
        "Bash",
        "skills_use",
        "Read",
        "skills_run_script",
        LIST_TICKETS,
    ]
    assert seen[0][1]["stdout"] == "rewritten"  # the input that ran was the rewrite
    assert STYLE.strip() in json.dumps(seen[2][1])


def test_the_user_turn_was_expanded_and_its_hooks_fired(run):
    first = next(r for r in run.requests if r.turn)
    assert EXPANDED in json.dumps(first.body["messages"][0])
    assert [p["prompt"] for p in run.hooks("prompt")] == [EXPANDED]
    assert [p["source"] for p in run.hooks("start")] == ["startup"]
    said = f"UserPromptSubmit hook additional context: {STARTED}\\n"  # SessionStart's
    assert said in json.dumps(first.body["messages"][1])
    assert [p["last_assistant_message"] for p in run.hooks("stop")] == [ANSWER]


def test_the_system_prompt_holds_satchels_index_and_claude_code_sees_tools_and_agent(run):
    first = next(r for r in run.requests if r.turn)
    system = json.dumps(first.body["system"])
    assert "<name>release-notes</name>" in system
    assert "/notes: Draft the release notes for a version" in system
    said = json.dumps(first.body["messages"])  # MCP tools are deferred: named, not listed
    for name in (own("skills_use"), own("skills_read"), own("skills_run_script"), LIST_TICKETS):
        assert f"\\n{name}\\n" in said
    listed = "- reviewer: Reviews release notes for tone and accuracy. Use after drafting notes."
    assert f"{listed} (Tools: Read)" in said


def test_the_agent_type_is_an_sdk_agent_with_claude_codes_tool_names(run):
    (name, agent), *_ = run.options.agents.items()
    assert (name, agent.tools, agent.model) == ("reviewer", ["Read"], None)
    assert agent.description.startswith("Reviews release notes")
    assert agent.prompt.startswith("You review release notes.")
    assert '<skill_content name="release-notes">\n# Release notes' in agent.prompt


def test_canonical_tool_names_map_to_claude_codes():
    canonical = ["read_file", "execute_command", "write_file", "create_directory"]
    assert claude_tool_names(canonical) == ["Read", "Bash", "Write"]
    assert claude_tool_names(["mcp", "Grep"]) == ["Grep"]


def test_a_claude_code_agent_keeps_its_tools_as_written():
    """``Grep`` is ``read_file`` and ``execute_command`` canonically: mapped back, a
    Claude Code agent given Grep alone would get Read and Bash."""
    written = (("Grep", "Read", "Bash"), ("Bash",))
    canonical = (("read_file", "execute_command"), ("execute_command",))
    assert claude_agent_tools("claude", written, canonical) == (["Grep", "Read"], ["Bash"])
    assert claude_agent_tools("vibe", written, canonical) == (["Read", "Bash"], ["Bash"])
    assert claude_agent_tools("claude", (None, ()), (None, ())) == (None, [])


SERVERS = {
    "notes": {"command": "./bin/notes", "args": ["--x"], "env": {"NOTES": "1"}},
    "web": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Team": "desk"}},
}


def test_the_projects_own_servers_go_as_satchel_would_start_them(tmp_path):
    layout = desk(tmp_path)
    (layout.project / ".mcp.json").write_text(json.dumps({"mcpServers": SERVERS}))
    trust(layout, layout.project)
    env = satchel.load(layout=layout)
    session = Session(env, tools="skills", environ={"PATH": "/usr/bin:/bin", "TOKEN": "x"})
    servers = options(session).mcp_servers
    assert isinstance(servers, dict)
    assert {k: v for k, v in servers.items() if k != SERVER} == {
        "notes": {  # the command found in the project, the environment scrubbed
            "type": "stdio",
            "command": str(layout.project / "bin" / "notes"),
            "args": ["--x"],
            "env": {"PATH": "/usr/bin:/bin", "NOTES": "1"},
        },
        "web": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Team": "desk"}},
    }  # and no entry for the tickets server: it comes with its plugin's directory


def test_an_untrusted_project_hands_claude_code_no_plugin_and_no_hook(tmp_path):
    layout = desk(tmp_path)
    (layout.project / ".mcp.json").write_text(json.dumps({"mcpServers": SERVERS}))
    stranger = satchel.Layout.default(layout.project, home=tmp_path / "other", env={})
    (tmp_path / "other").mkdir()
    env = satchel.load(layout=stranger)
    assert env.trust.state != "trusted"
    session = Session(env, tools="skills", environ={"PATH": os.environ["PATH"]})
    opts = options(session)
    assert (opts.plugins, handed_plugins(env)) == ([], ())
    assert opts.hooks is not None
    (pre,) = opts.hooks["PreToolUse"][0].hooks
    call = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}
    answer = asyncio.run(pre(call, "toolu_1", {"signal": None}))
    assert answer == {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}  # no guard ran
    assert set(opts.mcp_servers) == {SERVER}  # satchel's own tools only
    assert opts.setting_sources == []  # Claude Code reads nothing of the project itself


def test_a_plugin_with_a_hook_changed_since_trust_is_not_handed_over(tmp_path):
    layout = desk(tmp_path)
    trust(layout, layout.project, digests(satchel.load(layout=layout).executables()))
    hooks = layout.project / ".satchel" / "plugins" / "tickets" / "hooks" / "hooks.json"
    hooks.write_text(hooks.read_text().replace("Bash|shell", "Bash"))
    env = satchel.load(layout=layout)
    assert {d.code for d in env.diagnostics} == {"trust.changed"}
    session = Session(env, tools="skills", environ={"PATH": os.environ["PATH"]})
    assert handed_plugins(env) == ()
    opts = options(Bridge(session))
    assert opts.plugins == []
    assert [h.status for h in session.environment.hooks.hooks] == ["skipped"]
    assert set(opts.mcp_servers) == {SERVER}  # satchel holds its server back too


def test_a_plugin_whose_server_the_policy_refuses_is_not_handed_over(tmp_path):
    layout = desk(tmp_path)
    (layout.project / ".satchel" / "policy.toml").write_text('[mcp]\ndeny = ["tickets"]\n')
    env = satchel.load(layout=layout)
    assert handed_plugins(env) == ()
    session = Session(env, tools="skills", environ={"PATH": "/usr/bin:/bin"})
    assert (options(session).plugins, set(options(session).mcp_servers)) == ([], {SERVER})
    assert [h.origin.plugin for h in session.environment.hooks.hooks] == ["tickets"]  # satchel's


def test_a_handed_plugins_skills_are_listed_by_claude_code_not_by_satchel(tmp_path):
    layout = desk(tmp_path)
    skill = layout.project / ".satchel" / "plugins" / "tickets" / "skills" / "triage"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: triage\ndescription: Sort new tickets.\n---\nSort.\n"
    )
    session = desk_session(layout)
    assert [s.origin.plugin for s in session.skills.values()] == [None, "tickets"]
    opts = options(session)
    assert [p.name for p in handed_plugins(session.environment)] == ["tickets"]
    assert [s.origin.plugin for s in session.skills.values()] == [None]
    assert isinstance(opts.system_prompt, dict)
    assert "Sort new tickets." not in opts.system_prompt["append"]
    assert "<name>release-notes</name>" in opts.system_prompt["append"]


def test_the_projects_instruction_files_are_appended_to_the_system_prompt(tmp_path):
    layout = desk(tmp_path)
    (layout.project / "AGENTS.md").write_text("Keep each line under 80 characters.\n")
    opts = options(desk_session(layout), system_prompt="You write release notes.")
    assert isinstance(opts.system_prompt, dict)
    append = opts.system_prompt["append"]
    assert append.startswith("You write release notes.\n\n")
    assert "Instructions from AGENTS.md:\nKeep each line under 80 characters.\n" in append
    assert append.count("Keep each line") == 1


def test_the_tools_server_lists_and_runs_the_sessions_own_tools(tmp_path):
    session = desk_session(desk(tmp_path))
    server = tools(session, name="desk")
    assert (server["type"], server["name"]) == ("sdk", "desk")
    listed, used = asyncio.run(_list_and_use(server))
    assert {"skills_use", "skills_read", "skills_run_script"} <= listed
    assert used["content"][0]["text"].startswith('<skill_content name="release-notes">')
    assert session.activation.is_active("release-notes")  # the call ran the session's own tool


async def _list_and_use(server: Any) -> tuple[set[str], dict[str, Any]]:
    """tools/list and one tools/call, as Claude Code sends them to an SDK server."""
    from claude_agent_sdk._internal.sdk_mcp_bridge import SdkMcpBridge

    bridge = SdkMcpBridge(server["name"], server["instance"])
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
    try:
        await bridge.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        await bridge.handle({"jsonrpc": "2.0", "method": "notifications/initialized"})
        listed = await bridge.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        call = {"name": "skills_use", "arguments": {"name": "release-notes"}}
        used = await bridge.handle(
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}
        )
    finally:
        await bridge.aclose()
    assert listed is not None and used is not None
    return {t["name"] for t in listed["result"]["tools"]}, used["result"]


def test_a_session_without_tools_adds_no_server_and_allows_nothing_more(tmp_path):
    layout = desk(tmp_path)
    session = Session(satchel.load(layout=layout), tools=False, environ={"PATH": "/usr/bin"})
    opts = options(session, allowed_tools=["Read"])
    assert (opts.mcp_servers, opts.allowed_tools) == ({}, ["Read"])


LSP = {"py": {"command": "pylsp", "extensionToLanguage": {".py": "python"}}}


def _pinned(layout: satchel.Layout) -> None:
    """What `satchel trust` does: trust the project pinned to what it holds now."""
    trust(layout, layout.project, digests(satchel.load(layout=layout).executables()))


def _swap(path: Path, old: str, new: str) -> None:
    """`old` replaced by `new` (as long) in `path`, its modification time kept: the
    plugin's listing is as pinned, only what the file declares changed."""
    assert len(old) == len(new)
    stamp = path.stat()
    path.write_text(path.read_text().replace(old, new))
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))


def _lsp_changed(tmp_path: Path) -> satchel.Layout:
    """The desk, its tickets plugin with a language server, trusted with pins, then the
    language server's command changed."""
    layout = desk(tmp_path)
    lsp = layout.project / ".satchel" / "plugins" / "tickets" / ".lsp.json"
    lsp.write_text(json.dumps(LSP))
    _pinned(layout)
    assert [p.name for p in handed_plugins(satchel.load(layout=layout))] == ["tickets"]
    _swap(lsp, '"pylsp"', '"other"')
    return layout


def test_a_plugin_whose_language_server_changed_since_trust_is_not_handed_over(tmp_path):
    env = satchel.load(layout=_lsp_changed(tmp_path))
    assert [d.code for d in env.diagnostics] == ["trust.changed"]
    assert env.trust.held == {"plugin-programs tickets"}
    assert handed_plugins(env) == ()
    session = Session(env, tools="skills", environ={"PATH": os.environ["PATH"]})
    opts = options(session)
    assert opts.plugins == []
    hooks = session.environment.hooks.hooks
    assert [(h.origin.plugin, h.status) for h in hooks] == [("tickets", "loaded")]  # satchel's


def test_a_plugin_whose_skills_own_hook_changed_since_trust_is_not_handed_over(tmp_path):
    layout = desk(tmp_path)
    skill = layout.project / ".satchel" / "plugins" / "tickets" / "skills" / "triage"
    skill.mkdir(parents=True)
    hook = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}
    front = f"name: triage\ndescription: Sort new tickets.\nhooks: {json.dumps(hook)}\n"
    (skill / "SKILL.md").write_text(f"---\n{front}---\nSort.\n")
    _pinned(layout)
    assert [p.name for p in handed_plugins(satchel.load(layout=layout))] == ["tickets"]
    _swap(skill / "SKILL.md", '"true"', '"date"')
    env = satchel.load(layout=layout)
    assert [k.split("/")[0] for k in env.trust.held] == ["hook skill:tickets:triage"]
    assert handed_plugins(env) == ()
    session = Session(env, tools="skills", environ={"PATH": os.environ["PATH"]})
    assert options(session).plugins == []


def test_a_plugin_whose_skills_command_line_changed_since_trust_is_not_handed_over(tmp_path):
    """Claude Code would run the line itself when the skill is used."""
    layout = desk(tmp_path)
    skill = layout.project / ".satchel" / "plugins" / "tickets" / "skills" / "triage"
    skill.mkdir(parents=True)
    front = "name: triage\ndescription: Sort new tickets.\n"
    (skill / "SKILL.md").write_text(f"---\n{front}---\nToday: !`date`\n")
    _pinned(layout)
    assert [p.name for p in handed_plugins(satchel.load(layout=layout))] == ["tickets"]
    _swap(skill / "SKILL.md", "!`date`", "!`true`")
    env = satchel.load(layout=layout)
    assert env.held_keys() == ("shell skill:tickets:triage#1",)
    assert handed_plugins(env) == ()


def test_a_plugins_server_goes_under_the_name_satchels_rules_use(tmp_path):
    """Claude Code calls a tool of a server given in ``mcp_servers`` under
    ``mcp__<key>__<tool>``: the key is ``plugin_<plugin>_<server>``, so a skill's
    ``disallowed-tools`` rule on that name refuses the call Claude Code makes."""
    layout = _lsp_changed(tmp_path)  # the plugin is not handed: satchel gives its server
    quiet = layout.project / ".agents" / "skills" / "quiet"
    quiet.mkdir(parents=True)
    (quiet / "SKILL.md").write_text(
        f"---\nname: quiet\ndescription: Keeps the tracker quiet.\n"
        f"disallowed-tools: {LIST_TICKETS}\n---\nQuiet.\n"
    )
    env = satchel.load(layout=layout)
    session = Session(env, tools="skills", environ={"PATH": os.environ["PATH"]})
    opts = options(session)
    assert isinstance(opts.mcp_servers, dict)
    (key,) = (k for k in opts.mcp_servers if k != SERVER)
    assert key == "plugin_tickets_tickets"
    session.activate("quiet")
    assert opts.hooks is not None
    (pre,) = opts.hooks["PreToolUse"][0].hooks
    call = {"tool_name": f"mcp__{key}__list_tickets", "tool_input": {"status": "done"}}
    answer = asyncio.run(pre(call, "toolu_1", {"signal": None}))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == (
        f"tool {LIST_TICKETS!r} is not allowed: skill 'quiet' is active and disallows: "
        f"{LIST_TICKETS}. To use this tool, first call "
        'skills_use({"name": "quiet", "mode": "deactivate"}).'
    )


def test_a_project_server_named_as_satchels_own_is_left_out(tmp_path):
    layout = desk(tmp_path)
    servers = {SERVER: SERVERS["notes"], "web": SERVERS["web"]}
    (layout.project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    trust(layout, layout.project)
    session = Session(satchel.load(layout=layout), tools="skills", environ={"PATH": "/usr/bin"})
    opts = options(session)
    assert isinstance(opts.mcp_servers, dict)
    assert sorted(opts.mcp_servers) == [SERVER, "web"]
    assert opts.mcp_servers[SERVER]["type"] == "sdk"  # satchel's, whose tools run unasked
    said = (
        "MCP server 'satchel' is left out of Claude Code's servers: satchel's own tools "
        "are served under that name (mcp__satchel__<tool>)"
    )
    assert [(d.code, d.message) for d in session.diagnostics] == [("mcp.server.shadowed", said)]


def test_a_skills_scripts_run_unasked_only_where_the_project_runs(tmp_path):
    layout = desk(tmp_path)
    every = [own("skills_use"), own("skills_read"), own("skills_run_script")]
    assert options(desk_session(layout)).allowed_tools == every
    stranger = satchel.Layout.default(layout.project, home=tmp_path / "other", env={})
    (tmp_path / "other").mkdir()
    env = satchel.load(layout=stranger)
    assert env.trust.state == "untrusted"
    session = Session(env, tools="skills", environ={"PATH": os.environ["PATH"]})
    assert options(session).allowed_tools == every[:2]  # Claude Code's rules say for scripts
