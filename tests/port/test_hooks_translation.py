"""Each hook in each target's dialect, in every direction: tool names in a matcher
(Claude Code's ``Bash``, Gemini CLI's ``run_shell_command``, Codex's ``apply_patch``,
Cursor's ``Shell``), MCP tool names (``mcp__s__t``, ``mcp_s_t``), the project
variable, handler types and timeout units; and what cannot be translated, left out
with the ``port.hook.*`` code of its rule."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from satchel.port import port
from tests.support import write_tree


def _group(matcher: str | None, command: str, **handler: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"hooks": [{"type": "command", "command": command, **handler}]}
    return entry if matcher is None else {"matcher": matcher, **entry}


def claude_source(root: Path, hooks: dict[str, list[dict[str, Any]]]) -> Path:
    manifest = {"name": "guard", "version": "1.0.0"}
    return write_tree(root, {".claude-plugin/plugin.json": json.dumps(manifest),
                             "hooks/hooks.json": json.dumps({"hooks": hooks})})  # fmt: skip


def gemini_source(root: Path, hooks: dict[str, list[dict[str, Any]]], *servers: str) -> Path:
    manifest: dict[str, Any] = {"name": "guard", "version": "1.0.0"}
    if servers:
        manifest["mcpServers"] = {name: {"command": "./server"} for name in servers}
    return write_tree(root, {"gemini-extension.json": json.dumps(manifest),
                             "hooks/hooks.json": json.dumps({"hooks": hooks})})  # fmt: skip


def written(root: Path, rel: str) -> Any:
    return json.loads((root / rel).read_text(encoding="utf-8"))


def drop_notes(report: Any) -> list[tuple[str, str]]:
    return [(d.diagnostic.code, d.diagnostic.message) for d in report.drops]


def test_a_gemini_extensions_hooks_reach_claude_code_in_its_names_and_units(tmp_path):
    root = gemini_source(tmp_path / "guard", {
        "BeforeTool": [_group("run_shell_command", "${extensionPath}/guard.sh", timeout=5000)],
        "AfterTool": [_group("write_file|replace", "${extensionPath}/log.sh")],
        "SessionStart": [_group(None, "echo hi")],
    })  # fmt: skip
    (claude,) = port(root, ["claude-code"]).targets
    manifest = written(root, ".claude-plugin/plugin.json")
    assert manifest["hooks"] == {
        "PreToolUse": [_group("Bash", "${CLAUDE_PLUGIN_ROOT}/guard.sh", timeout=5)],
        "PostToolUse": [_group("Write|Edit|MultiEdit", "${CLAUDE_PLUGIN_ROOT}/log.sh", timeout=60)],
    }
    # Gemini CLI's default timeout (60 s) is written out: Claude Code's is 600 s. And
    # SessionStart has one name in both: Claude Code runs it from hooks/hooks.json
    assert drop_notes(claude) == []


def test_a_gemini_extensions_hooks_reach_codex_in_its_tool_names(tmp_path):
    root = gemini_source(tmp_path / "guard", {
        "BeforeTool": [_group("run_shell_command", "${extensionPath}/guard.sh", timeout=5000),
                       _group("read_file", "./read.sh")],
        "AfterTool": [_group("mcp_github_create_issue", "./mcp.sh")],
    }, "github")  # fmt: skip
    (codex,) = port(root, ["codex"]).targets
    hooks = written(root, ".codex-plugin/plugin.json")["hooks"]["hooks"]
    assert hooks == {
        "PreToolUse": [_group("Bash", "${PLUGIN_ROOT}/guard.sh", timeout=5)],
        "PostToolUse": [_group("mcp__github__create_issue", "./mcp.sh", timeout=60)],
    }
    assert drop_notes(codex) == [(
        "port.hook.matcher",
        "codex: BeforeTool hook: its matcher 'read_file' names read_file, a tool Codex "
        "fires no hook for; the hook is not written",
    )]  # fmt: skip


def test_claude_code_matchers_become_each_targets_tools(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "PreToolUse": [_group("Bash", "./g.sh"), _group("mcp__github__.*", "./m.sh")],
        "PostToolUse": [_group("Read|Bash", "./r.sh")],
    })  # fmt: skip
    report = port(root, ["codex", "cursor", "gemini"])
    codex = written(root, ".codex-plugin/plugin.json")["hooks"]["hooks"]
    assert [g["matcher"] for g in codex["PreToolUse"]] == ["Bash", "mcp__github__.*"]
    assert [g["matcher"] for g in codex["PostToolUse"]] == ["Bash"]
    cursor = written(root, ".cursor-plugin/plugin.json")["hooks"]["hooks"]
    assert [h["matcher"] for h in cursor["preToolUse"]] == ["Shell"]
    gemini = written(root, "hooks/hooks.json")["hooks"]
    assert [g["matcher"] for g in gemini["BeforeTool"]] == ["run_shell_command", "mcp_github_.*"]
    assert [g["matcher"] for g in gemini["AfterTool"]] == ["read_file|run_shell_command"]
    said = {t.target: [c for c, _ in drop_notes(t)] for t in report.targets}
    # Codex's hooks see no Read; Cursor's matchers name no MCP server (the regex is
    # left out whole)
    assert said == {
        "codex": ["port.hook.tool"],
        "cursor": ["port.hook.matcher"],
        "gemini": [],
    }


@pytest.mark.parametrize(("target", "code"), [("codex", "port.hook.variable"),
                                              ("gemini", None)])  # fmt: skip
def test_the_project_variable_is_the_targets_or_the_hook_is_left_out(tmp_path, target, code):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("Bash", '"$CLAUDE_PROJECT_DIR"/g.sh')]}
    )
    (report,) = port(root, [target]).targets
    assert [c for c, _ in drop_notes(report)] == ([] if code is None else [code])


def test_a_handler_type_the_target_lacks_is_left_out(tmp_path):
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "http", "url": "http://127.0.0.1:9/h"},
        {"type": "command", "command": "./g.sh"},
    ]}]}  # fmt: skip
    root = claude_source(tmp_path / "guard", hooks)
    (codex,) = port(root, ["codex"]).targets
    assert [c for c, _ in drop_notes(codex)] == ["port.hook.handler"]
    assert written(root, ".codex-plugin/plugin.json")["hooks"]["hooks"] == {
        "PreToolUse": [_group("Bash", "./g.sh")]
    }


def test_a_script_answering_in_claude_codes_json_is_said_where_the_target_ignores_it(tmp_path):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("Bash", 'sh "${CLAUDE_PLUGIN_ROOT}/g.sh"')]}
    )
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
    (root / "g.sh").write_text(f"echo '{json.dumps(answer)}'\n", encoding="utf-8")
    report = port(root, ["codex", "gemini"])
    said = {t.target: drop_notes(t) for t in report.targets}
    assert said == {"codex": [], "gemini": [(
        "port.hook.answer",
        "gemini: PreToolUse hook: g.sh answers with hookSpecificOutput.permissionDecision, "
        'which Gemini CLI does not read (it runs the call); exit 2 or {"decision": "block"} '
        "refuses there",
    )]}  # fmt: skip
    # the hook is written all the same: its other answers refuse there
    assert "BeforeTool" in written(root, "hooks/hooks.json")["hooks"]


def test_the_plugin_root_without_braces_is_the_targets_too(tmp_path):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("Bash", 'sh "$CLAUDE_PLUGIN_ROOT/g.sh"')]}
    )
    port(root, ["gemini"])
    (group,) = written(root, "hooks/hooks.json")["hooks"]["BeforeTool"]
    assert group["hooks"][0]["command"] == 'sh "${extensionPath}/g.sh"'


def test_a_hook_the_target_runs_from_the_shared_file_says_what_breaks_there(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "SessionStart": [_group(None, "${CLAUDE_PLUGIN_ROOT}/scripts/s.sh", timeout=5)],
        "SessionEnd": [_group(None, '"$CLAUDE_PROJECT_DIR"/end.sh')],
    })  # fmt: skip
    (gemini,) = port(root, ["gemini"]).targets
    # Gemini CLI sets CLAUDE_PROJECT_DIR for a hook, never CLAUDE_PLUGIN_ROOT, and
    # counts a timeout in milliseconds
    assert drop_notes(gemini) == [
        ("port.hook.variable",
         "gemini: SessionStart hook: Gemini CLI runs it from hooks/hooks.json as written, "
         "where ${CLAUDE_PLUGIN_ROOT} is not set; port does not rewrite the source's file"),
        ("port.hook.field",
         "gemini: SessionStart hook: Gemini CLI runs it from hooks/hooks.json as written and "
         "counts a timeout in milliseconds, so it does not wait the 5 s the source's host "
         "does; port does not rewrite the source's file"),
    ]  # fmt: skip


def test_a_gemini_hook_claude_code_runs_from_hooks_json_says_what_breaks_there(tmp_path):
    root = gemini_source(tmp_path / "guard", {
        "SessionStart": [_group(None, "${extensionPath}/s.sh", timeout=5000)],
    })  # fmt: skip
    (claude,) = port(root, ["claude-code"]).targets
    assert drop_notes(claude) == [
        ("port.hook.variable",
         "claude-code: SessionStart hook: Claude Code runs it from hooks/hooks.json as "
         "written, where ${extensionPath} is not set; port does not rewrite the source's file"),
        ("port.hook.field",
         "claude-code: SessionStart hook: Claude Code runs it from hooks/hooks.json as written "
         "and counts a timeout in seconds, so it does not wait the 5 s the source's host "
         "does; port does not rewrite the source's file"),
    ]  # fmt: skip


def test_a_gemini_mcp_name_is_split_at_the_plugins_own_server(tmp_path):
    root = gemini_source(tmp_path / "guard", {
        "BeforeTool": [_group("mcp_my_server_do_it", "./a.sh"),
                       _group("mcp_my_server_.*", "./b.sh")],
    }, "my_server")  # fmt: skip
    (claude,) = port(root, ["claude-code"]).targets
    hooks = written(root, ".claude-plugin/plugin.json")["hooks"]["PreToolUse"]
    # Gemini CLI's name is the extension's server's tool and any other server's of that
    # name; Claude Code names the plugin's own apart (mcp__plugin_<plugin>_<server>__)
    assert [g["matcher"] for g in hooks] == [
        "mcp__plugin_guard_my_server__do_it|mcp__my_server__do_it",
        "(?:mcp__plugin_guard_my_server__|mcp__my_server__).*",
    ]
    assert drop_notes(claude) == []


def test_a_gemini_mcp_name_that_splits_more_than_one_way_is_left_out(tmp_path):
    root = gemini_source(tmp_path / "guard", {
        "BeforeTool": [_group("mcp_my_server_do_it", "./a.sh"),
                       _group("mcp_my_server_.*", "./b.sh")],
    })  # fmt: skip
    (claude,) = port(root, ["claude-code"]).targets
    assert "hooks" not in written(root, ".claude-plugin/plugin.json")
    assert drop_notes(claude) == [
        ("port.hook.matcher",
         "claude-code: BeforeTool hook: its matcher 'mcp_my_server_do_it' is not translated "
         "for Claude Code: mcp_my_server_do_it reads as more than one MCP server's (server "
         "'my' tool 'server_do_it', server 'my_server' tool 'do_it', server 'my_server_do' "
         "tool 'it'), and the plugin's own servers do not tell which; the hook is not written"),
        ("port.hook.matcher",
         "claude-code: BeforeTool hook: its matcher 'mcp_my_server_.*' is not translated for "
         "Claude Code: mcp_my_server_ reads as more than one MCP server's (server 'my' tool "
         "'server_', server 'my_server'), and the plugin's own servers do not tell which; "
         "the hook is not written"),
    ]  # fmt: skip


def test_a_regex_of_every_mcp_tool_is_the_targets_prefix(tmp_path):
    root = claude_source(tmp_path / "guard", {"PreToolUse": [_group("mcp__.*", "./m.sh")]})
    (gemini,) = port(root, ["gemini"]).targets
    (group,) = written(root, "hooks/hooks.json")["hooks"]["BeforeTool"]
    assert group["matcher"] == "mcp_.*"
    assert drop_notes(gemini) == []
    back = gemini_source(tmp_path / "back", {"BeforeTool": [_group("mcp_.*", "./m.sh")]})
    (claude,) = port(back, ["claude-code"]).targets
    (group,) = written(back, ".claude-plugin/plugin.json")["hooks"]["PreToolUse"]
    assert group["matcher"] == "mcp__.*"
    assert drop_notes(claude) == []


def test_a_regex_prefix_naming_no_server_is_left_out(tmp_path):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("mcp__(github|gitlab)__.*", "./m.sh")]}
    )
    (gemini,) = port(root, ["gemini"]).targets
    assert "BeforeTool" not in written(root, "hooks/hooks.json")["hooks"]
    assert drop_notes(gemini) == [(
        "port.hook.matcher",
        "gemini: PreToolUse hook: its matcher 'mcp__(github|gitlab)__.*' is not translated "
        "for Gemini CLI: port cannot read which MCP server 'mcp__' names; the hook is not "
        "written",
    )]  # fmt: skip


def test_a_tool_name_at_a_regex_word_boundary_is_translated(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "PreToolUse": [_group(r"\bRead\b", "./r.sh"), _group(r"^(Bash|\bEdit)$", "./e.sh")],
    })  # fmt: skip
    (gemini,) = port(root, ["gemini"]).targets
    groups = written(root, "hooks/hooks.json")["hooks"]["BeforeTool"]
    assert [g["matcher"] for g in groups] == [r"\bread_file\b", r"^(run_shell_command|\breplace)$"]
    assert drop_notes(gemini) == []


def test_a_tool_name_after_another_regex_escape_is_left_out(tmp_path):
    root = claude_source(tmp_path / "guard", {"PreToolUse": [_group(r"\wRead", "./r.sh")]})
    (gemini,) = port(root, ["gemini"]).targets
    assert "BeforeTool" not in written(root, "hooks/hooks.json")["hooks"]
    assert drop_notes(gemini) == [(
        "port.hook.matcher",
        "gemini: PreToolUse hook: its matcher '\\\\wRead' is not translated for Gemini CLI: "
        "Read follows the escape \\w, so it may not be a tool's name; the hook is not written",
    )]  # fmt: skip


def test_a_timeout_the_target_cannot_write_leaves_the_hook_out(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "PreToolUse": [_group("Bash", "./g.sh", timeout=1e308)],
        "PostToolUse": [_group("Bash", "./p.sh", timeout=1e13)],
    })  # fmt: skip
    report = port(root, ["codex", "cursor", "gemini", "vibe"])
    said = {t.target: drop_notes(t) for t in report.targets}
    seconds = (
        "port.hook.field",
        "{}: PreToolUse hook: its timeout of 1e+308 s cannot be written in {}'s seconds "
        "(at most 9007199254740991); the hook is not written",
    )
    assert said == {
        "codex": [(seconds[0], seconds[1].format("codex", "Codex"))],
        "cursor": [(seconds[0], seconds[1].format("cursor", "Cursor"))],
        "gemini": [
            ("port.hook.field",
             "gemini: PreToolUse hook: its timeout of 1e+308 s cannot be written in Gemini "
             "CLI's milliseconds (at most 9007199254740991); the hook is not written"),
            ("port.hook.field",
             "gemini: PostToolUse hook: its timeout of 1e+13 s cannot be written in Gemini "
             "CLI's milliseconds (at most 9007199254740991); the hook is not written"),
        ],
        "vibe": [(seconds[0], seconds[1].format("vibe", "Mistral Vibe"))],
    }  # fmt: skip
    # the hooks written hold numbers every reader takes
    assert written(root, "hooks/hooks.json")["hooks"].keys() == {"PreToolUse", "PostToolUse"}
    codex = written(root, ".codex-plugin/plugin.json")["hooks"]["hooks"]
    assert codex == {"PostToolUse": [_group("Bash", "./p.sh", timeout=10**13)]}
    toml = (root / "ai.mistral.vibe/hooks.toml").read_text(encoding="utf-8")
    assert tomllib.loads(toml)["hooks"][0]["timeout"] == 10**13


def test_claude_codes_name_for_the_plugins_own_server_is_each_targets(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "PreToolUse": [_group("mcp__plugin_guard_desk__lookup|Bash", "./a.sh"),
                       _group("mcp__plugin_guard_desk__.*", "./b.sh")],
    })  # fmt: skip
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"desk": {"command": "./d"}}}))
    report = port(root, ["codex", "gemini"])
    codex = written(root, ".codex-plugin/plugin.json")["hooks"]["hooks"]["PreToolUse"]
    assert [g["matcher"] for g in codex] == ["mcp__desk__lookup|Bash", "mcp__desk__.*"]
    gemini = written(root, "hooks/hooks.json")["hooks"]["BeforeTool"]
    assert [g["matcher"] for g in gemini] == ["mcp_desk_lookup|run_shell_command", "mcp_desk_.*"]
    assert {t.target: drop_notes(t) for t in report.targets} == {"codex": [], "gemini": []}


def test_a_codex_name_for_the_plugins_own_server_is_both_of_claude_codes(tmp_path):
    hooks = {"hooks": {"PreToolUse": [_group("mcp__desk__lookup", "./a.sh")]}}
    manifest = {"name": "guard", "version": "1.0.0", "hooks": hooks,
                "mcpServers": {"desk": {"command": "./d"}}}  # fmt: skip
    root = write_tree(tmp_path / "guard", {".codex-plugin/plugin.json": json.dumps(manifest)})
    (claude,) = port(root, ["claude-code"]).targets
    (group,) = written(root, ".claude-plugin/plugin.json")["hooks"]["PreToolUse"]
    assert group["matcher"] == "mcp__plugin_guard_desk__lookup|mcp__desk__lookup"
    assert drop_notes(claude) == []


def test_a_regex_of_every_tool_of_the_plugins_own_servers_is_left_out_where_not_named_apart(
    tmp_path,
):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("mcp__plugin_guard_.*", "./m.sh")]}
    )
    (gemini,) = port(root, ["gemini"]).targets
    assert "BeforeTool" not in written(root, "hooks/hooks.json")["hooks"]
    assert drop_notes(gemini) == [(
        "port.hook.matcher",
        "gemini: PreToolUse hook: its matcher 'mcp__plugin_guard_.*' is not translated for "
        "Gemini CLI: 'mcp__plugin_guard_' names every tool of the plugin's own MCP servers, "
        "which the target does not name apart from other servers' tools; the hook is not "
        "written",
    )]  # fmt: skip


def test_a_server_started_in_the_plugins_folder_starts_there_in_codex_and_claude_code(tmp_path):
    server = {
        "command": "python3",
        "args": ["${CLAUDE_PLUGIN_ROOT}/desk.py", "--db=${CLAUDE_PLUGIN_ROOT}/db"],
    }
    root = claude_source(tmp_path / "guard", {})
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"desk": server}}))
    (codex,) = port(root, ["codex"]).targets
    # Codex starts it in the session's folder and sets no root: relative, cwd the plugin's
    assert written(root, ".codex-plugin/plugin.json")["mcpServers"] == {
        "desk": {"command": "python3", "args": ["./desk.py", "--db=./db"], "cwd": "./"}
    }
    assert drop_notes(codex) == []
    back = {"name": "guard", "version": "1.0.0", "mcpServers": {
        "desk": {"command": "python3", "args": ["./desk.py"], "cwd": "."},
        "other": {"command": "python3", "args": ["./o.py"], "cwd": "./sub"},
    }}  # fmt: skip
    codex_root = write_tree(tmp_path / "back", {".codex-plugin/plugin.json": json.dumps(back)})
    (claude,) = port(codex_root, ["claude-code"]).targets
    # Claude Code ignores cwd: the plugin's folder is in the arguments, another cwd is said
    assert written(codex_root, ".claude-plugin/plugin.json")["mcpServers"] == {
        "desk": {"command": "python3", "args": ["${CLAUDE_PLUGIN_ROOT}/desk.py"]},
        "other": {"command": "python3", "args": ["./o.py"]},
    }
    assert drop_notes(claude) == [(
        "port.mcp.field",
        "claude-code: MCP server 'other': Claude Code has no room for cwd './sub', left out",
    )]  # fmt: skip


def kimi_source(root: Path, hooks: list[dict[str, Any]], *servers: str) -> Path:
    manifest: dict[str, Any] = {"name": "guard", "version": "1.0.0", "hooks": hooks}
    if servers:
        manifest["mcpServers"] = {name: {"command": "./server"} for name in servers}
    return write_tree(root, {"kimi.plugin.json": json.dumps(manifest)})


def vibe_source(root: Path, hooks: str, *servers: str) -> Path:
    manifest = {"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
                "name": "guard", "version": "1.0.0",
                "extensions": {"ai.mistral.vibe": {"schemaVersion": 1}}}  # fmt: skip
    files = {"plugin.json": json.dumps(manifest), "ai.mistral.vibe/hooks.toml": hooks}
    if servers:
        entries = {name: {"type": "stdio", "command": "./server"} for name in servers}
        schema = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
        files["mcp.json"] = json.dumps({"$schema": schema, "mcpServers": entries})
    return write_tree(root, files)


def _toml_hook(name: str, match: str, command: str = "./g.sh") -> str:
    return (
        f'[[hooks]]\nname = "{name}"\ntype = "pre_tool"\nmatch = "{match}"\ncommand = "{command}"\n'
    )


def test_claude_code_matchers_become_kimi_codes_tools(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "PreToolUse": [_group("Bash|WebFetch", "./g.sh"),
                       _group("mcp__plugin_guard_desk__lookup", "./m.sh"),
                       _group("mcp__github__.*", "./h.sh"),
                       _group("NotebookEdit", "./n.sh")],
    })  # fmt: skip
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"desk": {"command": "./d"}}}))
    (kimi,) = port(root, ["kimi"]).targets
    hooks = written(root, "kimi.plugin.json")["hooks"]
    # Kimi Code names a plugin's server plugin-<plugin>:<server>, _ for the colon
    assert [h["matcher"] for h in hooks] == [
        "Bash|FetchURL", "mcp__plugin-guard_desk__lookup", "mcp__github__.*",
    ]  # fmt: skip
    assert drop_notes(kimi) == [(
        "port.hook.matcher",
        "kimi: PreToolUse hook: its matcher 'NotebookEdit' names NotebookEdit, a tool Kimi "
        "Code fires no hook for; the hook is not written",
    )]  # fmt: skip


def test_a_kimi_plugins_hooks_reach_gemini_cli_and_claude_code_in_their_names(tmp_path):
    hooks = [
        {"event": "PreToolUse", "matcher": "Bash|FetchURL", "command": "./g.sh"},
        {"event": "PostToolUse", "matcher": "mcp__plugin-guard_desk__lookup", "command": "./m.sh"},
    ]
    root = kimi_source(tmp_path / "guard", hooks, "desk")
    report = port(root, ["claude-code", "gemini"])
    claude = written(root, ".claude-plugin/plugin.json")["hooks"]
    assert claude["PreToolUse"][0]["matcher"] == "Bash|WebFetch"
    assert claude["PostToolUse"][0]["matcher"] == "mcp__plugin_guard_desk__lookup"
    gemini = written(root, "hooks/hooks.json")["hooks"]
    assert gemini["BeforeTool"][0]["matcher"] == "run_shell_command|web_fetch"
    assert gemini["AfterTool"][0]["matcher"] == "mcp_desk_lookup"
    assert {t.target: drop_notes(t) for t in report.targets} == {"claude-code": [], "gemini": []}


def test_a_refusal_kimi_code_does_not_read_is_said(tmp_path):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("Bash", 'sh "${CLAUDE_PLUGIN_ROOT}/g.sh"')]}
    )
    (root / "g.sh").write_text('echo \'{"decision": "block", "reason": "no"}\'\n')
    (kimi,) = port(root, ["kimi"]).targets
    assert drop_notes(kimi) == [(
        "port.hook.answer",
        'kimi: PreToolUse hook: g.sh answers with {"decision": "block"}, which Kimi Code '
        "does not read (it runs the call); exit 2 or hookSpecificOutput.permissionDecision "
        "refuses there",
    )]  # fmt: skip


def test_claude_code_matchers_become_mistral_vibes_tools_and_syntax(tmp_path):
    root = claude_source(tmp_path / "guard", {
        "PreToolUse": [_group("Bash", "./a.sh"), _group("Edit|Write", "./b.sh"),
                       _group("^Bash$", "./c.sh"),
                       _group("mcp__plugin_guard_desk__lookup", "./d.sh"),
                       _group("Glob", "./e.sh"), _group("mcp__.*", "./f.sh")],
    })  # fmt: skip
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"desk": {"command": "./d"}}}))
    (vibe,) = port(root, ["vibe"]).targets
    toml = (root / "ai.mistral.vibe/hooks.toml").read_text(encoding="utf-8")
    # Vibe's match: a glob, or re: and a regex matched whole; an MCP tool <server>_<tool>
    assert [h["match"] for h in tomllib.loads(toml)["hooks"]] == [
        "bash", "re:edit|write_file", "re:.*(?:^bash$).*", "desk_lookup",
    ]  # fmt: skip
    assert drop_notes(vibe) == [
        ("port.hook.matcher",
         "vibe: PreToolUse hook: its matcher 'Glob' names Glob, a tool Mistral Vibe fires no "
         "hook for; the hook is not written"),
        ("port.hook.matcher",
         "vibe: PreToolUse hook: its matcher 'mcp__.*' is not translated for Mistral Vibe: "
         "'mcp__' names every MCP tool, which the target names with no prefix; the hook is "
         "not written"),
    ]  # fmt: skip


def test_a_refusal_mistral_vibe_does_not_read_is_said(tmp_path):
    root = claude_source(
        tmp_path / "guard", {"PreToolUse": [_group("Bash", 'sh "${CLAUDE_PLUGIN_ROOT}/g.sh"')]}
    )
    (root / "g.sh").write_text('echo "no" >&2\nexit 2\n')
    (vibe,) = port(root, ["vibe"]).targets
    assert drop_notes(vibe) == [(
        "port.hook.answer",
        'vibe: PreToolUse hook: g.sh answers with exit 2, which Mistral Vibe does not read '
        '(it runs the call); {"decision": "deny"} refuses there',
    )]  # fmt: skip


def test_a_mistral_vibe_plugins_matchers_become_claude_codes(tmp_path):
    hooks = "\n".join([
        _toml_hook("a", "bash"), _toml_hook("b", "re:write_file|read"),
        _toml_hook("c", "desk_lookup"), _toml_hook("d", "web_*"), _toml_hook("e", "[ab]*"),
    ])  # fmt: skip
    root = vibe_source(tmp_path / "guard", hooks, "desk")
    (claude,) = port(root, ["claude-code"]).targets
    groups = written(root, ".claude-plugin/plugin.json")["hooks"]["PreToolUse"]
    assert [g["matcher"] for g in groups] == [
        "Bash",
        "^(Write|Read)$",
        "mcp__plugin_guard_desk__lookup|mcp__desk__lookup",
        "^web_.*$",
    ]
    assert drop_notes(claude) == [(
        "port.hook.matcher",
        "claude-code: pre_tool hook: its matcher '[ab]*' is not translated for Claude Code: "
        "the glob '[ab]*' has a [...] class, which port does not translate; the hook is not "
        "written",
    )]  # fmt: skip
