"""`main()`: dispatch, exit codes in one place, and the real entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import satchel as lib
from satchel.cli import main

from .conftest import MACHINE_VARS
from .support import EXAMPLE, REPO
from .test_doctor import PLUGIN_SKILLS, SKILLS


def test_help_returns_0_instead_of_exiting(satchel):
    result = satchel("--help")
    assert result.code == 0
    assert result.out.startswith("Usage: satchel [OPTIONS] COMMAND [ARGS]...")
    verbs = ("agents", "commands", "doctor", "expand", "index", "instructions", "list", "new")
    for verb in (*verbs, "plugin", "plugins", "show", "validate"):
        assert f"\n  {verb} " in result.out


def test_help_says_what_satchel_is_for_in_one_line(satchel):
    first = satchel("--help").out.split("\n\n")[1]  # the paragraph after the usage line
    assert " ".join(first.split()) == (
        "Load and serve skills for agents; check and port plugins for every host; install from "
        "catalogues; audit and enforce policy."
    )


def test_help_ends_with_every_exit_code(satchel):
    out = satchel("--help").out
    assert out.endswith(
        "  Exit codes:\n"
        "    0    success: the verb did what was asked and found nothing to fail on\n"
        "    1    problems found (validate, doctor, --fail-on), or a name or source is wrong\n"
        "    2    usage error: an unknown verb or option, a bad value, a missing argument\n"
        "    3    a bug in satchel: one line says what to report, never a traceback\n"
        "    4    policy check / export: a policy file cannot be read (fail closed)\n"
        "    130  interrupted (Ctrl-C, SIGINT): one line, no traceback\n"
        "\n"
        "  Reference of every verb: docs/cli.md.\n"
    )


def test_every_verb_and_group_has_a_help_line(satchel):
    out = satchel("--help").out
    listed = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [row.split()[0] for row in listed if len(row.split()) < 2] == []
    assert "  marketplace   The plugin catalogues to install from" in out


def test_version(satchel):
    result = satchel("--version")
    assert (result.code, result.out) == (0, f"satchel, version {lib.__version__}\n")


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--no-such-option"],
        ["no-such-verb"],
        ["show"],
        ["validate"],
        ["index", "--max-skills", "-1"],
        ["doctor", "no-such-dir"],
        ["expand"],
        ["instructions", "--mode", "nope"],
        ["agents", "no-such-dir"],
        ["commands", "--client", "../x"],
    ],
    ids=[
        "bad-option",
        "bad-verb",
        "missing-name",
        "missing-path",
        "negative-cap",
        "missing-dir",
        "missing-prompt",
        "bad-mode",
        "agents-missing-dir",
        "commands-bad-client",
    ],
)
def test_usage_errors_return_2(satchel, in_repo, args):
    result = satchel(*args)
    assert result.code == 2
    assert result.out == ""
    assert "Error:" in result.err


def test_internal_error_returns_3_with_one_line_and_no_traceback(satchel, monkeypatch):
    def broken(**_options):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("satchel.cli.listing.run", broken)
    result = satchel("list")
    assert result.code == 3
    assert result.out == ""
    assert result.err == (
        "satchel: internal error: RuntimeError: boom second line\n"
        "this is a bug in satchel: please report it with the command you ran\n"
    )


def test_an_unusable_file_returns_1_with_its_code(satchel, monkeypatch):
    def denied(**_options):
        raise PermissionError(13, "Permission denied", "/some/dir")

    monkeypatch.setattr("satchel.cli.listing.run", denied)
    result = satchel("list")
    assert result.code == 1
    assert result.err == "satchel: cli.io.error: Permission denied: /some/dir\n"


def test_internal_error_message_is_escaped(satchel, monkeypatch):
    def broken(**_options):
        raise ValueError("bad \x1b[2J input")

    monkeypatch.setattr("satchel.cli.doctor.run", broken)
    result = satchel("doctor")
    assert result.code == 3
    assert "bad \\x1b[2J input" in result.err
    assert "\x1b" not in result.err


def test_main_reads_sys_argv_when_given_nothing(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["satchel", "--version"])
    assert main() == 0
    assert capsys.readouterr().out == f"satchel, version {lib.__version__}\n"


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in MACHINE_VARS}


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=REPO, env=_clean_env(), capture_output=True, text=True, timeout=60
    )


def test_python_dash_m_satchel_runs(in_repo):
    done = _run([sys.executable, "-m", "satchel", "list", "--json", *EXAMPLE])
    assert done.returncode == 0, done.stderr
    assert [s["name"] for s in json.loads(done.stdout)["skills"]] == SKILLS + PLUGIN_SKILLS


def test_python_dash_m_usage_error_exits_2_without_traceback():
    done = _run([sys.executable, "-m", "satchel", "list", "--bogus"])
    assert done.returncode == 2
    assert "No such option" in done.stderr
    assert "Traceback" not in done.stderr


def test_console_script_runs_the_readme_command():
    script = Path(sysconfig.get_path("scripts")) / "satchel"
    assert script.exists(), "the satchel console script is not installed in this environment"
    done = _run([str(script), "doctor", *EXAMPLE])
    assert done.returncode == 1  # the example has broken skills on purpose
    assert done.stderr == ""
    headings = ("Roots", "Skills: 15 loaded", "Shadowed: 2", "Plugins: 7", "Diagnostics: 2 errors")
    for heading in (*headings, "Index"):
        assert f"\n{heading}" in done.stdout


# Ctrl-C pressed while the command line is still loading, at a moment the test
# chooses: when `module` starts to import, the child says so on stderr and waits on
# stdin; the test then sends it a real SIGINT.
WAIT_AT = """
import os, signal, sys

signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal, whatever the runner

class _Wait:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.write(2, b"loading\\n")
            os.read(0, 1)
        return None

sys.meta_path.insert(0, _Wait())
import runpy
"""
CONSOLE_SCRIPT = Path(sysconfig.get_path("scripts")) / "satchel"
ENTRIES = {
    "the satchel command": f"runpy.run_path({str(CONSOLE_SCRIPT)!r}, run_name='__main__')",
    "python -m satchel": "runpy.run_module('satchel', run_name='__main__', alter_sys=True)",
}


@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize(
    "module",
    [
        "satchel.cli",
        "click",
        "satchel.cli._exit",
        "satchel.cli.listing",
        "satchel.assembly._environment",
    ],
)
def test_ctrl_c_while_loading_exits_130_with_one_line(tmp_path, entry, module):
    import signal

    code = WAIT_AT.format(module=module) + ENTRIES[entry]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "list", "--home", str(tmp_path)],
        cwd=tmp_path,
        env=_clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    assert proc.stderr.readline() == "loading\n"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err, out) == (130, "\nsatchel: interrupted\n", "")


def test_the_console_script_enters_where_ctrl_c_is_caught():
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="satchel")
    assert script.value == "satchel.__main__:main"
