"""`satchel publish PATH oci://REGISTRY/REPO[:TAG]`: push a skill or plugin to a registry."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._params import Choice, json_option
from satchel.install._errors import InstallError, refuse
from satchel.install._oci_sign import FULCIO_URL, REKOR_URL, Signing
from satchel.install._publish import Published, publish
from satchel.install._settings import Settings

TOKEN_ENV = "SIGSTORE_ID_TOKEN"
TRUST_ROOT_ENV = "SATCHEL_SIGSTORE_TRUST_ROOT"
FULCIO_ENV = "SATCHEL_FULCIO_URL"
REKOR_ENV = "SATCHEL_REKOR_URL"

PARAMS = (
    click.Argument(["path"], type=click.Path(path_type=Path)),
    click.Argument(["target"]),
    click.Option(
        ["--layout"],
        type=Choice(("archive", "files")),
        default="archive",
        show_default=True,
        help="archive: one tar+gzip layer; files: one layer per file, titled with its path.",
    ),
    click.Option(
        ["--sign"],
        is_flag=True,
        help="Sign the manifest digest and attach the Sigstore bundle as a referrer.",
    ),
    click.Option(
        ["--key"],
        type=click.Path(path_type=Path, dir_okay=False),
        metavar="FILE",
        help="Sign with this PEM ECDSA P-256 private key instead of keyless (implies --sign).",
    ),
    click.Option(
        ["--identity-token"],
        metavar="TOKEN",
        help=f"The OIDC identity token to sign keyless with (default: ${TOKEN_ENV}).",
    ),
    click.Option(
        ["--fulcio-url"],
        metavar="URL",
        help=f"The certificate authority (default: ${FULCIO_ENV}, else {FULCIO_URL}).",
    ),
    click.Option(
        ["--rekor-url"],
        metavar="URL",
        help=f"The transparency log (default: ${REKOR_ENV}, else {REKOR_URL}).",
    ),
    click.Option(
        ["--trust-root"],
        type=click.Path(path_type=Path, dir_okay=False),
        metavar="FILE",
        help=f"The trusted_root.json of that instance (default: ${TRUST_ROOT_ENV}).",
    ),
    json_option(),
)


def run(
    *,
    path: Path,
    target: str,
    layout: str,
    sign: bool,
    key: Path | None,
    identity_token: str | None,
    fulcio_url: str | None,
    rekor_url: str | None,
    trust_root: Path | None,
    as_json: bool,
) -> int:
    """Push the skill or plugin at PATH to an OCI registry and print its digest.

    TARGET is oci://REGISTRY/REPOSITORY[:TAG] (default tag latest); plain http is
    used only for a loopback registry. The directory must hold one skill (SKILL.md)
    or one plugin (its manifest) at its root, valid as satchel reads it. Credentials
    come from Docker's config.json ($DOCKER_CONFIG or ~/.docker), its auths,
    credHelpers and credsStore. `satchel install` takes the printed reference.

    With --sign, the manifest digest is signed as cosign signs it (an in-toto
    statement in a DSSE envelope) before anything is pushed; the Sigstore bundle is
    attached to the artifact as an OCI referrer. Keyless with an identity token
    (--identity-token or $SIGSTORE_ID_TOKEN): a certificate from the certificate
    authority, the signature recorded in the transparency log. With --key: the
    key's signature, verified by `satchel install --key` with the public key."""
    environ = dict(os.environ)
    try:
        settings = Settings.from_env(environ)
        signing = _signing(
            sign or key is not None, key, identity_token, fulcio_url, rekor_url, trust_root,
            environ,
        )  # fmt: skip
        if signing is not None:
            signing = replace(signing, deadline=settings.deadline)
        done = publish(
            path, target, files=layout == "files", settings=settings,
            environ=environ, sign=signing,
        )  # fmt: skip
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json(done.to_json())
        return OK
    _print(done)
    return OK


def _signing(
    sign: bool,
    key: Path | None,
    token: str | None,
    fulcio: str | None,
    rekor: str | None,
    trust_root: Path | None,
    environ: dict[str, str],
) -> Signing | None:
    if not sign:
        return None
    root = trust_root or (Path(environ[TRUST_ROOT_ENV]) if environ.get(TRUST_ROOT_ENV) else None)
    fulcio_url = fulcio or environ.get(FULCIO_ENV) or FULCIO_URL
    rekor_url = rekor or environ.get(REKOR_ENV) or REKOR_URL
    pem = None
    if key is not None:
        try:
            pem = key.read_bytes()
        except OSError as e:
            raise refuse("install.oci.key", f"{key} cannot be read: {e.strerror}") from None
    return Signing(
        key=pem, key_path=str(key), identity_token=token or environ.get(TOKEN_ENV),
        fulcio_url=fulcio_url, rekor_url=rekor_url, trust_root=root,
    )  # fmt: skip


def _print(done: Published) -> None:
    out.say(f"Published {done.kind} {done.name} to {done.reference}")
    out.say(f"digest {done.digest}")
    if done.signed is not None:
        who = done.signed.signer + (f" (issuer {done.signed.issuer})" if done.signed.issuer else "")
        out.say(f"signed by {who}")
        out.say(f"signature attached as {done.referrer}")
    out.say(f"install with: satchel install {done.pinned}")
