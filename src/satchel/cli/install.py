"""`satchel install SOURCE`: install skills and plugins; `--frozen` replays the lock."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Unpack

import click

from satchel.cli import _delta as delta
from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._held import held_after
from satchel.cli._held import say as say_held
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._installer import InstallResult
from satchel.install._manage import install_frozen
from satchel.install._plugin_install import install_from_spec, install_plugin, is_plugin_ref
from satchel.install._signatures import Signers

PARAMS = (
    click.Argument(["source"], required=False),
    click.Option(
        ["--skill", "skills"],
        multiple=True,
        metavar="NAME",
        help="Install only this skill (by name or folder); repeat for more.",
    ),
    inst.scope_option(),
    inst.family_option(),
    inst.force_option("Replace a directory satchel did not install."),
    click.Option(["--frozen"], is_flag=True, help="Install exactly what skills.lock records."),
    click.Option(
        ["--signer", "signers"],
        multiple=True,
        metavar="IDENTITY",
        help="Require a Sigstore signature by this identity (a glob); repeat for more.",
    ),
    click.Option(
        ["--issuer", "issuers"],
        multiple=True,
        metavar="URL",
        help="The signer's OIDC issuer (a glob); repeat for more. Needs --signer.",
    ),
    inst.trust_root_option(),
    delta.fail_on_new_option(),
    *inst.endpoint_options(),
    *where(),
    json_option(),
)


def run(
    *,
    source: str | None,
    skills: tuple[str, ...],
    scope: str,
    family: str,
    force: bool,
    frozen: bool,
    signers: tuple[str, ...],
    issuers: tuple[str, ...],
    trust_root: Path | None,
    fail_on_new: str | None,
    project: Path | None,
    home: Path | None,
    client: str,
    as_json: bool,
    **endpoints: Unpack[inst.Endpoints],
) -> int:
    """Install the skills and plugins of SOURCE, or those picked with --skill.

    SOURCE NAME@MARKETPLACE installs the plugin NAME that an added marketplace lists
    (satchel marketplace add), with the plugins it depends on.

    Skills go to <project>/.satchel/skills (--scope user: the user's skills
    directory; --family agents or claude: .agents/skills or .claude/skills), plugins
    to the plugins directory. Nothing in the source runs; each skill is validated
    first and written atomically. A directory satchel did not install is not
    replaced without --force. skills.lock records each install; --frozen (with no
    SOURCE) installs exactly what it records, or nothing. A new version of something
    installed is audited against the installed tree and only the new risk is shown;
    --fail-on-new SEVERITY installs nothing when one is at SEVERITY or above. A
    plugin installed into a project that is not trusted does not load there until it
    is: a line on stderr says so and names the command that trusts it.

    --signer installs only what carries a Sigstore bundle that verifies offline
    against the trust root (--trust-root; default: the one sigstore ships) and was
    signed by one of the identities named (and --issuer). A bundle found without
    --signer is checked all the same, and its signer recorded in skills.lock."""
    ctx = inst.context(project, home, client, as_json=as_json, endpoints=endpoints)
    if trust_root is not None:
        ctx = replace(ctx, settings=replace(ctx.settings, sigstore_trust_root=trust_root))
    if frozen == (source is not None):
        raise click.UsageError(
            "give a SOURCE, or --frozen alone to install what skills.lock records"
        )
    if issuers and not signers:
        raise click.UsageError("--issuer needs --signer: name who may sign")
    if frozen and signers:
        raise click.UsageError("--frozen checks the signers skills.lock records; drop --signer")
    allowed = Signers(signers, issuers) if signers else None
    reviewer = delta.Reviewer(fail_on_new)
    try:
        with inst.progress_shown(ctx):
            if source is None:
                result = install_frozen(
                    scope=scope, layout=ctx.layout, settings=ctx.settings,
                    environ=ctx.environ, progress=ctx.progress,
                )  # fmt: skip
            elif is_plugin_ref(source) and not skills:
                result = install_plugin(
                    source, scope=scope, family=family, force=force, layout=ctx.layout,
                    settings=ctx.settings, environ=ctx.environ, progress=ctx.progress,
                    review=reviewer, signers=allowed,
                )  # fmt: skip
            else:
                result = install_from_spec(
                    source, skills=skills, scope=scope, family=family, force=force,
                    layout=ctx.layout, settings=ctx.settings, environ=ctx.environ,
                    progress=ctx.progress, review=reviewer, signers=allowed,
                )  # fmt: skip
    except InstallError as e:
        return delta.refused(e, reviewer, as_json=as_json)
    held = held_after(ctx.layout, (done.path for done in result.installed))
    if as_json:
        document = result.to_json()
        for row in document["installed"]:
            row["delta"] = reviewer.to_json(row["kind"], row["name"])
        found = (*result.diagnostics, *held)
        out.print_json({**document, "fail_on_new": fail_on_new}, found)
    else:
        _print(result, reviewer, frozen=frozen)
        say_held(held)
    return OK


def _print(result: InstallResult, reviewer: delta.Reviewer, *, frozen: bool) -> None:
    if not result.installed:
        out.say(
            "Everything in skills.lock is installed and intact." if frozen else "Nothing installed."
        )
    for done in result.installed:
        e = done.entry
        verb = "Replaced" if done.replaced else "Installed"
        at = f" at {inst.short(e.resolved)}" if e.resolved else ""
        origin = f"{e.name}@{e.marketplace}, " if e.marketplace else ""
        need = "" if e.direct else " (a dependency)"
        line = f"{verb} {e.kind} {e.name} in {out.shown(done.path)} from {origin}{e.source}{at}"
        out.say(line + need)
        if e.signature is not None:
            out.say(f"  signed by {e.signature.identity} ({e.signature.issuer})")
        if (found := reviewer.get(e.kind, e.name)) is not None:
            delta.print_delta(found)
    inst.warnings(result.diagnostics)
