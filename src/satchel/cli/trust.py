"""`satchel trust [DIR]`: put a folder on the user's list of trusted folders;
`satchel trust --from HOST`: put there the folders another host trusts (Claude Code's
``hasTrustDialogAccepted``), each named, only when the user asks;
`satchel trust --header-helper HOST`: approve the header helper config.toml gives for
HOST (`satchel.install._auth`), pinned by its exact text in the same list."""

from __future__ import annotations

import os
from pathlib import Path

import click

from satchel.assembly._environment import load
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import trust_params
from satchel.core.errors import TrustStoreError
from satchel.core.layout import Layout
from satchel.hosts._trust import host_trusted_folders
from satchel.trust._approval import digests
from satchel.trust._trust import TrustList, approve_helper, read_trust, trust

LOADS = "its plugins, hooks, MCP servers and !`cmd` lines load"
PINNED = "if one changes, it does not run until you trust the folder again"

HELPER = "satchel runs it when it fetches from that host; if its text changes, it does not run"


def helper_option() -> click.Option:
    return click.Option(
        ["--header-helper", "header_helper"],
        metavar="HOST",
        help="Approve (or, with untrust, stop approving) the header helper that "
        'config.toml\'s [install.auth."HOST"] names, by its exact text.',
    )


def from_option() -> click.Option:
    return click.Option(
        ["--from", "from_host"],
        metavar="HOST",
        help="Trust the folders HOST trusts (claude-code: those whose trust dialog was "
        "accepted, in ~/.claude.json), each pinned as `satchel trust DIR` pins it, and "
        "name them. satchel never reads another host's trust unless asked.",
    )


PARAMS = (*trust_params(listing=True), from_option(), helper_option())


def run(
    *,
    here: Here,
    show_list: bool,
    from_host: str | None,
    header_helper: str | None,
    as_json: bool,
) -> int:
    """Trust a folder: its plugins, hooks, MCP servers and !`cmd` lines may load.

    DIR defaults to the project root, the one `satchel list` reports. Folders below
    a trusted folder are trusted too. The list is kept in the user's config directory
    only, so a project cannot trust itself. --list prints the list. --from HOST
    trusts the folders HOST trusts (claude-code: ~/.claude.json's folders whose trust
    dialog was accepted), naming each. --header-helper HOST approves the header helper
    config.toml names for HOST instead."""
    layout = Layout.default(here.directory, client=here.client, home=here.home)
    if header_helper is not None:
        return approve(layout, header_helper, as_json=as_json)
    if from_host is not None:
        if here.directory is not None:
            raise click.UsageError("give DIR or --from HOST, not both")
        return trust_from(layout, from_host, here.client, here.home, as_json=as_json)
    if show_list:
        return print_list(read_trust(layout), as_json=as_json)
    folder = target(layout, here.directory)
    pins = pinned(folder, here.client, here.home)
    try:
        added = trust(layout, folder, approved=pins)
    except TrustStoreError as e:
        return out.fail("config.trust.invalid", str(e), as_json=as_json)
    if as_json:
        document = {"folder": str(folder), "trusted": True, "changed": added}
        out.print_json({**document, "pinned": sorted(pins)})
        return OK
    said = f"Trusted {out.shown(folder)}: {LOADS}." if added else "was already trusted."
    out.say(said if added else f"{out.shown(folder)} {said}")
    if pins:
        out.say(f"Pinned {out.count(len(pins), 'executable item')}: {PINNED}.")
    return OK


def trust_from(layout: Layout, name: str, client: str, home: Path | None, *, as_json: bool) -> int:
    """Put on the list every folder the host `name` trusts (its profile's
    `TrustSource`) that is still there, pinned as `satchel trust DIR` pins; say which
    were added, which were already trusted and which are gone; and what was wrong in
    the user's config.toml on the way to the profile, last."""
    from satchel.hosts import resolve

    host, said = resolve(name, config_home=layout.config_home)
    if host.trust_source is None:
        message = f"satchel takes no trusted folders from {host.title}: its profile names no list"
        return out.fail("host.trust.none", message, as_json=as_json)
    source, folders, problem = host_trusted_folders(host.trust_source, layout.home)
    if problem is not None:
        return out.fail(problem.code, problem.message, as_json=as_json, diagnostics=[problem])
    rows: list[dict[str, object]] = []
    try:
        for folder in folders:
            if not folder.is_dir():
                rows.append({"folder": str(folder), "trusted": False, "changed": False})
                continue
            pins = pinned(folder, client, home)
            added = trust(layout, folder, approved=pins)
            rows.append({"folder": str(folder), "trusted": True, "changed": added,
                         "pinned": len(pins)})  # fmt: skip
    except TrustStoreError as e:
        return out.fail("config.trust.invalid", str(e), as_json=as_json)
    if as_json:
        out.print_json({"from": host.name, "source": str(source), "folders": rows}, said)
        return OK
    if not folders:
        out.say(f"{host.title} trusts no folder ({source}); nothing was trusted.")
    for row in rows:
        shown = out.shown(str(row["folder"]))
        if not row["trusted"]:
            out.say(f"{shown} is gone; it was not trusted.")
        elif row["changed"]:
            out.say(f"Trusted {shown}, as {host.title} does: {LOADS}.")
        else:
            out.say(f"{shown} was already trusted.")
    for d in said:
        out.say(f"{d.severity} {d.code}: {d.message}")
    return OK


def pinned(folder: Path, client: str, home: Path | None) -> dict[str, str]:
    """The digests of the folder's executable items as they are now (`satchel.trust._approval`):
    as satchel's own rules read the folder, and as each host that keeps config of its
    own in a project reads it (Codex's ``.codex/config.toml`` servers and
    ``.codex/hooks.json`` hooks), so that trusting the folder trusts those too."""
    from satchel.hosts import PROFILES  # the hosts, only when a folder is trusted

    layout = Layout.default(folder, client=client, home=home, project=folder)
    found = digests(load(layout=layout, trusted=True).executables())
    for host in (h for h in PROFILES.values() if h.state is not None):
        seen = host.layout(folder, home=home, project=folder)
        for key, value in digests(load(layout=seen, host=host, trusted=True).executables()).items():
            found.setdefault(key, value)
    return found


def target(layout: Layout, directory: Path | None) -> Path:
    """The folder named, else the project root of the current directory (the one
    `satchel list` reports), as a real path."""
    return Path(directory or layout.project).resolve()


def print_list(listed: TrustList, *, as_json: bool) -> int:
    """The trusted folders, one absolute path per line (or why the list cannot be read)."""
    if as_json:
        problem = listed.problem.to_json() if listed.problem else None
        folders = [str(f) for f in listed.folders]
        out.print_json({"store": str(listed.path), "folders": folders, "problem": problem})
    elif listed.problem is not None:
        out.say(f"{listed.problem.code}: {listed.problem.message}")
    elif not listed.folders:
        out.say("No folder is trusted; `satchel trust DIR` trusts one.")
    else:
        for folder in listed.folders:
            out.say(str(folder))  # absolute: the list holds folders anywhere on the machine
    return OK


def approve(layout: Layout, host: str, *, as_json: bool) -> int:
    """Pin the header helper the user's config.toml gives for `host`, as it is now."""
    from satchel.install._credentials import read_credentials

    creds, _problems = read_credentials(layout, os.environ)
    rule = creds.rules.get(host)
    if host in creds.invalid or rule is None or rule.header_helper is None:
        why = creds.invalid.get(host, "it names no header_helper for that host")
        message = f'config.toml\'s [install.auth."{host}"]: {why}'
        return out.fail("install.auth.invalid", message, as_json=as_json)
    command = rule.header_helper
    try:
        changed = approve_helper(layout, host, command)
    except TrustStoreError as e:
        return out.fail("config.trust.invalid", str(e), as_json=as_json)
    if as_json:
        document = {"header_helper": host, "command": command, "approved": True}
        out.print_json({**document, "changed": changed})
        return OK
    said = "Approved" if changed else "Already approved:"
    out.say(f"{said} the header helper for {host}: {command}")
    out.say(f"{HELPER} until you approve it again.")
    return OK
