"""`PluginRuntime`: what the enabled plugins run beside one session.

Their monitors (`satchel.runtime.monitors`), started by the host's event loop and
armed when a skill they are bound to is activated, and their ``bin/`` directories,
put on the PATH of the host's shell tool (`satchel.session._shell_path`).
"""

from __future__ import annotations

from collections.abc import Mapping

import satchel.session._shell_path as bin_path
from satchel.assembly._environment import Environment
from satchel.runtime.monitors._runner import MonitorRunner, OnMonitorEvent
from satchel.session._activation import Activation
from satchel.session._hooks import Note

__all__ = ["PluginRuntime"]


class PluginRuntime:
    """The plugins' monitors and ``bin/`` directories for one session's `Activation`."""

    def __init__(self, activation: Activation, note: Note) -> None:
        self._activation = activation
        self._note = note
        self._monitors: MonitorRunner | None = None

    async def start_monitors(self, on_event: OnMonitorEvent | None = None) -> MonitorRunner:
        """Start the enabled plugins' monitors that arm at session start (and those bound
        to a skill already active); the runner, whose `events()` (or `on_event`) gives
        each line they print. A monitor bound to a skill starts when that skill is
        activated; `aclose()` stops them all. Their problems go to `diagnostics`. A
        second call gives the running runner (docs/plugins.md, "Monitors")."""
        if self._monitors is None:
            self._monitors = MonitorRunner(
                self._activation.environment,
                on_event=on_event,
                environ=self._activation.runner.environ,
                on_problem=lambda problem: self._note((problem,)),
            )
            await self._monitors.start()
            for held in self._activation.active:
                await self._monitors.start_for_skill(held.name)
        return self._monitors

    def arm(self, skill: str) -> None:
        """`skill` was activated: start its ``on-skill-invoke`` monitors, if running."""
        if self._monitors is not None:
            self._monitors.arm_skill(skill)

    def adopt(self, environment: Environment) -> None:
        """Running monitors follow `environment` (`MonitorRunner.reload`)."""
        if self._monitors is not None:  # re-armed on the loop they run on
            self._monitors.reload(environment)

    async def aclose(self) -> None:
        """End what the session keeps running: every monitor is stopped."""
        running, self._monitors = self._monitors, None
        if running is not None:
            await running.stop()

    def shell_path(self, base: str | None = None) -> str:
        """The PATH for the host's shell tool: the trusted, enabled plugins' ``bin/``
        directories before `base` [the session's environment's PATH]."""
        environ = self._activation.runner.environ
        return bin_path.shell_path(
            self._activation.environment, environ.get("PATH", "") if base is None else base
        )

    def shell_env(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """A copy of `base` [the session's environment] with `shell_path` as its PATH;
        ``os.environ`` is never changed."""
        environ = self._activation.runner.environ
        return bin_path.shell_env(self._activation.environment, environ if base is None else base)
