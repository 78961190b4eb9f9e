"""Each host's hook rules are its definition's (`Host.hooks`, a `HookDialect`): a hook
format belongs to one host definition, every table names satchel's events, each
mechanism a definition names has its reader, and the hook code compares nothing with a
host's name."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import satchel
from satchel import hosts
from satchel.hooks._events import EVENTS, canonical, host_name
from satchel.hosts._codex import CODEX_HOOKS
from satchel.hosts._dialects import HOOK_HOSTS, hook_dialect, hook_dialects, server_variables
from satchel.hosts._hooks import HookDialect
from satchel.hosts._profiles import PROFILES
from satchel.hosts._vocabulary import HOOK_FORMATS, AnswerFields, AnswerRule
from satchel.runtime.hooks import HookRunner
from satchel.runtime.hooks._answers import READERS
from satchel.runtime.hooks._output import FIELD_READERS
from tests.support import put

from .test_host_rules import branches

SRC = Path(satchel.__file__).resolve().parent


def test_every_hook_format_is_one_host_definitions():
    owners = {f: [h for h in PROFILES.values() if h.hooks.format == f] for f in HOOK_FORMATS}
    assert {f: len(hosts) for f, hosts in owners.items()} == dict.fromkeys(HOOK_FORMATS, 1)
    for fmt, (host,) in owners.items():
        assert hook_dialect(fmt) is host.hooks


def test_every_host_with_hook_rules_is_found_without_the_profile_table():
    own = {h.name for h in PROFILES.values() if h.hooks != HookDialect()}
    assert own == {h.name for h in HOOK_HOSTS}


def test_every_table_names_satchels_events():
    for dialect in hook_dialects():
        names = dialect.names()
        assert set(names.values()) <= set(EVENTS)
        assert set(dialect.spelling()) <= set(EVENTS)
        assert set(dialect.tools) <= set(names)
        assert not set(dialect.kept) & set(names)


def test_each_mechanism_a_definition_names_has_its_reader():
    assert set(READERS) == set(get_args(AnswerRule)) - {"exit-code"}
    assert set(FIELD_READERS) == set(get_args(AnswerFields)) - {"hook-specific-output"}
    for dialect in hook_dialects():
        assert dialect.blocking is None or dialect.blocking <= set(EVENTS)


def test_a_format_no_definition_claims_is_read_as_satchels_own():
    assert hook_dialect("newhost") is hook_dialect("satchel") is hook_dialect(None)
    assert canonical("before_tool_use", "newhost") == "before_tool_use"
    assert host_name("before_tool_use", "newhost") == "PreToolUse"


def test_only_the_plugins_of_claude_codes_format_give_their_servers_its_variables():
    found = server_variables("claude")
    assert found is not None
    assert (found.plugin_root, found.plugin_data) == (
        ("CLAUDE_PLUGIN_ROOT",),
        ("CLAUDE_PLUGIN_DATA",),
    )
    assert [server_variables(f) for f in ("kimi", "codex", "gemini", "bundle")] == [None] * 4


def test_no_hook_module_compares_with_a_hosts_name():
    paths = [
        *sorted((SRC / "hooks").rglob("*.py")),
        SRC / "runtime" / "mcp" / "_launch.py",
        SRC / "compat" / "_events.py",
        SRC / "session" / "_shell_hook.py",
    ]
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in paths
        for line in branches(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_a_user_profile_speaks_the_hooks_of_its_base(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    put(home / ".config" / "satchel" / "config.toml", '[hosts.acme]\nbase = "codex"\n')
    acme, _ = hosts.resolve("acme", config_home=home / ".config")
    env = satchel.load(layout=acme.layout(project, home=home, env={}), host=acme, trusted=True)
    assert acme.hooks is CODEX_HOOKS
    assert HookRunner(env).dialect is CODEX_HOOKS
