"""``satchel doctor --hosts``' hook checks on a machine the real hosts installed and ran
(tests/checkup/machine_hooks.py): a hook registered in two files runs as often as
each host really ran it, a hook Codex never trusted or turned off did not run, and a
setting that turns every hook off is named, each finding by code and exact message."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from satchel.reports.checkup import MachineReport, check_hosts
from satchel.reports.checkup._hooks import hook_findings
from satchel.reports.checkup._loaded import load_findings
from satchel.reports.checkup._machine import read_machine
from tests.checkup.machine_hooks import command, findings_of, paths, ran, report
from tests.hostloop.hookprobe import logged

UNTRUSTED_OR_OFF = ("hosts.hook.untrusted", "hosts.hook.disabled")
TRUST = (
    'start codex and choose "Trust all and continue" when it says "Hooks need review", '
    "or trust it in /hooks; codex exec never asks"
)


@pytest.fixture(scope="module")
def machine(
    claude_code: Path, codex: Path, gemini: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, MachineReport]:
    base, turns = ran(tmp_path_factory)
    said = turns["codex"].stderr  # Codex warns, and runs both
    home = paths(base)["home"] / ".codex"
    both = f"loading hooks from both {home / 'hooks.json'} and {home / 'config.toml'}"
    assert both in said
    return base, report(base)


def test_codex_runs_a_hook_of_its_hook_file_and_its_config_twice(machine: Any):
    base, found = machine
    assert [p["hook_event_name"] for p in logged(paths(base)["codex"])] == ["UserPromptSubmit"] * 2
    [twice] = findings_of(found.findings, "codex", "hosts.hook.twice")
    assert (twice.code, twice.severity, twice.path) == (
        "hosts.hook.twice",
        "warning",
        paths(base)["home"] / ".codex/hooks.json",
    )
    assert twice.message == (
        f"Codex runs the UserPromptSubmit hook {command(base, 'codex')!r} 2 times: "
        "~/.codex/hooks.json and ~/.codex/config.toml each register it"
    )
    assert twice.fix == "keep it in one file: remove it from ~/.codex/config.toml"


def test_claude_code_runs_the_settings_copies_once_and_the_plugins_once_more(machine: Any):
    base, found = machine
    # one run of the settings files' copy, one of the plugin's (it gets the plugin's
    # root: the folder in its directory marketplace, not the installPath copy)
    roots = [p["_env"].get("CLAUDE_PLUGIN_ROOT") for p in logged(paths(base)["claude-code"])]
    assert sorted(root is None for root in roots) == [False, True]
    echo = paths(base)["market"] / "plugins/echo"
    assert [Path(r) for r in roots if r] == [echo]
    plugin = f"plugin 'echo' ({echo}/hooks/hooks.json)"
    [twice] = findings_of(found.findings, "claude-code", "hosts.hook.twice")
    assert (twice.code, twice.severity) == ("hosts.hook.twice", "warning")
    assert twice.message == (
        f"Claude Code runs the UserPromptSubmit hook {command(base, 'claude-code')!r} 2 times: "
        f".claude/settings.json, ~/.claude/settings.json and {plugin} each register it "
        "(.claude/settings.json and ~/.claude/settings.json count once: it runs one copy of "
        "those)"
    )
    assert twice.fix == f"keep it in one file: remove it from ~/.claude/settings.json and {plugin}"


def test_gemini_cli_runs_a_hook_two_extensions_register_once(machine: Any):
    base, found = machine
    assert [p["hook_event_name"] for p in logged(paths(base)["gemini"])] == ["BeforeAgent"]
    alpha = "plugin 'alpha' (~/.gemini/extensions/alpha/hooks/hooks.json)"
    beta = "plugin 'beta' (~/.gemini/extensions/beta/hooks/hooks.json)"
    [once] = [
        f
        for f in findings_of(found.findings, "gemini", "hosts.hook.duplicate")
        if command(base, "gemini") in f.message
    ]
    assert (once.code, once.severity) == ("hosts.hook.duplicate", "info")
    assert once.message == (
        f"Gemini CLI runs the BeforeAgent hook {command(base, 'gemini')!r} once, though "
        f"{alpha} and {beta} each register it: it runs the one of {alpha}"
    )
    assert once.fix == f"keep it in one file: remove it from {beta}"


def test_gemini_cli_runs_a_command_of_two_names_twice_and_leaves_matchers_out(machine: Any):
    base, found = machine
    where = paths(base)
    # getHookKey is name:command: n-delta and n-epsilon both run; the matchers x and y
    # do not make two hooks of one command
    assert [p["hook_event_name"] for p in logged(where["gemini-named"])] == ["BeforeAgent"] * 2
    assert [p["hook_event_name"] for p in logged(where["gemini-matched"])] == ["BeforeAgent"]
    delta = "plugin 'delta' (~/.gemini/extensions/delta/hooks/hooks.json)"
    epsilon = "plugin 'epsilon' (~/.gemini/extensions/epsilon/hooks/hooks.json)"
    [twice] = findings_of(found.findings, "gemini", "hosts.hook.twice")
    assert (twice.severity, twice.path) == (
        "warning",
        where["home"] / ".gemini/extensions/delta/hooks/hooks.json",
    )
    assert twice.message == (
        f"Gemini CLI runs the BeforeAgent hook {command(base, 'gemini-named')!r} 2 times: "
        f"{delta} and {epsilon} each register it"
    )
    assert twice.fix == f"keep it in one file: remove it from {epsilon}"
    matched = [
        f
        for f in findings_of(found.findings, "gemini", "hosts.hook.duplicate")
        if command(base, "gemini-matched") in f.message
    ]
    assert [(f.severity, f.message, f.fix) for f in matched] == [
        (
            "info",
            f"Gemini CLI runs the BeforeAgent hook {command(base, 'gemini-matched')!r} once, "
            f"though {delta} and {epsilon} each register it: it runs the one of {delta}",
            f"keep it in one file: remove it from {epsilon}",
        )
    ]


def test_codex_skips_the_hook_it_never_trusted_and_the_finding_says_how_to_trust_it(
    machine: Any,
):
    base, found = machine
    assert logged(paths(base)["stop"]) == []  # Stop fired: its hook did not run
    hooks = paths(base)["home"] / ".codex/hooks.json"
    [untrusted] = findings_of(found.findings, "codex", "hosts.hook.untrusted")
    assert (untrusted.severity, untrusted.path, untrusted.fix) == ("warning", hooks, TRUST)
    assert untrusted.message == (
        f"Codex skips the Stop hook {command(base, 'stop')!r} of ~/.codex/hooks.json without "
        f"a word: Codex has never trusted it (no trusted_hash for '{hooks}:stop:0:0' in "
        "~/.codex/config.toml)"
    )


def test_the_report_quotes_codexs_hook_keys_as_codex_writes_them(machine: Any):
    base, found = machine
    from satchel.cli._doctor_hosts import _as_diagnostics
    from satchel.reports.checkup._sarif import to_sarif

    hooks = paths(base)["home"] / ".codex/hooks.json"
    stop, start = f"'{hooks}:stop:0:0'", f"'{hooks}:session_start:0:0'"
    [codex] = [h for h in found.to_json()["hosts"] if h["host"] == "codex"]
    told = {f["code"]: (f["message"], f["fix"]) for f in codex["findings"]}
    assert (
        f"(no trusted_hash for {stop} in ~/.codex/config.toml)" in told["hosts.hook.untrusted"][0]
    )
    assert f"(enabled = false for {start})" in told["hosts.hook.disabled"][0]
    assert told["hosts.hook.disabled"][1] == (
        f"remove enabled = false for {start} from ~/.codex/config.toml if it should run"
    )
    sarif = to_sarif(found, version="0", base=paths(base)["project"])
    texts = [r["message"]["text"] for r in sarif["runs"][0]["results"]]
    assert sum(stop in t for t in texts) == 1 and sum(start in t for t in texts) == 1
    [host] = [h for h in found.hosts if h.name == "codex"]
    lines = [(d.message, d.hint) for d in _as_diagnostics(found, host)]
    assert sum(stop in m for m, _ in lines) == 1
    assert sum(start in m and start in (h or "") for m, h in lines) == 1


def test_the_load_diagnostic_of_an_untrusted_hook_is_told_once(machine: Any):
    base, found = machine
    where = paths(base)
    loaded = read_machine(where["project"], home=where["home"], names=["codex"], env={})
    assert [d.code for d in loaded.views[0].env.diagnostics].count("hook.host.untrusted") == 1
    assert [f for f in load_findings(loaded) if "untrusted" in f.code] == []
    assert [f.code for f in found.findings if "untrusted" in f.code] == ["hosts.hook.untrusted"]


def test_the_words_of_a_hooks_state_are_the_hosts_own_data(machine: Any):
    base, _ = machine
    where = paths(base)
    loaded = read_machine(where["project"], home=where["home"], names=["codex"], env={})
    [view] = loaded.views
    state = replace(view.host.state, hook_trusted="approved_digest", hook_enabled="active")
    other = replace(loaded, views=(replace(view, host=replace(view.host, state=state)),))
    found = [f for f in hook_findings(other) if f.code in UNTRUSTED_OR_OFF]
    hooks = paths(base)["home"] / ".codex/hooks.json"
    assert sorted(f.message.split(": ", 1)[1] for f in found) == [
        f"Codex has never trusted it (no approved_digest for '{hooks}:stop:0:0' in "
        "~/.codex/config.toml)",
        f"its state in ~/.codex/config.toml disables it (active = false for "
        f"'{hooks}:session_start:0:0')",
    ]


def test_codex_does_not_run_the_hook_its_state_turns_off(machine: Any):
    base, found = machine
    assert logged(paths(base)["off"]) == []
    hooks = paths(base)["home"] / ".codex/hooks.json"
    key = f"{hooks}:session_start:0:0"
    [off] = findings_of(found.findings, "codex", "hosts.hook.disabled")
    assert (off.severity, off.path) == ("warning", hooks)
    assert off.message == (
        f"Codex does not run the SessionStart hook {command(base, 'off')!r} of "
        f"~/.codex/hooks.json: its state in ~/.codex/config.toml disables it (enabled = false "
        f"for {key!r})"
    )
    assert (
        off.fix == f"remove enabled = false for {key!r} from ~/.codex/config.toml if it should run"
    )


def test_gemini_cli_does_not_run_the_hook_its_settings_list_as_disabled(machine: Any):
    base, found = machine
    assert logged(paths(base)["gemini-off"]) == []  # AfterAgent fired: its hook did not run
    hooks = paths(base)["home"] / ".gemini/extensions/alpha/hooks/hooks.json"
    [off] = findings_of(found.findings, "gemini", "hosts.hook.disabled")
    name = command(base, "gemini-off")
    assert (off.severity, off.path) == ("warning", hooks)
    assert off.message == (
        f"Gemini CLI does not run the AfterAgent hook {name!r} of "
        "~/.gemini/extensions/alpha/hooks/hooks.json: hooksConfig.disabled in "
        "~/.gemini/settings.json names it"
    )
    assert off.fix == (
        f"take {name!r} out of hooksConfig.disabled in ~/.gemini/settings.json if it should run"
    )


def test_a_setting_that_turns_every_hook_off_is_named_and_the_hosts_run_none(machine: Any):
    base, _ = machine
    where = paths(base)
    for name in ("claude-code", "codex", "gemini"):
        assert logged(where[f"off-{name}"]) == [], name
    found = check_hosts(
        where["off-project"],
        home=where["off-home"],
        names=["claude-code", "codex", "gemini"],
        env={},
    )
    hooks = [
        (f.host, f.code, f.severity, f.message, f.fix)
        for f in found.findings
        if f.code.startswith("hosts.hook")
    ]
    assert hooks == [
        (
            "claude-code",
            "hosts.hook.disabled",
            "warning",
            "Claude Code runs none of its hooks: disableAllHooks is true in "
            "~/.claude/settings.json (1 hook its files register)",
            "remove disableAllHooks from ~/.claude/settings.json if Claude Code should run its "
            "hooks",
        ),
        (
            "codex",
            "hosts.hook.disabled",
            "warning",
            "Codex runs none of its hooks: features.hooks is false in ~/.codex/config.toml "
            "(2 hooks its files register)",
            "remove features.hooks from ~/.codex/config.toml if Codex should run its hooks",
        ),
        (
            "gemini",
            "hosts.hook.disabled",
            "warning",
            "Gemini CLI runs none of its hooks: hooksConfig.enabled is false in "
            "~/.gemini/settings.json (1 hook its files register)",
            "remove hooksConfig.enabled from ~/.gemini/settings.json if Gemini CLI should run "
            "its hooks",
        ),
    ]


def test_a_trusted_project_folder_below_the_root_turns_codexs_hooks_off(machine: Any):
    base, _ = machine
    where = paths(base)
    assert logged(where["nested-codex"]) == []  # the user's two trusted copies: none ran
    sub = where["nested-project"] / "sub"
    found = check_hosts(sub, home=where["nested-home"], names=["codex"], env={})
    hooks = [
        (f.code, f.severity, f.message, f.fix, f.path)
        for f in found.findings
        if f.code.startswith("hosts.hook")
    ]
    assert hooks == [
        (
            "hosts.hook.disabled",
            "warning",
            "Codex runs none of its hooks: features.hooks is false in sub/.codex/config.toml "
            "(2 hooks its files register)",
            "remove features.hooks from sub/.codex/config.toml if Codex should run its hooks",
            sub / ".codex/config.toml",
        )
    ]


def test_a_switch_is_named_though_codex_trusts_none_of_the_hooks_it_turns_off(tmp_path: Path):
    # trusting the hook changes nothing while [features] hooks = false: the finding is
    # the switch, not the trust (the off machine shows Codex runs no trusted hook then)
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    hook = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}}
    (project / ".codex").mkdir()
    (project / ".codex/hooks.json").write_text(json.dumps(hook))
    (home / ".codex").mkdir(parents=True)
    trust = f'[projects.{json.dumps(str(project))}]\ntrust_level = "trusted"\n'
    (home / ".codex/config.toml").write_text("[features]\nhooks = false\n" + trust)
    found = check_hosts(project, home=home, names=["codex"], env={})
    hooks = [(f.code, f.message, f.fix) for f in found.findings if f.code.startswith("hosts.hook")]
    assert hooks == [
        (
            "hosts.hook.disabled",
            "Codex runs none of its hooks: features.hooks is false in ~/.codex/config.toml "
            "(1 hook its files register)",
            "remove features.hooks from ~/.codex/config.toml if Codex should run its hooks",
        )
    ]


def test_a_working_folder_outside_the_project_is_read_as_the_project(tmp_path: Path):
    home, project, elsewhere = tmp_path / "home", tmp_path / "project", tmp_path / "elsewhere"
    (project / ".git").mkdir(parents=True)
    extension = home / ".gemini/extensions/x"
    (extension / "hooks").mkdir(parents=True)
    (extension / "gemini-extension.json").write_text('{"name": "x", "version": "1.0.0"}')
    hook = {"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}}
    (extension / "hooks/hooks.json").write_text(json.dumps(hook))
    off = json.dumps({"hooksConfig": {"enabled": False}})
    for folder in (project, elsewhere):  # only the project's is within the roots
        (folder / ".gemini").mkdir(parents=True)
        (folder / ".gemini/settings.json").write_text(off)
    (elsewhere / ".gemini/settings.json").write_text(json.dumps({"hooksConfig": {}}))
    found = check_hosts(elsewhere, home=home, project=project, names=["gemini"], env={})
    hooks = [(f.code, f.path) for f in found.findings if f.code.startswith("hosts.hook")]
    assert hooks == [("hosts.hook.disabled", project / ".gemini/settings.json")]


def test_settings_that_cannot_be_read_turn_nothing_off_and_raise_nothing(tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    hook = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}
    (home / ".claude").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude/settings.json").write_text(json.dumps(hook))
    (home / ".claude/settings.json").write_text('{"disableAllHooks": true')  # cut short
    (home / ".codex").mkdir()
    (home / ".codex/hooks.json").write_text(json.dumps(hook))
    (home / ".codex/config.toml").write_text("[features]\nhooks = [false")
    extension = home / ".gemini/extensions/x"
    (extension / "hooks").mkdir(parents=True)
    (extension / "gemini-extension.json").write_text('{"name": "x", "version": "1.0.0"}')
    (extension / "hooks/hooks.json").write_text(
        json.dumps({"hooks": {"AfterAgent": hook["hooks"]["Stop"]}})
    )
    (home / ".gemini/settings.json").write_bytes(b"\xff\xfe not json")
    found = check_hosts(project, home=home, names=["claude-code", "codex", "gemini"], env={})
    assert [len(h.loads.hooks) for h in found.hosts] == [1, 0, 1]  # each file was looked at
    assert [f for f in found.findings if f.code == "hosts.hook.disabled"] == []
    assert {f.code for f in found.findings} >= {"config.invalid"}
