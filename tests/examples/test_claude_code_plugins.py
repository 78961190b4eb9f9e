"""The plugin examples of code.claude.com/docs/en/plugins, laid out as the page says and
loaded as ``claude --plugin-dir`` loads them (`load(plugin_dirs=...)`), unchanged."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import satchel
from satchel.runtime.hooks import HookRunner
from tests.examples.support import claude_session, install
from tests.support import put


def first_plugin(root: Path, skill: str) -> Path:
    install(root, "plugins/plugin.json", "my-first-plugin/.claude-plugin/plugin.json")
    install(root, f"plugins/{skill}", "my-first-plugin/skills/hello/SKILL.md")
    return root / "my-first-plugin"


def test_the_first_plugins_skill_is_namespaced_and_yours_to_invoke(layout, tmp_path):
    """The page: "The folder name becomes the skill name, prefixed with the plugin's namespace
    (hello/ in a plugin named my-first-plugin creates /my-first-plugin:hello)"; the
    skill says disable-model-invocation: true, so only you invoke it."""
    plugin = first_plugin(tmp_path, "hello.md")
    env = satchel.load(layout=layout, host="claude-code", plugin_dirs=[plugin])
    assert list(env.skills) == ["my-first-plugin:hello"]
    session = claude_session(env)
    assert session.tools() == ()  # no skill the model may load
    text = session.expand("/my-first-plugin:hello")
    assert "Greet the user warmly and ask how you can help them today." in text


def test_the_first_plugins_skill_greets_by_name(layout, tmp_path):
    """The page: "Add skill arguments": "The $ARGUMENTS placeholder captures any text the user
    provides after the skill name"; "/my-first-plugin:hello Alex ... Claude will greet
    you by name"."""
    plugin = first_plugin(tmp_path, "hello-arguments.md")
    env = satchel.load(layout=layout, host="claude-code", plugin_dirs=[plugin])
    text = claude_session(env).expand("/my-first-plugin:hello Alex")
    assert '# Hello Skill\n\nGreet the user named "Alex" warmly and ask how' in text


@pytest.mark.skipif(shutil.which("jq") is None, reason="the page's hook uses jq")
def test_the_migrated_plugins_hook_lints_the_edited_file(layout, tmp_path):
    """The page: "Migrate hooks": the command "receives hook input as JSON on stdin, so use jq to
    extract the file path", which xargs hands to npm run lint:fix; the skill is
    my-plugin:code-review. A stub npm on PATH records what it was given and where.

    Claude Code runs a plugin's hooks in the project (`plugin_cwd="project"`);
    satchel's default, `root`, is Vibe's (docs/hooks.md, "Settings")."""
    install(tmp_path, "plugins/my-plugin.json", "my-plugin/.claude-plugin/plugin.json")
    install(tmp_path, "plugins/hooks.json", "my-plugin/hooks/hooks.json")
    install(tmp_path, "plugins/code-review.md", "my-plugin/skills/code-review/SKILL.md")
    log = tmp_path / "npm.log"
    put(tmp_path, "bin/npm", f"#!/bin/sh\necho \"$(pwd): $*\" >> '{log}'\n", mode=0o755)
    env = satchel.load(layout=layout, host="claude-code", plugin_dirs=[tmp_path / "my-plugin"])
    assert list(env.skills) == ["my-plugin:code-review"]
    environ = {"PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "HOME": str(layout.home)}
    run = HookRunner(env, environ=environ, plugin_cwd="project")
    run.run("PostToolUse", {"tool_name": "Edit", "tool_input": {"file_path": "src/app.ts"}})
    run.run("PostToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}})
    assert log.read_text() == f"{layout.cwd}: run lint:fix src/app.ts\n"
