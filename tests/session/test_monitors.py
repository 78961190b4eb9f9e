"""Plugin monitors run as real processes: lines become events, an exit is reported, a
monitor that never ends is stopped; skill-bound ones start on activation; an untrusted
folder runs none. And bin/: the session's PATH runs a plugin's executable by name."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import satchel
from satchel.foundations.process._spawn import LongProcess
from satchel.plugins._options import write_values
from satchel.runtime import MonitorEvent, MonitorRunner
from satchel.session import Session
from tests.support import codes, put, skill_md

BOUND = 30.0  # seconds a test waits for an event: a "did not hang" bound, not a speed claim


def kit(tmp_path: Path, monitors: list[dict[str, Any]]) -> Path:
    """The plugin ``kit``: Python scripts in scripts/, a skill ``ship``, `monitors`."""
    root = tmp_path / "plugins" / "kit"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    put(root, "monitors/monitors.json", json.dumps(monitors))
    put(root, "skills/ship/SKILL.md", skill_md("ship", "Ships the build."))
    put(
        root,
        "scripts/lines.py",
        "import os\nprint('first')\nprint('root', os.environ['CLAUDE_PLUGIN_ROOT'])\n",
    )
    put(root, "scripts/fails.py", "import sys\nprint('about to fail')\nsys.exit('disk full')\n")
    put(
        root,
        "scripts/forever.py",
        "import time\nprint('armed', flush=True)\nwhile True:\n    time.sleep(1)\n",
    )
    return root


def monitor(name: str, script: str, when: str = "always") -> dict[str, Any]:
    command = f'"{sys.executable}" "${{CLAUDE_PLUGIN_ROOT}}/scripts/{script}"'
    return {"name": name, "command": command, "description": f"{name} watch", "when": when}


def session_of(layout: satchel.Layout, plugin: Path, **load: Any) -> Session:
    env = satchel.load(layout=layout, plugin_dirs=[plugin], **load)
    return Session(env, environ={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


async def until_end(runner: MonitorRunner, count: int = 1) -> list[MonitorEvent]:
    """Events until `count` monitors have ended."""
    seen: list[MonitorEvent] = []
    async with asyncio.timeout(BOUND):
        async for event in runner.events():
            seen.append(event)
            if sum(e.kind == "end" for e in seen) == count:
                return seen
    return seen


def test_lines_become_events_and_an_exit_is_reported(layout, tmp_path):
    plugin = kit(tmp_path, [monitor("lines", "lines.py"), monitor("fails", "fails.py")])
    session = session_of(layout, plugin)

    async def run() -> list[MonitorEvent]:
        runner = await session.plugins.start_monitors()
        assert sorted(runner.running) == ["kit:fails", "kit:lines"]
        try:
            return await until_end(runner, 2)
        finally:
            await session.plugins.aclose()

    events = asyncio.run(run())
    lines = [(e.monitor.name, e.text) for e in events if e.kind == "line"]
    assert [t for n, t in lines if n == "lines"] == ["first", f"root {plugin.resolve()}"]
    assert [t for n, t in lines if n == "fails"] == ["about to fail"]
    ends = {e.monitor.name: e.diagnostic for e in events if e.kind == "end"}
    assert ends["lines"] is not None and ends["fails"] is not None
    assert (ends["lines"].code, ends["lines"].message) == (
        "plugin.monitor.exited",
        "monitor 'kit:lines' ended on its own (status 0)",
    )
    assert (ends["fails"].code, ends["fails"].message) == (
        "plugin.monitor.failed",
        "monitor 'kit:fails' exited with status 1: disk full",
    )
    assert set(codes(session.diagnostics)) == {"plugin.monitor.exited", "plugin.monitor.failed"}


def test_a_monitor_that_never_ends_is_stopped_with_its_session(layout, tmp_path):
    plugin = kit(tmp_path, [monitor("forever", "forever.py")])
    session = session_of(layout, plugin)

    async def run() -> tuple[list[MonitorEvent], LongProcess]:
        runner = await session.plugins.start_monitors()
        process = runner._state.running["kit:forever"].process
        events: list[MonitorEvent] = []
        async with asyncio.timeout(BOUND):
            async for event in runner.events():
                events.append(event)
                if event.kind == "line":
                    await session.plugins.aclose()
        return events, process

    events, process = asyncio.run(run())
    assert [(e.kind, e.text, e.diagnostic) for e in events] == [
        ("line", "armed", None),
        ("end", "", None),  # stopped by the session: no problem to report
    ]
    assert session.diagnostics == ()
    assert process.returncode is not None and process.returncode < 0  # ended by a signal, reaped


def test_a_skill_bound_monitor_starts_when_its_skill_is_activated(layout, tmp_path):
    plugin = kit(tmp_path, [monitor("deploy", "lines.py", when="on-skill-invoke:ship")])
    session = session_of(layout, plugin)

    async def run() -> tuple[tuple[str, ...], list[MonitorEvent]]:
        runner = await session.plugins.start_monitors()
        before = runner.running
        session.activate("kit:ship")
        try:
            return before, await until_end(runner)
        finally:
            await session.plugins.aclose()

    before, events = asyncio.run(run())
    assert before == ()
    assert [e.text for e in events if e.kind == "line"] == ["first", f"root {plugin.resolve()}"]
    assert events[-1].diagnostic is not None
    assert events[-1].diagnostic.code == "plugin.monitor.exited"


def test_an_untrusted_folder_runs_no_monitor(layout, tmp_path):
    marker = tmp_path / "ran"
    command = f"touch {marker}"
    plugin = kit(tmp_path, [{"name": "touch", "command": command, "description": "d"}])
    session = session_of(layout, plugin, trusted=False)

    async def run() -> tuple[str, ...]:
        runner = await session.plugins.start_monitors()
        await session.plugins.aclose()
        return runner.running

    assert asyncio.run(run()) == ()
    assert not marker.exists()
    assert [(d.code, d.message) for d in session.diagnostics] == [
        (
            "plugin.monitor.untrusted",
            "1 plugin monitor(s) do not run: the project folder is not trusted",
        )
    ]


def project_kit(project: Path, marker: Path) -> Path:
    """The project plugin ``lens``: a monitor that touches `marker`, and bin/lens-hello."""
    root = project / ".satchel" / "plugins" / "lens"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "lens"}))
    watch = {"name": "touch", "command": f"touch {marker}", "description": "d"}
    put(root, "monitors/monitors.json", json.dumps([watch]))
    put(root, "bin/lens-hello", "#!/bin/sh\necho hello from lens\n", mode=0o755)
    return root


def test_a_trusted_folder_whose_project_is_hidden_runs_the_users_monitors_only(
    layout, project, tmp_path
):
    """One rule by scope (`Trust.runs`): with the project hidden in a trusted folder
    (``trust_project_skills=False``) the user's plugin runs its monitor and its bin/ is
    on PATH, as its hooks run; the project plugin's do not."""
    ran, project_ran = tmp_path / "ran", tmp_path / "project-ran"
    plugin = kit(tmp_path, [{"name": "touch", "command": f"touch {ran}", "description": "d"}])
    put(plugin, "bin/kit-hello", "#!/bin/sh\necho hello from kit\n", mode=0o755)
    project_kit(project, project_ran)
    session = session_of(layout, plugin, trust_project_skills=False)
    assert (session.environment.trust.folder, session.environment.trust.state) == (True, "hidden")

    async def run() -> list[MonitorEvent]:
        runner = await session.plugins.start_monitors()
        assert runner.running == ("kit:touch",)
        try:
            return await until_end(runner)
        finally:
            await session.plugins.aclose()

    assert [e.kind for e in asyncio.run(run())] == ["end"]
    assert ran.exists() and not project_ran.exists()
    assert "plugin.monitor.untrusted" not in codes(session.diagnostics)
    assert (
        session.plugins.shell_path("/usr/bin") == f"{plugin.resolve() / 'bin'}{os.pathsep}/usr/bin"
    )


def test_a_trusted_projects_plugin_runs_its_monitor_and_its_bin_beside_the_users(
    layout, project, tmp_path
):
    ran = tmp_path / "project-ran"
    lens = project_kit(project, ran)
    plugin = kit(tmp_path, [])
    put(plugin, "bin/kit-hello", "#!/bin/sh\necho hello from kit\n", mode=0o755)
    session = session_of(layout, plugin)

    async def run() -> None:
        runner = await session.plugins.start_monitors()
        try:
            await until_end(runner)
        finally:
            await session.plugins.aclose()

    asyncio.run(run())
    assert ran.exists()
    bins = session.plugins.shell_path("").split(os.pathsep)
    assert sorted(bins) == sorted([str(lens.resolve() / "bin"), str(plugin.resolve() / "bin")])


def test_the_shell_path_runs_a_plugins_executable_by_name(layout, tmp_path):
    plugin = kit(tmp_path, [])
    put(plugin, "bin/kit-hello", "#!/bin/sh\necho hello from kit\n", mode=0o755)
    session = session_of(layout, plugin)
    before = dict(os.environ)
    env = session.plugins.shell_env()
    assert env["PATH"].split(os.pathsep)[0] == str(plugin.resolve() / "bin")
    assert (
        session.plugins.shell_path("/usr/bin") == f"{plugin.resolve() / 'bin'}{os.pathsep}/usr/bin"
    )
    done = subprocess.run(
        ["kit-hello"], env=env, capture_output=True, text=True, check=True, timeout=BOUND
    )
    assert done.stdout == "hello from kit\n"
    assert dict(os.environ) == before
    untrusted = session_of(layout, plugin, trusted=False)
    assert untrusted.plugins.shell_path("/usr/bin") == "/usr/bin"


def test_a_long_line_is_cut_a_flood_is_stopped_and_the_count_is_capped(layout, tmp_path):
    plugin = kit(
        tmp_path,
        [monitor("long", "long.py"), monitor("flood", "flood.py"), monitor("third", "lines.py")],
    )
    go = tmp_path / "go"  # the two monitors end only once the cap was judged, not before
    put(
        plugin,
        "scripts/long.py",
        "import os, sys, time\nprint('x' * 100 + 'TAIL')\nprint('short', flush=True)\n"
        f"while not os.path.exists({str(go)!r}):\n    time.sleep(0.01)\n",
    )
    put(
        plugin,
        "scripts/flood.py",
        f"import os, sys, time\nwhile not os.path.exists({str(go)!r}):\n    time.sleep(0.01)\n"
        "while True:\n    sys.stdout.write('y' * 999 + '\\n')\n",
    )
    env = satchel.load(layout=layout, plugin_dirs=[plugin])

    async def run() -> tuple[MonitorRunner, list[MonitorEvent]]:
        runner = MonitorRunner(env, max_line=10, max_output=4096, max_monitors=2)
        try:  # stopped whatever fails, so no process outlives the test
            assert await runner.start() == ("kit:long", "kit:flood")
            go.touch()
            return runner, await until_end(runner, 2)
        finally:
            await runner.stop()

    runner, events = asyncio.run(run())
    long = [(e.text, e.cut) for e in events if e.monitor.name == "long" and e.kind == "line"]
    assert long == [("x" * 10, True), ("short", False)]
    assert [(d.code, d.message) for d in runner.diagnostics] == [
        (
            "plugin.monitor.limit",
            "monitor 'kit:third' does not start: 2 monitors are running, the most "
            "max_monitors allows",
        ),
        *[(d.code, d.message) for d in runner.diagnostics[1:]],
    ]
    ended = {d.code: d.message for d in runner.diagnostics[1:]}
    assert ended == {
        "plugin.monitor.exited": "monitor 'kit:long' ended on its own (status 0)",
        "plugin.monitor.flood": "monitor 'kit:flood' wrote more than 4096 bytes; it was stopped",
    }


def test_reload_stops_monitors_that_went_away_keeps_the_rest_and_starts_new_ones(layout, tmp_path):
    """A monitor of a plugin that went away is stopped, an unchanged one keeps its
    process, and a session-start one the reload brought starts."""
    plugin = kit(tmp_path, [monitor("keep", "forever.py")])
    other = tmp_path / "plugins" / "other"
    put(other, ".claude-plugin/plugin.json", json.dumps({"name": "other"}))
    put(other, "monitors/monitors.json", json.dumps([monitor("gone", "forever.py")]))
    put(other, "scripts/forever.py", (plugin / "scripts/forever.py").read_text())
    env = satchel.load(layout=layout, plugin_dirs=[plugin, other])
    session = Session(env, environ={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})

    async def run() -> tuple[tuple[str, ...], tuple[str, ...], bool, int | None]:
        runner = await session.plugins.start_monitors()
        kept = runner._state.running["kit:keep"].process
        gone = runner._state.running["other:gone"].process
        before = runner.running
        armed: set[str] = set()  # both have read their script before it is removed
        async with asyncio.timeout(BOUND):
            async for event in runner.events():
                armed |= {event.id} if (event.kind, event.text) == ("line", "armed") else set()
                if armed == {"kit:keep", "other:gone"}:
                    break
        subprocess.run(["rm", "-r", str(other)], check=True)
        put(plugin, "monitors/monitors.json",
            json.dumps([monitor("keep", "forever.py"), monitor("new", "forever.py")]))  # fmt: skip
        session.reload()
        assert runner.environment is session.environment and runner.rearming is not None
        assert await asyncio.wrap_future(runner.rearming) == ("kit:new",)
        try:
            same = runner._state.running["kit:keep"].process is kept and not kept.exited()
            return before, runner.running, same, gone.returncode
        finally:
            await session.plugins.aclose()

    before, after, same, gone = asyncio.run(run())
    assert sorted(before) == ["kit:keep", "other:gone"]
    assert sorted(after) == ["kit:keep", "kit:new"]
    assert same
    assert gone is not None and gone < 0  # stopped by a signal, reaped


def test_a_monitor_gets_its_plugins_options_in_its_environment(layout, tmp_path):
    """The values reach the script as CLAUDE_PLUGIN_OPTION_<KEY>, as a hook's do (a
    command naming ``${user_config.*}`` does not load at all)."""
    code = "import os; print(os.environ['CLAUDE_PLUGIN_OPTION_REGION'])"
    plugin = kit(tmp_path, [{"name": "reads", "command": f'"{sys.executable}" -c "{code}"',
                             "description": "d"}])  # fmt: skip
    region = {"type": "string", "title": "Region", "description": "d", "required": True}
    manifest = {"name": "kit", "userConfig": {"region": region}}
    put(plugin, ".claude-plugin/plugin.json", json.dumps(manifest))
    session = session_of(layout, plugin)
    assert write_values(layout, session.environment.plugins.plugins["kit"], {"region": "eu"}) == []

    async def run() -> list[MonitorEvent]:
        runner = await session.plugins.start_monitors()
        try:
            return await until_end(runner)
        finally:
            await session.plugins.aclose()

    assert [e.text for e in asyncio.run(run()) if e.kind == "line"] == ["eu"]
