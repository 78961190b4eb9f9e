"""`satchel doctor --hosts` on the machine the real hosts installed into (tests/checkup/
machine.py): which hosts it finds and by which files, one golden report per host in
text and JSON, SARIF a code-scanning dashboard accepts, and the exit codes of
``--fail-on`` and of bad arguments."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from satchel.cli import main
from satchel.core.diagnostics import CODES
from tests.support import check_golden, put

from .machine import HOSTS, Built, built, copy_of

SCHEMA = json.loads(
    (Path(__file__).parents[1] / "audit/sarif-2.1.0-rtm.5.schema.json").read_text("utf-8")
)
TERMINAL = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "TTY_COMPATIBLE",
            "TTY_INTERACTIVE", "JUPYTER_COLUMNS")  # fmt: skip
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return built(tmp_path_factory)


@pytest.fixture
def doctor(machine: Built, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """``satchel doctor --home HOME ARGS`` run in the project, into a pipe: its exit
    code, stdout and stderr."""
    for name in TERMINAL:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(machine.project)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["doctor", "--home", str(machine.home), *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def placeheld(machine: Built, text: str) -> str:
    """`text` with the machine's absolute folders (which a load diagnostic's message
    may name) as ``<project>``, ``<home>`` and ``<machine>``: the same on every run."""
    for folder, mark in ((machine.project, "<project>"), (machine.home, "<home>")):
        text = text.replace(str(folder), mark)
    return text.replace(str(machine.base), "<machine>")


def report(doctor, *args: str) -> dict[str, Any]:
    code, out, err = doctor("--hosts", *args, "--json")
    assert code in (0, 1), err
    found: dict[str, Any] = json.loads(out)
    return found


def test_the_hosts_wrote_their_installed_state(machine: Built):
    assert {
        "home/.claude/plugins/installed_plugins.json",
        "home/.claude/plugins/known_marketplaces.json",
        "home/.claude/settings.json",
        "home/.claude/plugins/cache/local-tools/notes/1.0.0/hooks/hooks.json",
        "home/.claude/plugins/cache/local-tools/tool/1.0.0/.claude-plugin/plugin.json",
        "project/.claude/settings.json",
        "project/.mcp.json",
    } <= set(machine.written("claude-code"))
    assert {
        "home/.codex/config.toml",
        "home/.codex/plugins/cache/local/guard/1.0.0/.codex-plugin/plugin.json",
        "home/.codex/plugins/cache/local/guard/1.0.0/hooks/hooks.json",
    } <= set(machine.written("codex"))
    assert {
        "home/.gemini/extensions/extension-enablement.json",
        "home/.gemini/extensions/helper/gemini-extension.json",
        "home/.gemini/extensions/paused/.gemini-extension-install.json",
    } <= set(machine.written("gemini"))
    settings = json.loads((machine.home / ".claude/settings.json").read_text("utf-8"))
    assert settings["enabledPlugins"] == {"notes@local-tools": True, "tool@local-tools": False}


def test_every_host_found_is_named_with_the_files_that_found_it(doctor):
    found = report(doctor)
    assert [(h["host"], h["found_by"]) for h in found["hosts"]] == [
        ("claude-code", ["~/.claude", "~/.claude.json", ".claude", "CLAUDE.md"]),
        ("codex", ["~/.codex"]),
        ("gemini", ["~/.gemini", "GEMINI.md"]),
    ]


def test_named_hosts_are_reported_in_the_order_named(doctor):
    found = report(doctor, "codex,claude-code")
    assert [h["host"] for h in found["hosts"]] == ["codex", "claude-code"]
    assert [h["found_by"] for h in found["hosts"]] == [
        ["~/.codex"],
        ["~/.claude", "~/.claude.json", ".claude", "CLAUDE.md"],
    ]


def test_an_unknown_host_name_is_a_usage_error(doctor):
    code, out, err = doctor("--hosts", "claude-code,nope")
    assert (code, out) == (2, "")
    assert "Error: Invalid value for '--hosts': no host profile is named 'nope'; known: " in err
    assert "Traceback" not in err


def test_sarif_without_hosts_is_a_usage_error(doctor):
    code, out, err = doctor("--format", "sarif")
    assert (code, out) == (2, "")
    assert err.endswith("Error: --format sarif needs --hosts\n")


@pytest.mark.parametrize("host", HOSTS)
def test_each_host_s_report_matches_its_golden_text_and_json(doctor, machine: Built, host: str):
    code, text, err = doctor("--hosts", host)
    assert err == ""
    check_golden(f"doctor-hosts/{host}.txt", placeheld(machine, text))
    found = report(doctor, host)
    assert code == (1 if found["counts"]["error"] else 0)
    assert [h["host"] for h in found["hosts"]] == [host]
    document = json.dumps(found, indent=2, ensure_ascii=False) + "\n"
    check_golden(f"doctor-hosts/{host}.json", placeheld(machine, document))


def test_the_report_reads_what_the_hosts_installed(doctor):
    """What each host's own commands did is in the report: Claude Code's disabled
    plugin, Codex's untrusted plugin hook, Gemini CLI's extension disabled here."""
    hosts = {h["host"]: h for h in report(doctor)["hosts"]}
    assert hosts["claude-code"]["loads"]["plugins"] == ["notes", "review"]
    assert hosts["codex"]["loads"]["plugins"] == ["guard"]
    assert hosts["gemini"]["loads"]["plugins"] == ["helper"]
    # hooks by the event names the host gives them (Claude Code's Stop, not satchel's stop)
    assert hosts["claude-code"]["loads"]["hooks"] == ["Stop: echo notes done (plugin:notes)"]
    codes = {name: {(f["code"], f["path"]) for f in h["findings"]} for name, h in hosts.items()}
    # Claude Code reads a directory marketplace's plugin in that folder, not its copy
    assert ("plugin.disabled", "~/src/claude-market/plugins/tool") in codes["claude-code"]
    guard = "~/.codex/plugins/cache/local/guard/1.0.0/hooks/hooks.json"
    untrusted = [
        (f["code"], f["message"]) for f in hosts["codex"]["findings"] if f["path"] == guard
    ]
    assert untrusted == [  # the hooks check's words, not also the load's hook.host.untrusted
        (
            "hosts.hook.untrusted",
            f"Codex skips the PreToolUse hook 'echo guard checked' of {guard} without a "
            "word: Codex has never trusted it (no trusted_hash for "
            "'guard@local:hooks/hooks.json:pre_tool_use:0:0' in ~/.codex/config.toml)",
        )
    ]
    assert ("plugin.disabled", "~/.gemini/extensions/paused") in codes["gemini"]


def test_one_mcp_server_added_by_each_host_s_own_command_differs_in_each_report(doctor):
    """``claude mcp add``, ``codex mcp add`` and ``gemini mcp add`` gave one server
    three definitions: each host's report says how its own differs from the others'."""
    hosts = {h["host"]: h for h in report(doctor)["hosts"]}
    differs = {
        name: [(f["path"], f["message"]) for f in h["findings"] if f["code"] == "hosts.mcp.differs"]
        for name, h in hosts.items()
    }
    assert differs == {
        "claude-code": [(".mcp.json", "MCP server 'docs' of .mcp.json differs from Codex's "
            "(~/.codex/config.toml: args --stdio --v2 not --stdio) and Gemini CLI's "
            "(~/.gemini/settings.json: args --http not --stdio)")],
        "codex": [("~/.codex/config.toml", "MCP server 'docs' of ~/.codex/config.toml differs "
            "from Claude Code's (.mcp.json: args --stdio not --stdio --v2) and Gemini CLI's "
            "(~/.gemini/settings.json: args --http not --stdio --v2)")],
        "gemini": [("~/.gemini/settings.json", "MCP server 'docs' of ~/.gemini/settings.json "
            "differs from Claude Code's (.mcp.json: args --stdio not --http) and Codex's "
            "(~/.codex/config.toml: args --stdio --v2 not --http)")],
    }  # fmt: skip


def test_sarif_is_valid_with_a_rule_per_code_and_levels_from_severities(doctor, machine: Built):
    code, out, err = doctor("--hosts", "--format", "sarif")
    assert err == ""
    sarif = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    (run,) = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    findings = [f for h in report(doctor)["hosts"] for f in h["findings"]]
    assert [r["id"] for r in rules] == sorted({f["code"] for f in findings})
    for rule in rules:
        assert rule["defaultConfiguration"]["level"] == LEVELS[CODES[rule["id"]].severity]
    results = run["results"]
    assert len(results) == len(findings)
    for result, finding in zip(results, findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding["code"]
        assert result["level"] == LEVELS[finding["severity"]]
        assert result["properties"]["host"] == finding["host"]
        assert result["message"]["text"] == f"{finding['message']} (fix: {finding['fix']})"
    located = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in results]
    in_project = [a["uri"] for a in located if a.get("uriBaseId") == "%SRCROOT%"]
    in_home = [a["uri"] for a in located if "uriBaseId" not in a]
    assert ".claude/skills/release-notes/SKILL.md" in in_project
    assert all(uri.startswith(machine.home.as_uri() + "/") for uri in in_home)
    assert len(in_project) + len(in_home) == len(located)
    assert code == (1 if any(f["severity"] == "error" for f in findings) else 0)


def test_fail_on_exits_1_when_a_finding_is_at_that_severity_or_above(doctor):
    rank = ("error", "warning", "info")
    exits = {}
    for host in HOSTS:
        found = {f["severity"] for h in report(doctor, host)["hosts"] for f in h["findings"]}
        for fail_on in rank:
            expected = int(any(rank.index(s) <= rank.index(fail_on) for s in found))
            code = doctor("--hosts", host, "--fail-on", fail_on, "--format", "json")[0]
            exits[host, fail_on] = (code, expected)
    assert all(code == expected for code, expected in exits.values()), exits
    assert {code for code, _ in exits.values()} == {0, 1}  # both outcomes are exercised


def test_a_message_names_the_project_s_and_home_s_files_as_the_report_does(tmp_path: Path):
    from satchel.core.layout import Layout
    from satchel.reports.checkup._machine import said

    home = tmp_path / "u"
    project = home / "proj"
    layout = Layout.default(project, home=home, project=project)
    text = f"{project}/a.md, {home}/.codex/config.toml, ({project}), {home}, {project}x, {home}x"
    assert said(text, layout) == f"a.md, ~/.codex/config.toml, (.), ~, ~/projx, {home}x"
    elsewhere = f"/elsewhere{home}/a.md"  # a path that only ends like the home's
    assert said(elsewhere, layout) == elsewhere


def test_a_host_named_twice_is_reported_once(doctor):
    once = report(doctor, "codex")
    twice = report(doctor, "codex,codex")
    assert [h["host"] for h in twice["hosts"]] == ["codex"]
    assert twice == once


def test_ignore_and_the_config_s_ignore_hide_codes_from_the_report(
    doctor, machine: Built, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    def reported(*args: str) -> set[str]:
        return {f["code"] for h in report(doctor, "codex", *args)["hosts"] for f in h["findings"]}

    assert "hosts.hook.untrusted" in reported()
    assert "hosts.hook.untrusted" not in reported("--ignore", "hosts.hook.untrusted")
    assert not {c for c in reported("--ignore", "hosts") if c.startswith("hosts.")}
    mine = copy_of(machine, tmp_path / "copy")  # the shared machine is not written
    argv = ["doctor", "--hosts", "codex", "--json", "--home", str(mine.home), str(mine.project)]

    def in_copy() -> list[str]:
        main(argv)
        found = json.loads(capsys.readouterr().out)
        return [f["code"] for h in found["hosts"] for f in h["findings"]]

    assert "hosts.hook.untrusted" in in_copy()
    put(mine.home / ".config/satchel/config.toml", '[diagnostics]\nignore = ["hosts.hook"]\n')
    assert not [c for c in in_copy() if c.startswith("hosts.hook.")]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--client", "mine"), "--client does not apply to --hosts: each host is read with "
         "its own client, trust rules and plugins"),
        (("--trust",), "--trust/--no-trust does not apply to --hosts: each host is read "
         "with its own client, trust rules and plugins"),
        (("--plugin-dir", "."), "--plugin-dir does not apply to --hosts: each host is read "
         "with its own client, trust rules and plugins"),
        (("--json", "--format", "sarif"), "--json and --format sarif ask for two formats: "
         "give one"),
    ],
)  # fmt: skip
def test_an_option_hosts_cannot_honour_is_a_usage_error(doctor, args, error: str):
    code, out, err = doctor("--hosts", *args)
    assert code == 2
    if "--json" in args:  # the error in the one JSON envelope
        assert json.loads(out)["error"] == {"code": "cli.usage", "message": error}
    else:
        assert (out, err[-len(error) - 8 :]) == ("", f"Error: {error}\n")


def test_model_sizes_only_the_listings_of_the_hosts_that_know_it(doctor):
    hosts = {h["host"]: h for h in report(doctor, "--model", "gpt-6.1-sol")["hosts"]}
    sized = {n: (h["model"], h["unknown_model"]) for n, h in hosts.items()}
    assert sized == {
        "claude-code": ("claude-opus-5-5", "gpt-6.1-sol"),
        "codex": ("gpt-6.1-sol", None),
        "gemini": ("auto", "gpt-6.1-sol"),
    }
    codes = {f["code"] for h in hosts.values() for f in h["findings"]}
    assert "host.model-unknown" not in codes
    _, text, _ = doctor("--hosts", "--model", "gpt-6.1-sol")
    line = "found by: ~/.claude, ~/.claude.json, .claude, CLAUDE.md; listing sized for "
    line += "claude-opus-5-5 (--model gpt-6.1-sol is not one Claude Code knows)\n"
    assert line in text


def test_a_model_no_host_knows_is_given_to_each_and_each_warns(doctor):
    hosts = report(doctor, "--model", "nobody-s-model")["hosts"]
    assert [(h["model"], h["unknown_model"]) for h in hosts] == [("nobody-s-model", None)] * 3
    unknown = [
        (h["host"], f["message"]) for h in hosts for f in h["findings"]
        if f["code"] == "host.model-unknown"
    ]  # fmt: skip
    assert [host for host, _ in unknown] == ["claude-code", "codex", "gemini"]
    assert unknown[1][1].startswith("model 'nobody-s-model' is not one codex knows: ")


def test_found_by_expands_templates_as_every_host_file_does(tmp_path: Path):
    """{cwd} and {config} too, and an unknown {name} left as written (no KeyError)."""
    from dataclasses import replace

    from satchel.core.layout import Layout
    from satchel.hosts import PROFILES
    from satchel.reports.checkup._machine import found_by

    project, cwd = tmp_path / "p", tmp_path / "p/sub"
    for folder in (cwd / ".x", project / "{other}"):
        folder.mkdir(parents=True)
    layout = Layout.default(cwd, home=tmp_path / "h", project=project)
    host = replace(PROFILES["codex"], found_by=("{cwd}/.x", "{project}/{other}", "{home}/.y"))
    assert found_by(host, layout) == (cwd / ".x", project / "{other}")


OPENED: list[str] | None = None  # the paths opened or listed while a test records


def _record(event: str, args: tuple[Any, ...]) -> None:
    watched = OPENED is not None and event in ("open", "os.listdir", "os.scandir")
    if watched and args and isinstance(args[0], (str, bytes, os.PathLike)):
        OPENED.append(os.path.abspath(os.fsdecode(args[0])))


def test_a_working_folder_outside_the_project_is_not_read(machine: Built, tmp_path: Path):
    """Run from a folder outside --project, each host is read as if run in the
    project's root: the folder's own host files (which a host run there would read)
    are not opened, and the report says so; Python's audit hook sees every open."""
    global OPENED
    from satchel.reports.checkup import check_hosts

    elsewhere = tmp_path / "elsewhere"
    for name, text in (
        (".gemini/settings.json", '{"mcpServers": {"x": {"command": "nope"}}}'),
        (".codex/config.toml", "[mcp_servers.x]\ncommand = 'nope'\n"),
        (".claude/settings.json", '{"hooks": {}}'),
        ("AGENTS.md", "elsewhere\n"),
    ):
        (elsewhere / name).parent.mkdir(parents=True, exist_ok=True)
        (elsewhere / name).write_text(text, "utf-8")
    given = {"home": machine.home, "project": machine.project, "env": {"PATH": ""}}
    in_project = check_hosts(machine.project, **given).to_json()  # imports done first
    sys.addaudithook(_record)
    OPENED = []
    try:
        found = check_hosts(elsewhere, **given).to_json()
    finally:
        opened, OPENED = OPENED, None
    assert opened  # the hook saw the reads
    roots = (machine.home, machine.project)
    assert [p for p in opened if not any(Path(p).is_relative_to(r) for r in roots)] == []
    assert found.pop("cwd_outside_project") == str(elsewhere)
    assert in_project.pop("cwd_outside_project") is None
    assert found == in_project
