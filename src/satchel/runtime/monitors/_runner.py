"""`MonitorRunner`: start a plugin's monitors, hand each line they print to the host, stop them.

A monitor (`satchel.plugins.Monitor`) is a shell command that runs in the background
for the session; each line it writes to stdout is an event for the model (Claude Code
delivers it as a ``<task_notification>``). Facts from Claude Code 2.1.332's plugin
schema and monitor loader (its binary; https://code.claude.com/docs/en/plugins-reference):

* the command runs unsandboxed, "same trust tier as hooks", through the shell, in the
  session's working directory; ``${CLAUDE_PLUGIN_ROOT}``, ``${CLAUDE_PLUGIN_DATA}`` and
  ``${CLAUDE_PROJECT_DIR}`` are substituted in its text; one naming
  ``${user_config.*}`` is refused for a plugin that declares options;
* every plugin monitor is skipped while the workspace is not trusted;
* ``always`` monitors arm at session start, ``on-skill-invoke:<skill>`` ones the first
  time that skill is dispatched; a monitor is armed once per session (by
  ``<plugin>:<name>``);
* a monitor that writes too much is stopped.

satchel runs it as ``/bin/sh -c COMMAND`` through `satchel.foundations.process.spawn_process` (its
own process group, a scrubbed environment: the base plus ``CLAUDE_PLUGIN_ROOT``,
``CLAUDE_PLUGIN_DATA``, ``CLAUDE_PROJECT_DIR``, ``PLUGIN_ROOT`` and ``PLUGIN_DATA``, the
data directory created first, and ``CLAUDE_PLUGIN_OPTION_<KEY>`` for each of the
plugin's ``userConfig`` options with a value, as for its hooks; Claude Code's own export
to monitors is unverified), with stdin closed (a command naming ``${user_config.*}``
does not load: ``plugin.monitor.user_config``). A plugin's monitors run only when
loading is not declarative-only and the environment's one trust decision lets an item
of its scope run (`Trust.runs`): a user plugin's in a trusted workspace, a project
plugin's when the project runs as well (`plugin.monitor.untrusted` otherwise), for
enabled plugins. Bounds: `max_line` bytes of one line (the rest of the line is
dropped and the event marked `cut`), `max_output` bytes of a monitor's whole output
(past it the monitor is stopped, `plugin.monitor.flood`) and `max_monitors` monitors
running at once (`plugin.monitor.limit`). A monitor that cannot start or ends with a
non-zero status gets `plugin.monitor.failed`, one that ends with 0
`plugin.monitor.exited`; either way its last event is an ``end`` event carrying that
diagnostic. `stop` ends every monitor: SIGTERM to its group, SIGKILL after `grace`
seconds. `reload` takes a reloaded environment: a monitor that went away (with its
plugin or from it) or whose entry changed is stopped, an unchanged one keeps running,
and the session-start ones not armed yet start (Claude Code's schema: "always" arms "at
session start and on plugin reload"; how it treats one still running is not documented:
keeping an unchanged one is satchel's rule). Nothing raises for what a monitor does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT
from satchel.foundations.process import base_env, overlay_env
from satchel.foundations.process._group import signal_group
from satchel.foundations.process._spawn import LongProcess, spawn_process
from satchel.plugins._data import ensure_data_dir
from satchel.plugins._model import Monitor, Plugin
from satchel.plugins._options import option_values
from satchel.plugins.components._user_config import option_environment
from satchel.trust._approval import programs_key

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment

__all__ = [
    "GRACE",
    "MAX_LINE",
    "MAX_MONITORS",
    "MAX_OUTPUT",
    "MonitorEvent",
    "MonitorRunner",
    "OnMonitorEvent",
    "SHELL",
]

SHELL = "/bin/sh"
MAX_LINE = 64 * 1024  # bytes of one line kept
MAX_OUTPUT = 16 * 1024 * 1024  # bytes one monitor may write before it is stopped
MAX_MONITORS = 32  # monitors running at once
GRACE = 1.0  # seconds between SIGTERM and SIGKILL
_CHUNK = 64 * 1024
_TAIL = 400  # characters of stderr quoted when a monitor fails


@model
class MonitorEvent:
    """What a monitor did: a ``line`` it printed (`text`, without its newline; `cut`
    when it was longer than the runner's `max_line`), or its ``end`` (`diagnostic` says
    how it ended; None when the runner stopped it)."""

    monitor: Monitor
    kind: Literal["line", "end"]
    text: str = ""
    cut: bool = False
    diagnostic: Diagnostic | None = None

    @property
    def id(self) -> str:
        """``<plugin>:<name>``, the key a monitor is armed once by."""
        return f"{self.monitor.plugin}:{self.monitor.name}"


OnMonitorEvent = Callable[[MonitorEvent], None]


@dataclass(slots=True, eq=False)
class _Running:
    monitor: Monitor
    process: LongProcess
    task: asyncio.Task[None] | None = None
    stopping: bool = False


@dataclass(slots=True, eq=False)
class _State:
    armed: set[str] = field(default_factory=set)
    running: dict[str, _Running] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


_END = object()


class MonitorRunner:
    """Runs an environment's plugin monitors on the running asyncio loop.

    * `on_event`: called with every `MonitorEvent`, on the loop; without it, read
      `events()` (with it, `events()` gives nothing and ends at `stop`).
    * `environ`: the environment the scrubbed base is taken from [os.environ].
    * `max_line`, `max_output`, `max_monitors`, `grace`: the bounds (module docstring).
    * `on_problem`: called with each diagnostic as it is made (they are also kept in
      `diagnostics`)."""

    def __init__(
        self,
        environment: Environment,
        *,
        on_event: OnMonitorEvent | None = None,
        environ: Mapping[str, str] | None = None,
        max_line: int = MAX_LINE,
        max_output: int = MAX_OUTPUT,
        max_monitors: int = MAX_MONITORS,
        grace: float = GRACE,
        on_problem: Callable[[Diagnostic], None] | None = None,
    ) -> None:
        if max_line <= 0 or max_output <= 0 or max_monitors <= 0 or grace < 0:
            raise ValueError("the bounds must be positive (grace: not negative)")
        self.environment = environment
        self.on_event = on_event
        self.environ = os.environ if environ is None else environ
        self.max_line, self.max_output = max_line, max_output
        self.max_monitors, self.grace = max_monitors, grace
        self.on_problem = on_problem
        self._state = _State()
        self._queue: asyncio.Queue[MonitorEvent | object] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._refused = False
        self._rearm_lock = asyncio.Lock()
        self.rearming: Future[tuple[str, ...]] | None = None  # the last `reload`'s re-arm

    # -- what may run ---------------------------------------------------------------

    def allowed(self, plugin: Plugin) -> bool:
        """`plugin`'s monitors run: loading is not declarative-only and the
        environment's one trust decision lets an item of the plugin's scope run
        (`Trust.runs`): a user plugin's wherever the workspace is trusted (Claude Code
        skips every plugin monitor without workspace trust), a project plugin's when
        the project runs too, and not while its programs are held back since
        `satchel trust`."""
        trust, project = self.environment.trust, plugin.scope == PROJECT
        key = programs_key(plugin.name)
        return self.environment.options.executable and trust.runs(project, key=key, workspace=True)

    def monitors(self) -> tuple[tuple[Plugin, Monitor], ...]:
        """Every monitor of the enabled plugins, in plugin precedence order."""
        return tuple((p, m) for p in self.environment.plugins.enabled() for m in p.monitors)

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(self._state.diagnostics)

    @property
    def running(self) -> tuple[str, ...]:
        """The ids (``<plugin>:<name>``) of the monitors running now."""
        return tuple(self._state.running)

    # -- starting -------------------------------------------------------------------

    async def start(self) -> tuple[str, ...]:
        """Start the monitors that arm at session start (``always``); the ids started."""
        self._loop = asyncio.get_running_loop()
        return await self._start(lambda m: m.skill is None)

    async def start_for_skill(self, skill: str) -> tuple[str, ...]:
        """Start the monitors bound to `skill` (its name as the session knows it: a
        plugin's ``on-skill-invoke:hello`` matches ``hello`` and ``<namespace>:hello``)."""
        self._loop = asyncio.get_running_loop()
        return await self._start(lambda m: m.skill is not None, skill)

    def arm_skill(self, skill: str) -> Future[tuple[str, ...]] | None:
        """`start_for_skill` from synchronous code (a skill's activation), on the loop
        `start` ran on; None before `start` or when no monitor is bound to a skill."""
        loop = self._loop
        if loop is None or loop.is_closed() or not any(m.skill for _, m in self.monitors()):
            return None
        return asyncio.run_coroutine_threadsafe(self.start_for_skill(skill), loop)

    async def _start(
        self,
        chosen: Callable[[Monitor], bool],
        skill: str | None = None,
    ) -> tuple[str, ...]:
        found = [(p, m) for p, m in self.monitors() if chosen(m)]
        if skill is not None:
            found = [(p, m) for p, m in found if skill in (m.skill, f"{p.namespace}:{m.skill}")]
        if not found:
            return ()
        refused = [(p, m) for p, m in found if not self.allowed(p)]
        if refused:
            self._refuse(refused)
            found = [(p, m) for p, m in found if self.allowed(p)]
        started: list[str] = []
        for plugin, monitor in found:
            key = f"{plugin.name}:{monitor.name}"
            if key in self._state.armed:
                continue
            if len(self._state.running) >= self.max_monitors:
                message = (
                    f"monitor {key!r} does not start: {self.max_monitors} monitors are "
                    "running, the most max_monitors allows"
                )
                self._problem(diagnostic("plugin.monitor.limit", message, monitor.path))
                continue
            self._state.armed.add(key)
            if await self._launch(plugin, monitor, key):
                started.append(key)
        return tuple(started)

    def _refuse(self, refused: list[tuple[Plugin, Monitor]]) -> None:
        if self._refused:
            return
        self._refused = True
        trust = self.environment.trust
        projects = any(p.scope == PROJECT for p, _ in refused)
        why = (
            "loading is declarative-only"
            if not self.environment.options.executable
            else "the project folder is not trusted"
            if not trust.folder
            else "the host turned the project off"
            if projects and not trust.run_project
            else "their plugin changed since the folder was trusted"
        )
        message = f"{len(refused)} plugin monitor(s) do not run: {why}"
        self._problem(diagnostic("plugin.monitor.untrusted", message, hint="satchel trust DIR"))

    async def _launch(self, plugin: Plugin, monitor: Monitor, key: str) -> bool:
        try:
            env = self._env(plugin)
        except OSError as e:
            why = f"its plugin data directory cannot be made ({e})"
            self._ended(monitor, _failed(monitor, why))
            return False
        command = _substitute(monitor.command, env)
        cwd = self.environment.layout.cwd
        process, problems = await spawn_process((SHELL, "-c", command), cwd=cwd, env=env)
        if process is None:
            why = problems[0].message if problems else "it did not start"
            self._ended(monitor, _failed(monitor, why))
            return False
        with contextlib.suppress(OSError, RuntimeError):
            process.stdin.close()
        running = _Running(monitor, process)
        self._state.running[key] = running
        running.task = asyncio.get_running_loop().create_task(self._read(key, running))
        return True

    def _env(self, plugin: Plugin) -> dict[str, str]:
        fixed = {
            "CLAUDE_PROJECT_DIR": str(self.environment.layout.project),
            "CLAUDE_PLUGIN_ROOT": str(plugin.root),
            "PLUGIN_ROOT": str(plugin.root),
        }
        if plugin.data_dir is not None:
            ensure_data_dir(plugin.data_dir)
            fixed["CLAUDE_PLUGIN_DATA"] = fixed["PLUGIN_DATA"] = str(plugin.data_dir)
        if plugin.user_config:
            options = option_values(self.environment.layout, plugin)
            for problem in options.diagnostics:
                self._problem(problem)
            fixed |= option_environment(plugin.user_config, options.values)
        env, _ = overlay_env(base_env(self.environ), {}, fixed=fixed)
        return env

    # -- reading --------------------------------------------------------------------

    async def _read(self, key: str, running: _Running) -> None:
        """Every line until the monitor's output ends (or floods); then its end."""
        stream = running.process.stdout
        pending, total, cut = b"", 0, False
        flooded = False
        while chunk := await stream.read(_CHUNK):
            total += len(chunk)
            if total > self.max_output:
                flooded = True
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if not cut:  # the rest of a line already cut is dropped
                    self._line(running.monitor, line, False)
                cut = False
            if len(pending) > self.max_line:
                if not cut:
                    self._line(running.monitor, pending, True)
                pending, cut = b"", True
        if pending and not cut and not flooded:
            self._line(running.monitor, pending, False)
        if flooded:
            await self._kill(running)
        await running.process.stop(self.grace)
        self._state.running.pop(key, None)
        self._ended(running.monitor, self._how_it_ended(running, flooded))

    def _line(self, monitor: Monitor, line: bytes, cut: bool) -> None:
        text = line[: self.max_line].decode("utf-8", "replace").removesuffix("\r")
        self._emit(MonitorEvent(monitor, "line", text, cut or len(line) > self.max_line))

    def _how_it_ended(self, running: _Running, flooded: bool) -> Diagnostic | None:
        monitor, process = running.monitor, running.process
        if flooded:
            message = (
                f"monitor {_label(monitor)} wrote more than {self.max_output} bytes; it was stopped"
            )
            return diagnostic("plugin.monitor.flood", message, monitor.path)
        if running.stopping:
            return None
        status = process.returncode
        if status == 0:
            message = f"monitor {_label(monitor)} ended on its own (status 0)"
            return diagnostic("plugin.monitor.exited", message, monitor.path)
        how = (
            f"was killed by signal {-status}"
            if status is not None and status < 0
            else (f"exited with status {status}")
        )
        tail = process.stderr().strip()[-_TAIL:]
        return _failed(monitor, how + (f": {tail}" if tail else ""), started=True)

    def _ended(self, monitor: Monitor, problem: Diagnostic | None) -> None:
        if problem is not None:
            self._problem(problem)
        self._emit(MonitorEvent(monitor, "end", diagnostic=problem))

    def _emit(self, event: MonitorEvent) -> None:
        if self.on_event is None:
            self._queue.put_nowait(event)  # kept for `events()` only when no callback takes it
        else:
            self.on_event(event)

    def _problem(self, problem: Diagnostic) -> None:
        self._state.diagnostics.append(problem)
        if self.on_problem is not None:
            self.on_problem(problem)

    async def events(self) -> AsyncIterator[MonitorEvent]:
        """Every event, in order, until `stop` has ended every monitor."""
        while (event := await self._queue.get()) is not _END:
            assert isinstance(event, MonitorEvent)
            yield event

    # -- reloading ------------------------------------------------------------------

    def reload(self, environment: Environment) -> Future[tuple[str, ...]] | None:
        """Take `environment` (a reload's) now and, on the loop `start` ran on, `rearm`
        the monitors to it: the future of that (also kept as `rearming`, for a host
        that waits for it); None before `start` (the next `start` reads `environment`)."""
        previous = self._by_id()
        self.environment = environment
        loop = self._loop
        if loop is None or loop.is_closed():
            return None
        self.rearming = asyncio.run_coroutine_threadsafe(self.rearm(previous), loop)
        return self.rearming

    async def rearm(self, previous: Mapping[str, Monitor]) -> tuple[str, ...]:
        """Match the monitors to `environment`, `previous` being what they were armed
        from: one its plugin no longer has (the plugin went away or was disabled, or the
        monitor was removed) or whose entry changed is stopped and may arm again; an
        unchanged one keeps running (and one that ended stays armed: once a session);
        a session-start one not armed (new, or changed) starts. The ids started."""
        async with self._rearm_lock:  # one reload after the other
            wanted = self._by_id()
            changed = {
                k for k in self._state.armed if k not in wanted or previous.get(k) != wanted[k]
            }
            for key in changed:
                running = self._state.running.get(key)
                if running is not None:
                    await self._stop_one(running)
            self._state.armed -= changed
            return await self.start()

    def _by_id(self) -> dict[str, Monitor]:
        return {f"{p.name}:{m.name}": m for p, m in self.monitors()}

    async def _stop_one(self, running: _Running) -> None:
        """End one monitor as `stop` does; its ``end`` event follows."""
        running.stopping = True
        signal_group(running.process.pid, signal.SIGTERM)
        if running.task is None:
            return
        _, late = await asyncio.wait([running.task], timeout=self.grace)
        if late:
            signal_group(running.process.pid, signal.SIGKILL)
            await asyncio.wait(late)

    # -- stopping -------------------------------------------------------------------

    async def stop(self) -> None:
        """End every running monitor (SIGTERM to its group, SIGKILL after `grace`) and
        close `events()`. Idempotent; never raises for what a monitor does."""
        running = list(self._state.running.values())
        for item in running:
            item.stopping = True
            signal_group(item.process.pid, signal.SIGTERM)
        tasks = [item.task for item in running if item.task is not None]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=self.grace)
            for item in running:
                if item.task in late:
                    signal_group(item.process.pid, signal.SIGKILL)
            if late:
                await asyncio.wait(late)
        self._queue.put_nowait(_END)

    async def _kill(self, running: _Running) -> None:
        signal_group(running.process.pid, signal.SIGTERM)
        if not await _exits(running.process, self.grace):
            signal_group(running.process.pid, signal.SIGKILL)


async def _exits(process: LongProcess, seconds: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not process.exited():
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.01)
    return True


_PLACEHOLDERS = ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR")


def _substitute(text: str, env: Mapping[str, str]) -> str:
    """``${CLAUDE_PLUGIN_ROOT}``, ``${CLAUDE_PLUGIN_DATA}`` and ``${CLAUDE_PROJECT_DIR}``
    replaced in the command's text, as Claude Code does (the shell sees the values)."""
    for name in _PLACEHOLDERS:
        if name in env:
            text = text.replace("${" + name + "}", env[name])
    return text


def _label(monitor: Monitor) -> str:
    return repr(f"{monitor.plugin}:{monitor.name}")


def _failed(monitor: Monitor, why: str, *, started: bool = False) -> Diagnostic:
    verb = "" if started else "could not start: "
    message = f"monitor {_label(monitor)} {verb}{why}"
    return diagnostic("plugin.monitor.failed", message, monitor.path)
