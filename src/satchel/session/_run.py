"""What a session runs: `` !`cmd` `` interpolation on activation, and skill scripts.

Both go through `satchel.foundations.process.run_process`, the one subprocess primitive, with a
scrubbed environment: the base set (PATH, HOME, LANG, ...), the names the host passes
through, then ``SKILL_DIR``/``CLAUDE_SKILL_DIR`` and ``PROJECT_DIR``/``CLAUDE_PROJECT_DIR``,
which nothing can override.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from satchel.core._model import model
from satchel.core._text import escape
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import ResourceError
from satchel.foundations._interpolation import Command, command_variables, interpolate
from satchel.foundations.process import ProcessResult, base_env, overlay_env, run_process
from satchel.kinds.commands._arguments import Filler
from satchel.kinds.resources import check_relative, quote, resolve_file
from satchel.session._interpreter import script_argv
from satchel.session._model import ToolResult, Via
from satchel.session._options import SessionOptions
from satchel.skills._model import Skill

__all__ = ["DISABLED", "Approve", "Runner", "ShellGate"]

Approve = Callable[[str, Skill], bool]
# Why the n-th command of a skill is held back since `satchel trust` (`Environment.held_line`).
Held = Callable[[Skill, int, str], str | None]
# Asked before each command that would run: why it may not (a hook said so), or None.
ShellGate = Callable[[Skill, str, Via], str | None]
# Claude Code's placeholder for every command while disableSkillShellExecution is set.
DISABLED = "[shell command execution disabled by policy]"
_NOTE_CHARS = 200


@model
class Runner:
    """Runs commands and scripts for one session."""

    options: SessionOptions
    environ: Mapping[str, str]
    project: Path
    cwd: Path
    trusted_scopes: frozenset[str] | None
    approve: Approve | None = None
    gate: ShellGate | None = None
    held: Held | None = None

    def interpolate(
        self, skill: Skill, body: str, filler: Filler | None = None, via: Via = "explicit"
    ) -> tuple[str, tuple[Diagnostic, ...]]:
        """`body` with each command replaced by its output, or by a note saying why not;
        `filler` fills the placeholders outside the commands and the ``${...}``
        variables inside them. `via` says who activated the skill (for the gate)."""
        found: list[Diagnostic] = []
        ran = 0

        def run(command: Command) -> str:
            nonlocal ran
            ran += 1
            line = command.command if filler is None else filler.fill_variables(command.command)
            text, problem = self._command(skill, line, ran, via, command.command)
            if problem is not None:
                found.append(problem)
            return text

        return interpolate(body, run, None if filler is None else filler.fill), tuple(found)

    def script(
        self, skill: Skill, script: str, args: Sequence[str], timeout: float | None
    ) -> ToolResult:
        """Run a file from the skill's `scripts/` as argv, in the skill directory, through
        the interpreter `script_argv` chooses when it has no exec bit."""
        directory = skill.directory
        if directory is None:
            where = "it was defined in code and has no directory"
            return ToolResult.error(
                diagnostic("resource.missing", f"skill {skill.name!r} has no scripts: {where}")
            )
        try:
            segments = check_relative(script, root=directory)
            if not segments:
                message = f"the script path {quote(script)} names no file"
                return ToolResult.error(diagnostic("resource.path.invalid", message, directory))
            if segments[0] != "scripts":  # "extract.py" means scripts/extract.py
                segments = ("scripts", *segments)
            path = resolve_file(directory, "/".join(segments), areas=("scripts",))
        except ResourceError as e:
            return ToolResult.error(e.diagnostic)
        argv = self.argv(skill, path)
        if isinstance(argv, Diagnostic):
            return ToolResult.error(argv)
        limit = self.options.script_timeout
        wait = limit if timeout is None else max(0.001, min(float(timeout), limit))
        result = self._run([*argv, *args], skill, directory, wait)
        return _script_result(result)

    def _command(
        self, skill: Skill, command: str, number: int, via: Via, written: str
    ) -> tuple[str, Diagnostic | None]:
        shown = _shown(command)
        if self.options.disable_skill_shell_execution:
            message = f"skill {skill.name!r}: disableSkillShellExecution is set: {shown}"
            return DISABLED, diagnostic("exec.interpolation.refused", message, skill.path)
        refusal = self._refusal(skill, command, number)
        if refusal is None and self.held is not None:  # as written: what `satchel trust` pinned
            why = self.held(skill, number, written)
            refusal = None if why is None else f"{why}; `satchel trust` approves it again"
        if refusal is None and self.gate is not None:
            refusal = self.gate(skill, command, via)
        if refusal is not None:
            note = f"[satchel: not run, {refusal}: {shown}]"
            message = f"skill {skill.name!r}: {refusal}: {shown}"
            return note, diagnostic("exec.interpolation.refused", message, skill.path)
        result = self._run(
            [*self.options.shell, command], skill, self.cwd, self.options.shell_timeout
        )
        if result.ok:
            return result.stdout.removesuffix("\n"), None
        why = _failure(result, self.options.shell_timeout)
        message = f"skill {skill.name!r}: {why}: {shown}"
        problem = diagnostic("exec.interpolation.failed", message, skill.path)
        return f"[satchel: {why}: {shown}]", problem

    def _refusal(self, skill: Skill, command: str, number: int) -> str | None:
        if not self.options.allow_shell_interpolation:
            return "shell interpolation is off"
        if number > self.options.max_shell_commands:
            return f"more than {self.options.max_shell_commands} commands in one activation"
        if skill.scope == "mcp":  # the Skills extension: no implicit local execution
            return "a skill served over MCP may not run commands"
        if self.trusted_scopes is not None and skill.scope not in self.trusted_scopes:
            return f"skills from the {skill.scope or 'catalog'} scope may not run commands"
        if self.approve is not None and not self.approve(command, skill):
            return "the host refused it"
        return None

    def _run(self, argv: list[str], skill: Skill, cwd: Path, timeout: float) -> ProcessResult:
        return run_process(
            argv,
            cwd=cwd,
            env=self._env(skill),
            timeout=timeout,
            max_output=self.options.max_output,
        )

    def _env(self, skill: Skill) -> dict[str, str]:
        passed = {k: self.environ[k] for k in self.options.env_passthrough if k in self.environ}
        fixed = command_variables(skill.directory or self.cwd, self.project)
        env, _ = overlay_env(base_env(self.environ), passed, fixed=fixed)
        return env

    def argv(self, skill: Skill, path: Path) -> list[str] | Diagnostic:
        """How the script at `path` starts (see `satchel.session._interpreter`)."""
        search = self._env(skill).get("PATH")
        return script_argv(path, self.options.script_interpreters, search)


def _script_result(result: ProcessResult) -> ToolResult:
    data = result.to_json()
    if result.diagnostics and result.exit_code is None:
        problem = result.diagnostics[0]
        data["error"] = f"{problem.code}: {problem.message}"
        return ToolResult.of_data(data, is_error=True, code=problem.code)
    return ToolResult.of_data(data)


def _failure(result: ProcessResult, timeout: float) -> str:
    if result.timed_out:
        return f"command timed out after {timeout:g} s"
    if result.exit_code is None:
        problem = result.diagnostics[0].message if result.diagnostics else "unknown reason"
        return f"command could not start ({problem})"
    return f"command exited with status {result.exit_code}"


def _shown(command: str) -> str:
    text = escape(" ".join(command.split()))
    return text if len(text) <= _NOTE_CHARS else text[: _NOTE_CHARS - 1] + "…"
