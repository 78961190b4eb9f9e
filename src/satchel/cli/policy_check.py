"""`satchel policy check`: the policy in force, and what this machine and project
would have refused of them (docs/policy.md): what they would load, and what is
installed in each scope that ``require_signed`` or ``require_digest`` would refuse.

Exit codes, for CI: 0 the policy refuses nothing here and its files are clean; 1 it
refuses something here, or a policy file holds an unknown key or one that tries to
loosen a file above it; 4 a policy file cannot be read, so the policy fails closed.
"""

from __future__ import annotations

from typing import Any

from satchel.assembly._environment import Environment
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, POLICY_CLOSED, PROBLEMS
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project
from satchel.core.diagnostics import Diagnostic
from satchel.install._policy import installed_refusals

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """Show the policy in force and what it refuses of this machine and project.

    The system's policy.toml, then the user's and the project's, merged; then every
    skill, plugin, hook, MCP server and trust the project asks for that the policy
    refuses, each naming the key and the file, and every installed skill or plugin
    that require_signed or require_digest would refuse. Exit 1 when anything is
    refused or a policy file needs fixing, 4 when a policy file cannot be read (fail
    closed)."""
    env = loaded(here)
    found = (*policy_diagnostics(env), *installed_refusals(env.layout, env.policy))
    code = exit_code(found)
    if as_json:
        out.print_json(document(env), found)
        return code
    say_project(env.layout, here.project)
    show_policy(env)
    refused = [d for d in found if d.code == "policy.denied"]
    installed = [d for d in found if d.code in _INSTALLED]
    for d in [d for d in found if d not in refused and d not in installed]:
        out.say(f"{d.severity}: {d.message}")
    if refused:
        out.say(f"{len(refused)} refused:")
        for d in refused:
            out.say(f"  {d.message}")
    if installed:
        out.say(f"{len(installed)} installed that the policy would refuse:")
        for d in installed:
            out.say(f"  {d.code}: {d.message}")
    elif code == OK:
        out.say("Nothing here is refused by the policy.")
    return code


_INSTALLED = ("policy.installed.digest", "policy.installed.signer", "policy.installed.unsigned")


def policy_diagnostics(env: Environment) -> tuple[Diagnostic, ...]:
    """The environment's diagnostics that are the policy's."""
    return tuple(d for d in env.diagnostics if d.code.startswith("policy."))


def exit_code(found: tuple[Diagnostic, ...]) -> int:
    if any(d.code == "policy.invalid" for d in found):
        return POLICY_CLOSED
    return PROBLEMS if found else OK


def show_policy(env: Environment) -> None:
    """The policy in force: its files and each key it sets (shared with doctor)."""
    policy = env.policy
    if not policy.files:
        out.say("Policy: no policy file; nothing is restricted.")
        return
    out.say("Policy files: " + ", ".join(str(p) for p in policy.files))
    for key, value, path in policy.rows():
        out.say(f"  {key} = {value}" + ("" if path is None else f"  ({path})"))


def document(env: Environment) -> dict[str, Any]:
    policy = env.policy
    return {
        "project": str(env.layout.project),
        "files": [str(p) for p in policy.files],
        "closed": policy.closed is not None,
        "plugins": [p.name for p in env.plugins.enabled()],  # what was checked with it
        "keys": [
            {"key": k, "value": v, "path": None if p is None else str(p)}
            for k, v, p in policy.rows()
        ],
    }
