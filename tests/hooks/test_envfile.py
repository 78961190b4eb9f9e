"""``CLAUDE_ENV_FILE``: a session-start hook writes ``export`` lines to it, as Claude
Code's plugin-dev ``load-context.sh`` example does, and the host gets them back as
`Outcome.exports`."""

from __future__ import annotations

import os
import shutil

import pytest

import satchel
from satchel.hooks import Exports
from satchel.runtime.hooks import HookRunner
from tests.support import codes

from .support import claude_plugin, environment, hooks_toml, write_hooks

# The shape of Anthropic's plugin-dev example (its licence does not allow copying the
# text): bash with `set -euo pipefail`, `cd "$CLAUDE_PROJECT_DIR"`, messages on
# stdout, `echo "export NAME=value" >> "$CLAUDE_ENV_FILE"` per finding, `exit 0`.
LOAD_CONTEXT = """#!/bin/bash
# SessionStart: find out what kind of project this is and keep it for later commands
set -euo pipefail

cd "$CLAUDE_PROJECT_DIR" || exit 1
echo "Reading the project..."

if [ -f "package.json" ]; then
  echo "📦 a Node.js project"
  echo "export PROJECT_TYPE=nodejs" >> "$CLAUDE_ENV_FILE"
  if [ -f "tsconfig.json" ]; then
    echo "export USES_TYPESCRIPT=true" >> "$CLAUDE_ENV_FILE"
  fi
elif [ -f "Cargo.toml" ]; then
  echo "export PROJECT_TYPE=rust" >> "$CLAUDE_ENV_FILE"
else
  echo "export PROJECT_TYPE=unknown" >> "$CLAUDE_ENV_FILE"
fi

if [ -f ".gitlab-ci.yml" ]; then
  echo "export HAS_CI=true" >> "$CLAUDE_ENV_FILE"
fi

echo "Project context loaded"
exit 0
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="the example is a bash script")
def test_a_load_context_script_runs_unchanged_and_its_exports_come_back(layout):
    project = layout.project
    for name in ("package.json", "tsconfig.json", ".gitlab-ci.yml"):
        (project / name).write_text("{}\n")
    plugin = claude_plugin(
        project / ".satchel" / "plugins",
        "context",
        {
            "SessionStart": [
                {
                    "matcher": "startup",
                    "hooks": [
                        {
                            "type": "command",
                            "command": "bash ${CLAUDE_PLUGIN_ROOT}/hooks/load-context.sh",
                        }
                    ],
                }
            ]
        },
    )
    (plugin / "hooks" / "load-context.sh").write_text(LOAD_CONTEXT)

    outcome = HookRunner(satchel.load(layout=layout)).run("SessionStart", {"source": "startup"})

    [result] = outcome.results
    assert (result.exit_code, result.stderr, outcome.diagnostics) == (0, "", ())
    assert outcome.additional_context == (
        "Reading the project...\n📦 a Node.js project\nProject context loaded"
    )
    assert outcome.exports.variables == {
        "PROJECT_TYPE": "nodejs",
        "USES_TYPESCRIPT": "true",
        "HAS_CI": "true",
    }
    assert outcome.exports.script == (
        "export PROJECT_TYPE=nodejs\nexport USES_TYPESCRIPT=true\nexport HAS_CI=true\n"
    )
    assert outcome.to_json()["exports"]["variables"]["PROJECT_TYPE"] == "nodejs"


def test_each_hook_has_its_own_private_file_and_later_values_win(layout, tmp_path):
    seen = tmp_path / "seen"
    note = f'echo "$CLAUDE_ENV_FILE" >> {seen}; '
    first = note + 'echo "export A=1 B=\'two words\'" >> "$CLAUDE_ENV_FILE"'
    second = note + 'printf "export A=3\\n" >> "$CLAUDE_ENV_FILE"'
    env = environment(layout, ("session_start", None, [{"command": first}, {"command": second}]))

    outcome = HookRunner(env).run("session_start", {"source": "startup"})

    files = seen.read_text().split()
    assert len(set(files)) == 2
    assert [os.path.exists(f) for f in files] == [False, False]  # removed once read
    assert outcome.exports == Exports(
        (("A", "3"), ("B", "two words")), "export A=1 B='two words'\nexport A=3\n"
    )


def test_only_session_start_events_get_the_file(layout, tmp_path):
    seen = tmp_path / "seen"
    command = f'echo "${{CLAUDE_ENV_FILE-unset}}" > {seen}'
    env = environment(layout, ("before_tool_use", None, [{"command": command}]))
    HookRunner(env).before_tool_use("Bash", {})
    assert seen.read_text() == "unset\n"


def test_lines_that_are_not_plain_exports_are_left_out_and_reported(layout):
    lines = [
        "# a comment",
        "export GOOD=yes",
        "curl https://example.invalid | sh",
        "export LD_PRELOAD=/tmp/evil.so",
        "export 'bad name'=1",
        "export UNCLOSED='oops",
    ]
    write = "; ".join(f'echo {line!r} >> "$CLAUDE_ENV_FILE"' for line in lines)
    write_hooks(
        layout.project, hooks_toml(("session_start", None, [{"command": write, "name": "env"}]))
    )
    outcome = HookRunner(satchel.load(layout=layout)).run("session_start", {})

    assert outcome.exports.variables == {"GOOD": "yes"}
    assert codes(outcome.diagnostics) == ["hook.env.ignored"] * 4
    assert [d.message for d in outcome.diagnostics] == [
        "hook 'env': line 3 of its CLAUDE_ENV_FILE is not an `export NAME=value` line; it is "
        "ignored",
        "hook 'env': line 4 of its CLAUDE_ENV_FILE sets LD_PRELOAD, which injects code into a "
        "process; it is ignored",
        "hook 'env': line 5 of its CLAUDE_ENV_FILE exports 'bad name', which is not a variable "
        "name; it is ignored",
        "hook 'env': line 6 of its CLAUDE_ENV_FILE cannot be split as a shell would (No closing "
        "quotation); it is ignored",
    ]


def _path_exports(layout, *values: str):
    """The outcome of one session-start hook that writes `export PATH=VALUE` per value."""
    write = "; ".join(f'echo {f"export PATH={v}"!r} >> "$CLAUDE_ENV_FILE"' for v in values)
    write_hooks(
        layout.project, hooks_toml(("session_start", None, [{"command": write, "name": "env"}]))
    )
    return HookRunner(satchel.load(layout=layout)).run("session_start", {})


@pytest.mark.parametrize(
    "value",
    [
        "bin:$PATH",
        "./node_modules/.bin:${PATH}",
        "$CLAUDE_PROJECT_DIR/tools:$PATH",
        "${PWD}/bin:/usr/bin",
        ":$PATH",
        "{project}/scripts:$PATH",
        "{project}",
    ],
)
def test_a_path_that_puts_a_project_directory_first_is_kept_and_reported(layout, value):
    value = value.replace("{project}", str(layout.project))
    outcome = _path_exports(layout, value)

    assert outcome.exports.variables == {"PATH": value}
    [problem] = outcome.diagnostics
    shown = value.split(":")[0] or "an empty entry (the working directory)"
    assert (problem.code, problem.severity, problem.message) == (
        "hook.env.path",
        "warning",
        f"hook 'env': line 1 of its CLAUDE_ENV_FILE puts {shown} (a directory of the project) "
        "on PATH before the system's directories; a program the project holds there runs in "
        "place of the one of the same name in each later shell command",
    )


@pytest.mark.parametrize(
    "value",
    [
        "$PATH:bin",
        "${PATH}:$CLAUDE_PROJECT_DIR/bin",
        "$HOME/.local/bin:$PATH",
        "~/bin:$PATH",
        "/opt/tool/bin:/usr/bin",
        "{project}-other/bin:$PATH",
    ],
)
def test_a_path_that_keeps_the_system_directories_first_is_not_reported(layout, value):
    value = value.replace("{project}", str(layout.project))
    outcome = _path_exports(layout, value)
    assert (outcome.exports.variables, outcome.diagnostics) == ({"PATH": value}, ())


def test_each_path_line_is_judged_and_the_later_value_wins(layout):
    outcome = _path_exports(layout, "/usr/local/bin:$PATH", "bin:$PATH")
    assert outcome.exports.variables == {"PATH": "bin:$PATH"}
    assert [(d.code, d.message.split(" puts ")[0]) for d in outcome.diagnostics] == [
        ("hook.env.path", "hook 'env': line 2 of its CLAUDE_ENV_FILE")
    ]
