"""satchel.foundations.process: real subprocesses, from scripts written into tmp_path."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from satchel.core.diagnostics import diagnostic
from satchel.foundations.process import (
    DANGEROUS_ENV,
    KEEP_ENV,
    ProcessResult,
    base_env,
    cut_marker,
    is_dangerous_env,
    overlay_env,
    run_process,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX only")

ENV = base_env(os.environ)


def script(tmp_path: Path, body: str, name: str = "s.sh") -> Path:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def run(path: Path, *args: str, **kwargs: object) -> ProcessResult:
    kwargs.setdefault("cwd", path.parent)
    kwargs.setdefault("env", ENV)
    return run_process([str(path), *args], **kwargs)


def pids(result: ProcessResult) -> list[int]:
    return [int(word) for word in result.stdout.split() if word.isdigit()]


def _alive_in_proc(pid: int | None = None, pgid: int | None = None) -> bool:
    """Whether a process (or a member of a group) runs, zombies not counted."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or (pid is not None and int(entry) != pid):
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and (pgid is None or int(fields[2]) == pgid):
            return True
    return False


def _alive(pid: int, *, group: bool = False) -> bool:
    try:
        (os.killpg if group else os.kill)(pid, 0)
    except ProcessLookupError:
        return False
    if not os.path.isdir("/proc"):
        return True
    return _alive_in_proc(pgid=pid) if group else _alive_in_proc(pid=pid)


def gone(pid: int, *, group: bool = False) -> bool:
    """Whether the process (group) is dead, allowing a moment for the kill to land.
    A zombie counts as dead: reaping orphans is init's job, not ours."""
    deadline = time.monotonic() + 10
    while _alive(pid, group=group):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# -- capture ---------------------------------------------------------------------------


def test_stdout_stderr_and_exit_code(tmp_path):
    result = run(script(tmp_path, "echo out\necho err >&2\nexit 3\n"))
    assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")
    assert not result.ok and not result.timed_out and not result.truncated
    assert result.diagnostics == ()
    assert result.duration > 0


def test_ok_and_to_json(tmp_path):
    result = run(script(tmp_path, "echo hi\n"))
    assert result.ok
    assert result.argv == (str(tmp_path / "s.sh"),)
    assert result.to_json() == {
        "exitCode": 0,
        "stdout": "hi\n",
        "stderr": "",
        "timedOut": False,
        "truncated": False,
    }


def test_argv_reaches_the_child_verbatim(tmp_path):
    canary = tmp_path / "canary"
    path = script(tmp_path, 'for a in "$@"; do printf "%s\\n" "$a"; done\n')
    args = ["; touch $CANARY", "$(id)", "--upload-pack=touch", "`touch $CANARY`", "a b", ""]
    result = run(path, *args, env={**ENV, "CANARY": str(canary)})
    assert result.ok
    assert result.stdout == "".join(arg + "\n" for arg in args)
    assert not canary.exists()


def test_cwd_is_used(tmp_path):
    (tmp_path / "sub").mkdir()
    result = run(script(tmp_path, "pwd\n"), cwd=tmp_path / "sub")
    assert Path(result.stdout.strip()).resolve() == (tmp_path / "sub").resolve()


def test_env_is_exactly_what_was_passed(tmp_path):
    env_program = shutil.which("env")
    assert env_program is not None
    env = {"PATH": "/nonexistent", "FOO": "bar baz", "LC_ALL": "C"}
    result = run_process([env_program], cwd=tmp_path, env=env)
    assert sorted(result.stdout.splitlines()) == sorted(f"{k}={v}" for k, v in env.items())


def test_non_utf8_output_is_replaced(tmp_path):
    result = run(script(tmp_path, "printf '\\377\\376ok\\n'\nprintf '\\303' >&2\n"))
    assert result.stdout == "\ufffd\ufffdok\n"
    assert result.stderr == "\ufffd"


# -- stdin -----------------------------------------------------------------------------


def test_stdin_bytes_are_delivered(tmp_path):
    data = b"hello\x00world\n" * 10000  # bigger than a pipe buffer
    result = run(script(tmp_path, "cat\n"), stdin=data)
    assert result.ok
    assert result.stdout == data.decode()


def test_stdin_text_is_utf8(tmp_path):
    result = run(script(tmp_path, "cat\n"), stdin="héllo ✓")
    assert result.stdout == "héllo ✓"


def test_no_stdin_reads_devnull(tmp_path):
    result = run(script(tmp_path, "cat\necho end\n"))
    assert result.stdout == "end\n"


def test_child_closing_stdin_early_is_fine(tmp_path):
    path = script(tmp_path, "exec 0<&-\necho done\n")
    result = run(path, stdin=b"x" * (8 * 1024 * 1024))
    assert result.ok
    assert result.stdout == "done\n"


# -- environment -----------------------------------------------------------------------


def test_base_env_keeps_only_allowed_names():
    environ = {name: f"v-{name}" for name in KEEP_ENV}
    environ |= {"LC_ALL": "C", "LC_CTYPE": "C.UTF-8"}
    dropped = {"LD_PRELOAD": "/x.so", "AWS_SECRET_ACCESS_KEY": "s", "PYTHONPATH": "/p"}
    dropped |= {"GITHUB_TOKEN": "t", "path": "/lower", "XLC_ALL": "x"}
    assert base_env({**environ, **dropped}) == environ


@pytest.mark.parametrize(
    "name",
    ["LD_PRELOAD", "LD_ANYTHING", "DYLD_INSERT_LIBRARIES", "DYLD_ROOT_PATH", "NODE_OPTIONS",
     "PYTHONPATH", "PYTHONSTARTUP", "PERL5OPT", "RUBYOPT", "BASH_ENV", "ENV", "ZDOTDIR",
     "PROMPT_COMMAND", "GIT_SSH_COMMAND", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
     "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "BASH_FUNC_ls%%", "npm_config_script_shell"],
)  # fmt: skip
def test_dangerous_names(name):
    assert is_dangerous_env(name)


@pytest.mark.parametrize("name", ["PATH", "HOME", "LANG", "FOO", "ld_preload", "PYTHONIOENCODING"])
def test_harmless_names(name):
    assert not is_dangerous_env(name)


def test_overlay_refuses_each_dangerous_name(tmp_path):
    source = tmp_path / "plugin.json"
    names = [*sorted(DANGEROUS_ENV), "LD_X", "DYLD_X", "GIT_CONFIG_VALUE_0"]
    extra = {name: "x" for name in names} | {"OK": "1"}
    env, diags = overlay_env({"PATH": "/bin"}, extra, source=source)
    assert env == {"PATH": "/bin", "OK": "1"}
    assert diags == tuple(
        diagnostic(
            "exec.env.refused",
            f"environment variable {name!r} was refused: it can inject code into the process",
            source,
        )
        for name in names
    )
    assert {d.severity for d in diags} == {"warning"}


def test_overlay_refuses_bad_values_and_names():
    extra = {"N": 3, "NUL": "a\0b", "A=B": "x", "": "y"}
    env, diags = overlay_env({}, extra)
    assert env == {}
    assert [d.message for d in diags] == [
        "environment variable 'N' was refused: its value is a number, not a string",
        "environment variable 'NUL' was refused: its value holds a NUL byte",
        "environment variable 'A=B' was refused: it is not a valid variable name",
        "environment variable '' was refused: it is not a valid variable name",
    ]
    assert all(d.path is None for d in diags)


def test_overlay_fixed_wins_over_extra_and_base():
    base = {"PATH": "/bin", "SKILL_DIR": "/base"}
    extra = {"SKILL_DIR": "/evil", "PLUGIN_ROOT": "/evil", "PATH": "/mine:/bin"}
    fixed = {"SKILL_DIR": "/real", "PLUGIN_ROOT": "/root"}
    env, diags = overlay_env(base, extra, fixed=fixed)
    assert env == {"PATH": "/mine:/bin", "SKILL_DIR": "/real", "PLUGIN_ROOT": "/root"}
    assert diags == ()


# -- timeouts and the process group ----------------------------------------------------


def timeout_message(path: Path, seconds: str) -> str:
    return f"{str(path)!r} timed out after {seconds} s; its process group was killed"


TIMEOUT = 0.5  # seconds: ample for sh to print its pid, then the timeout is waited out


def assert_timed_out(result: ProcessResult, path: Path) -> None:
    assert result.timed_out
    assert result.exit_code is None
    assert not result.ok
    assert result.diagnostics == (diagnostic("exec.timeout", timeout_message(path, "0.5"), path),)


def test_timeout_kills_the_group(tmp_path):
    path = script(tmp_path, "echo $$\nsleep 600\n")
    result = run(path, timeout=TIMEOUT)
    assert_timed_out(result, path)
    [pgid] = pids(result)
    assert gone(pgid, group=True)


def test_timeout_kills_background_grandchild_holding_the_pipes(tmp_path):
    path = script(tmp_path, "echo $$\nsleep 600 &\necho $!\nsleep 600\n")
    result = run(path, timeout=TIMEOUT)
    assert_timed_out(result, path)
    pgid, grandchild = pids(result)
    assert gone(grandchild)
    assert gone(pgid, group=True)


def test_timeout_kills_a_child_that_ignores_term(tmp_path):
    path = script(tmp_path, "trap '' TERM\necho $$\nsleep 600 &\nsleep 600\n")
    result = run(path, timeout=TIMEOUT, grace=0.2)
    assert_timed_out(result, path)
    [pgid] = pids(result)
    assert gone(pgid, group=True)


def test_timeout_message_gives_fractions(tmp_path):
    path = script(tmp_path, "sleep 600\n")
    result = run(path, timeout=0.25)
    assert result.diagnostics[0].message == timeout_message(path, "0.25")


def test_exit_with_background_grandchild_holding_the_pipes(tmp_path):
    path = script(tmp_path, "echo $$\nsleep 600 &\necho $!\nexit 0\n")
    result = run(path, timeout=30, drain=0.2)
    assert result.ok
    assert not result.timed_out and result.diagnostics == ()
    pgid, grandchild = pids(result)
    assert gone(grandchild)
    assert gone(pgid, group=True)


def test_exit_with_detached_grandchild_still_kills_the_group(tmp_path):
    path = script(tmp_path, "echo $$\nsleep 600 >/dev/null 2>&1 </dev/null &\necho $!\n")
    result = run(path, timeout=30)
    assert result.ok
    pgid, grandchild = pids(result)
    assert gone(grandchild)
    assert gone(pgid, group=True)


def test_child_that_closes_its_pipes_is_still_waited_for(tmp_path):
    path = script(tmp_path, "exec >/dev/null 2>&1\nsleep 0.3\nexit 4\n")
    result = run(path, timeout=30)
    assert (result.exit_code, result.stdout, result.timed_out) == (4, "", False)


def test_signal_death_is_a_negative_exit_code(tmp_path):
    result = run(script(tmp_path, "kill -KILL $$\n"))
    assert result.exit_code == -9
    assert not result.ok and not result.timed_out


# -- output caps -----------------------------------------------------------------------


MARKER = re.compile(r"\[output cut by satchel: ([0-9,]+) bytes read, ([0-9,]+) kept\]\n")


def test_cut_marker_wording():
    assert cut_marker(10_485_760, 1_048_576) == (
        "[output cut by satchel: 10,485,760 bytes read, 1,048,576 kept]\n"
    )


def test_flood_is_cut_at_the_cap(tmp_path):
    cap = 65536
    path = script(tmp_path, "head -c 10000000 /dev/zero | tr '\\0' x\nyes\n")
    result = run(path, timeout=1, max_output=cap)
    assert result.timed_out and result.truncated
    assert result.stdout[:cap] == "x" * cap
    rest = result.stdout[cap:]
    assert rest.startswith("\n")
    match = MARKER.fullmatch(rest[1:])
    assert match is not None
    read = int(match[1].replace(",", ""))
    assert read > cap
    assert rest == "\n" + cut_marker(read, cap)
    codes = [d.code for d in result.diagnostics]
    assert codes == ["exec.timeout", "exec.output.truncated"]
    assert result.diagnostics[1] == diagnostic(
        "exec.output.truncated",
        f"{str(path)!r} wrote {read:,} bytes to stdout, more than the cap of 65,536; "
        "the rest was cut",
        path,
    )


def test_cut_stream_ending_in_newline_gets_no_extra_blank_line(tmp_path):
    result = run(script(tmp_path, "yes | head -c 100000 >&2\n"), max_output=10)
    assert result.ok and result.truncated
    assert result.stderr == "y\n" * 5 + cut_marker(100_000, 10)
    assert result.stdout == ""
    [diag] = result.diagnostics
    assert "wrote 100,000 bytes to stderr, more than the cap of 10;" in diag.message


def test_cut_never_splits_a_character(tmp_path):
    result = run(script(tmp_path, "printf 'aé'\nprintf 'xxxx'\n"), max_output=2)
    assert result.stdout == "a\n" + cut_marker(7, 1)


def test_output_at_the_cap_is_not_cut(tmp_path):
    result = run(script(tmp_path, "printf 'abcd'\n"), max_output=4)
    assert (result.stdout, result.truncated, result.diagnostics) == ("abcd", False, ())


# -- start failures --------------------------------------------------------------------


def start_message(result: ProcessResult) -> str:
    assert result.exit_code is None and not result.ok and not result.timed_out
    assert (result.stdout, result.stderr) == ("", "")
    [diag] = result.diagnostics
    assert diag.code == "exec.start" and diag.severity == "error"
    return diag.message


def test_missing_file(tmp_path):
    path = tmp_path / "missing.sh"
    result = run(path)
    assert start_message(result) == f"cannot start {str(path)!r}: no such file"
    assert result.diagnostics[0].path == path


def test_missing_command_on_path(tmp_path):
    result = run_process(["satchel-no-such-command"], cwd=tmp_path, env=ENV)
    message = "cannot start 'satchel-no-such-command': command not found on PATH"
    assert start_message(result) == message
    assert result.diagnostics[0].path is None


def test_file_without_exec_bit(tmp_path):
    path = script(tmp_path, "echo hi\n")
    path.chmod(0o644)
    message = f"cannot start {str(path)!r}: the file is not executable (chmod +x)"
    assert start_message(run(path)) == message


def test_crlf_shebang(tmp_path):
    path = tmp_path / "crlf.sh"
    path.write_bytes(b"#!/bin/sh\r\necho hi\r\n")
    path.chmod(0o755)
    message = (
        f"cannot start {str(path)!r}: its #! line ends in a carriage return "
        "(CRLF line endings); convert the file to LF"
    )
    assert start_message(run(path)) == message


def test_relative_path_is_found_from_cwd(tmp_path):
    path = tmp_path / "crlf.sh"
    path.write_bytes(b"#!/bin/sh\r\necho hi\r\n")
    path.chmod(0o755)
    result = run_process(["./crlf.sh"], cwd=tmp_path, env=ENV)
    assert "its #! line ends in a carriage return" in start_message(result)
    assert result.diagnostics[0].path == Path("crlf.sh")


def test_no_shebang_binary_junk(tmp_path):
    path = tmp_path / "junk"
    path.write_bytes(b"\x00\x01\x02\xffjunk\n")
    path.chmod(0o755)
    message = (
        f"cannot start {str(path)!r}: exec format error "
        "(no #! line, and not a program for this machine)"
    )
    assert start_message(run(path)) == message


def test_missing_interpreter(tmp_path):
    path = tmp_path / "s"
    path.write_text("#!/nonexistent/interp -x\necho hi\n")
    path.chmod(0o755)
    message = f"cannot start {str(path)!r}: its #! interpreter '/nonexistent/interp' was not found"
    assert start_message(run(path)) == message


def test_bom_before_shebang(tmp_path):
    path = tmp_path / "s"
    path.write_bytes(b"\xef\xbb\xbf#!/bin/sh\necho hi\n")
    path.chmod(0o755)
    message = f"cannot start {str(path)!r}: a byte order mark comes before its #! line; remove it"
    assert start_message(run(path)) == message


def test_directory(tmp_path):
    message = f"cannot start {str(tmp_path)!r}: it is a directory"
    assert start_message(run_process([str(tmp_path)], cwd=tmp_path, env=ENV)) == message


def test_missing_cwd(tmp_path):
    path = script(tmp_path, "echo hi\n")
    where = tmp_path / "nowhere"
    message = f"cannot start {str(path)!r}: working directory {str(where)!r} does not exist"
    assert start_message(run(path, cwd=where)) == message


def test_nul_in_argument(tmp_path):
    path = script(tmp_path, "echo hi\n")
    message = f"cannot start {str(path)!r}: argument 1 holds a NUL byte"
    assert start_message(run(path, "a\0b")) == message


def test_nul_in_env(tmp_path):
    path = script(tmp_path, "echo hi\n")
    message = (
        f"cannot start {str(path)!r}: environment variable 'X' is not a valid name "
        "or holds a NUL byte"
    )
    assert start_message(run(path, env={"X": "a\0b"})) == message


# -- misuse ----------------------------------------------------------------------------


def test_empty_argv_raises(tmp_path):
    with pytest.raises(ValueError, match="non-empty argv"):
        run_process([], cwd=tmp_path, env=ENV)


@pytest.mark.parametrize(
    "limits",
    [{"timeout": -1}, {"max_output": -1}, {"grace": -1}, {"drain": -1}, {"timeout": float("nan")}],
)
def test_negative_limits_raise(tmp_path, limits):
    with pytest.raises(ValueError, match="must be >= 0"):
        run_process(["true"], cwd=tmp_path, env=ENV, **limits)
