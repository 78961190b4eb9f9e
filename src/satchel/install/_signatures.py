"""Sigstore signatures for what satchel installs, checked offline against a trust
root on disk (``sigstore``, the ``sign`` extra, imported only when a check runs).

The entry point is `verify_bundle(artifact, bundle, *, identities, issuers,
trust_root)`: it returns the `Signature` a bundle proves (who signed which digest,
and where the transparency log holds it) or None, with the diagnostics that say why
not. It checks, with sigstore's own `Verifier`, that the signing certificate chains
to the trust root's CA at the time the log recorded the entry, carries a valid SCT
from a trusted CT log, and that the log entry's inclusion proof, signed checkpoint
and signed entry timestamp hold; then that the signature covers `artifact`, and last
that the certificate's identity and OIDC issuer match one of the globs allowed.

What is signed, for a skill or plugin directory: its *signing manifest*
(`signing_manifest`), one line per entry below it (``path NUL what``, as the lock's
tree hash reads them, files by SHA-256 and whether executable), leaving out the
bundle files themselves (`is_bundle_file`: top-level, named ``*.sigstore.json`` or
``*.sigstore``, a regular file that is not executable and is a JSON object whose
``mediaType`` is a Sigstore bundle's). Anything else so named, a link, a directory,
an executable or other content, is signed like every other entry. A line whose path
or link target holds a newline is written ``/<bytes>:<path> NUL <bytes>:<what>``
instead (a path never starts with ``/``), so that no two trees share a manifest.

A bundle signs it either as a message signature over the
manifest's SHA-256 (``cosign sign-blob`` of the manifest) or as a DSSE in-toto
statement naming it as a subject (``{"sha256": ...}``); a statement may instead name
the directory by its ``smithmark-bundle-v1`` digest (`smithmark_digest`), which the
smithmark attestation tool signs. A statement must be an in-toto v1 statement
(``_type``) of cosign's signing predicate or smithmark's agent-capability predicate
(`PREDICATES`); any other predicate type (provenance, a scan) is refused.

Where bundles are found (`bundle_files`): the directory's own top-level bundle files
(``SKILL.md.sigstore.json``, ``SKILL.sigstore``, ``plugin.sigstore.json``), and
``<directory>.sigstore.json`` beside it, which is installed into the directory so
that `satchel verify` can check it again; it is never written through a link, and
its name inside the directory must be free or hold a bundle file
(``install.signature.placement``).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import fnmatch
import glob
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.install._lock import Signature
from satchel.install._tree import entries

if TYPE_CHECKING:
    from cryptography.x509 import Certificate

__all__ = [
    "BUNDLE_SUFFIXES",
    "Signers",
    "bundle_files",
    "candidate_digests",
    "certificate_signer",
    "default_trust_root",
    "exactly",
    "is_bundle_file",
    "manifest_digest",
    "signing_manifest",
    "signed_tree",
    "smithmark_digest",
    "smithmark_of",
    "sigstore_available",
    "verify_bundle",
    "verify_tree",
]

BUNDLE_SUFFIXES = (".sigstore.json", ".sigstore")
INTOTO = "application/vnd.in-toto+json"
STATEMENT_V1 = "https://in-toto.io/Statement/v1"
PREDICATES = (
    "https://sigstore.dev/cosign/sign/v1",  # cosign's signing statement
    "https://in8.sh/attestation/agent-capability/v1",  # smithmark's
)
SMITHMARK = "smithmark-bundle-v1"
_BUNDLE_CAP = 1024 * 1024
_BUNDLE_MEDIA = "application/vnd.dev.sigstore.bundle"
_PRODUCTION = "https%3A%2F%2Ftuf-repo-cdn.sigstore.dev"
_ISSUER_V2 = "1.3.6.1.4.1.57264.1.8"
_ISSUER_V1 = "1.3.6.1.4.1.57264.1.1"
_OTHERNAME = "1.3.6.1.4.1.57264.1.7"


@model
class Signers:
    """Who may sign: a certificate's identity must match one of `identities` and its
    OIDC issuer one of `issuers` (``fnmatch`` globs, matched whole and case-sensitive;
    no issuers: any issuer; no identities: any identity from those issuers)."""

    identities: tuple[str, ...]
    issuers: tuple[str, ...] = ()

    def allows(self, identity: str, issuer: str) -> bool:
        who = not self.identities or any(fnmatch.fnmatchcase(identity, g) for g in self.identities)
        by = not self.issuers or any(fnmatch.fnmatchcase(issuer, g) for g in self.issuers)
        return who and by

    def describe(self) -> str:
        names = ", ".join(self.identities) or "anyone"
        return names + (f" (issuer {', '.join(self.issuers)})" if self.issuers else "")


def exactly(signature: Signature) -> Signers:
    """The signer a lock entry records, as `Signers` that allow it alone."""
    return Signers((glob.escape(signature.identity),), (glob.escape(signature.issuer),))


def default_trust_root() -> Path:
    """The production Sigstore trusted root that the ``sigstore`` package ships (read
    as it is, offline: never refreshed over the network)."""
    files = resources.files("sigstore") / "_store" / _PRODUCTION / "trusted_root.json"
    return Path(str(files))


# -- what is signed ---------------------------------------------------------------


def _is_bundle_name(name: str) -> bool:
    return name.endswith(BUNDLE_SUFFIXES)


def is_bundle_file(path: Path) -> bool:
    """Whether `path` is a bundle file: named ``*.sigstore.json`` or ``*.sigstore``, a
    regular file (not a link), not executable, at most 1 MiB, and a JSON object whose
    ``mediaType`` names a Sigstore bundle."""
    if not _is_bundle_name(path.name):
        return False
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o111 or st.st_size > _BUNDLE_CAP:
            return False
        raw = json.loads(_read(path))
    except (OSError, ValueError):
        return False
    media = raw.get("mediaType") if isinstance(raw, dict) else None
    return isinstance(media, str) and media.startswith(_BUNDLE_MEDIA)


def _signed_entries(tree: Path) -> dict[str, str]:
    """`entries` of `tree` less its top-level bundle files."""
    return {
        rel: what
        for rel, what in entries(tree, source=True).items()
        if "/" in rel or what.partition(":")[0] != "file" or not is_bundle_file(tree / rel)
    }


def signing_manifest(tree: Path) -> bytes:
    """The bytes a signature over `tree` signs (see the module docstring)."""
    return b"".join(_line(rel, what) for rel, what in _signed_entries(tree).items())


def _line(rel: str, what: str) -> bytes:
    path, kind = (x.encode("utf-8", "surrogateescape") for x in (rel, what))
    if b"\n" not in path and b"\n" not in kind:
        return path + b"\0" + kind + b"\n"
    return b"/%d:%s\0%d:%s\n" % (len(path), path, len(kind), kind)


def manifest_digest(tree: Path) -> str:
    """``sha256:<hex>`` of `signing_manifest`."""
    return "sha256:" + hashlib.sha256(signing_manifest(tree)).hexdigest()


def smithmark_digest(tree: Path) -> str | None:
    """``smithmark-bundle-v1:<hex>``: SHA-256 of the RFC 8785 JSON list of every
    regular file (``path``, ``mode`` regular or executable, ``sha256``) sorted by path,
    signature files left out; None when the tree holds a symlink (which that digest
    refuses) or no file."""
    files = []
    for rel, what in _signed_entries(tree).items():
        if what == "dir":
            continue
        kind, _, sha = what.partition(":")
        if kind not in ("file", "exec"):
            return None
        mode = "executable" if kind == "exec" else "regular"
        files.append({"mode": mode, "path": rel, "sha256": sha})
    return smithmark_of(files) if files else None


def smithmark_of(files: list[dict[str, str]]) -> str:
    """``smithmark-bundle-v1:<hex>`` of a file list (each ``path``, ``mode``,
    ``sha256``): sorted by path bytewise, as RFC 8785 JSON (sorted keys, no spaces;
    the values are plain strings, which Python's JSON writes as RFC 8785 does)."""
    ordered = sorted(files, key=lambda f: f["path"].encode("utf-8", "surrogateescape"))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return f"{SMITHMARK}:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def candidate_digests(tree: Path) -> tuple[str, ...]:
    """Every digest a bundle may sign to sign `tree`."""
    found = [manifest_digest(tree), smithmark_digest(tree)]
    return tuple(d for d in found if d is not None)


def bundle_files(directory: Path, *, beside: bool = True) -> list[Path]:
    """The bundles for `directory`: its own top-level bundle files (`is_bundle_file`),
    then (with `beside`) ``<directory>.sigstore.json`` beside it."""
    found = []
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        names = []
    for name in names:
        path = directory / name
        if is_bundle_file(path):
            found.append(path)
    near = directory.parent / f"{directory.name}.sigstore.json"
    if beside and _regular(near):
        found.append(near)
    return found


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


# -- checking one bundle -------------------------------------------------------------


def verify_bundle(
    artifact: bytes | str | Sequence[str],
    bundle: str | bytes,
    *,
    identities: tuple[str, ...] = (),
    issuers: tuple[str, ...] = (),
    trust_root: Path | None = None,
    where: Path | None = None,
    kind: str | None = None,
) -> tuple[Signature | None, tuple[Diagnostic, ...]]:
    """The `Signature` that `bundle` (a Sigstore bundle's JSON) proves over
    `artifact`, or None with the reason (``install.signature.*``).

    `artifact` is the signed content itself, or the digest it must sign
    (``sha256:<hex>``), or several: the bundle must sign one of them. `identities` and
    `issuers` are the globs `Signers` takes (neither: any signer, only the signature
    is checked; issuers alone: any identity from those issuers). `trust_root` is a
    ``trusted_root.json`` (default: the one
    `default_trust_root` names). `where` is the path named in the diagnostics; `kind`
    what the `Signature` records instead of ``bundle`` or ``attestation`` (``cosign``
    for a signature attached to an OCI artifact)."""
    try:
        got = _verify(artifact, bundle, identities, issuers, trust_root, where)
    except _Refused as e:
        return None, (e.diagnostic,)
    return (got if kind is None else replace(got, kind=kind)), ()


class _Refused(Exception):
    def __init__(self, code: str, message: str, path: Path | None) -> None:
        super().__init__(message)
        self.diagnostic = diagnostic(code, message, path)


def _verify(
    artifact: bytes | str | Sequence[str],
    text: str | bytes,
    identities: tuple[str, ...],
    issuers: tuple[str, ...],
    trust_root: Path | None,
    where: Path | None,
) -> Signature:
    sigstore = _sigstore(where)
    verifier = _verifier(trust_root or default_trust_root(), where)
    raw = _parsed(text, where)
    try:
        bundle = sigstore.Bundle.from_json(text)
    except (sigstore.Error, ValueError) as e:  # pydantic's errors are ValueErrors
        message = f"not a Sigstore bundle: {_why(e)}"
        raise _Refused("install.signature.invalid", message, where) from None
    wanted = _wanted(artifact)
    try:
        if raw.get("dsseEnvelope") is not None:
            digest, kind = _check_dsse(verifier, bundle, wanted, sigstore, where), "attestation"
        else:
            digest, kind = _check_message(verifier, bundle, raw, artifact, wanted, sigstore, where)
    except (sigstore.Error, ValueError) as e:
        message = f"the signature does not verify: {_why(e)}"
        raise _Refused("install.signature.invalid", message, where) from None
    identity, issuer = certificate_signer(bundle.signing_certificate)
    signers = Signers(identities, issuers)
    if not signers.allows(identity, issuer):
        message = (
            f"signed by {identity} (issuer {issuer}), who is not an allowed signer: "
            f"{signers.describe()}"
        )
        raise _Refused("install.signature.identity", message, where)
    return Signature(identity, issuer, digest, kind, _log_index(raw))


class _Sigstore:
    """The parts of ``sigstore`` used here, imported on first use."""

    def __init__(self) -> None:
        from sigstore.errors import Error, VerificationError
        from sigstore.hashes import Hashed
        from sigstore.models import Bundle, TrustedRoot
        from sigstore.verify import Verifier
        from sigstore_models.common.v1 import HashAlgorithm

        self.Error = Error
        self.VerificationError = VerificationError
        self.Hashed = Hashed
        self.Bundle = Bundle
        self.TrustedRoot = TrustedRoot
        self.Verifier = Verifier
        self.SHA2_256 = HashAlgorithm.SHA2_256


@lru_cache(maxsize=1)
def _loaded() -> _Sigstore:
    return _Sigstore()


def _sigstore(where: Path | None) -> _Sigstore:
    try:
        return _loaded()
    except ImportError:
        message = "checking a Sigstore signature needs the sigstore package"
        raise _Refused("install.signature.unavailable", message, where) from None


def _verifier(path: Path, where: Path | None) -> Any:
    try:
        st = os.stat(path)
    except OSError as e:
        message = f"the Sigstore trust root {path} cannot be read: {e.strerror}"
        raise _Refused("install.signature.trust-root", message, where) from None
    try:
        return _verifier_for(str(path), st.st_mtime_ns, st.st_size)
    except (_loaded().Error, ValueError, OSError) as e:
        message = f"the Sigstore trust root {path} is not a trusted root: {_why(e)}"
        raise _Refused("install.signature.trust-root", message, where) from None


@lru_cache(maxsize=8)
def _verifier_for(path: str, _mtime: int, _size: int) -> Any:
    s = _loaded()
    return s.Verifier(trusted_root=s.TrustedRoot.from_file(path))


def _parsed(text: str | bytes, where: Path | None) -> dict[str, Any]:
    if len(text) > _BUNDLE_CAP:
        message = f"the bundle is larger than {_BUNDLE_CAP:,} bytes"
        raise _Refused("install.signature.invalid", message, where)
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise _Refused("install.signature.invalid", f"not a Sigstore bundle: {e}", where) from None
    if not isinstance(raw, dict):
        raise _Refused("install.signature.invalid", "not a Sigstore bundle: not an object", where)
    return raw


def _why(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _wanted(artifact: bytes | str | Sequence[str]) -> tuple[str, ...]:
    if isinstance(artifact, bytes):
        return ("sha256:" + hashlib.sha256(artifact).hexdigest(),)
    if isinstance(artifact, str):
        return (artifact,)
    return tuple(artifact)


class _AfterwardsPolicy:
    """A sigstore verification policy that accepts every certificate: the identity
    and issuer are matched against the allowed globs once everything else verified
    (`_verify`), so that a wrong signer has a code of its own."""

    def verify(self, cert: Certificate) -> None:
        return None


def _check_message(
    verifier: Any,
    bundle: Any,
    raw: dict[str, Any],
    artifact: bytes | str | Sequence[str],
    wanted: tuple[str, ...],
    s: _Sigstore,
    where: Path | None,
) -> tuple[str, str]:
    """(the digest signed, ``bundle``) for a message signature over `artifact`. A
    bundle that does not name the digest it signs is tried against each SHA-256 of
    `wanted` in turn."""
    if isinstance(artifact, bytes):
        verifier.verify_artifact(artifact, bundle, _AfterwardsPolicy())
        return wanted[0], "bundle"
    signed = _message_digest(raw)
    if signed is not None and signed not in wanted:
        message = f"the bundle signs {signed}, not {' or '.join(wanted)}"
        raise _Refused("install.signature.invalid", message, where)
    tried = [signed] if signed is not None else [w for w in wanted if w.startswith("sha256:")]
    if not tried:
        message = f"a message signature cannot sign {' or '.join(wanted)}"
        raise _Refused("install.signature.invalid", message, where)
    for digest in tried[:-1]:
        try:
            verifier.verify_artifact(_hashed(s, digest), bundle, _AfterwardsPolicy())
        except s.VerificationError:
            continue
        return digest, "bundle"
    verifier.verify_artifact(_hashed(s, tried[-1]), bundle, _AfterwardsPolicy())
    return tried[-1], "bundle"


def _hashed(s: _Sigstore, digest: str) -> Any:
    try:
        raw = bytes.fromhex(digest.partition(":")[2])
    except ValueError:
        raw = b""
    return s.Hashed(algorithm=s.SHA2_256, digest=raw)


def _message_digest(raw: dict[str, Any]) -> str | None:
    try:
        found = raw["messageSignature"]["messageDigest"]
        if found["algorithm"] != "SHA2_256":
            return None
        return "sha256:" + base64.b64decode(found["digest"], validate=True).hex()
    except (KeyError, TypeError, binascii.Error):
        return None


def _check_dsse(
    verifier: Any, bundle: Any, wanted: tuple[str, ...], s: _Sigstore, where: Path | None
) -> str:
    """The subject digest of a verified in-toto statement that is one of `wanted`."""
    kind, payload = verifier.verify_dsse(bundle, _AfterwardsPolicy())
    if kind != INTOTO:
        message = f"the bundle's envelope holds {kind}, not an in-toto statement"
        raise _Refused("install.signature.invalid", message, where)
    _statement_type(payload, where)
    subjects = _subjects(payload)
    match = next((d for d in subjects if d in wanted), None)
    if match is None:
        named = ", ".join(subjects) or "no subject"
        message = f"the attestation names {named}, not {' or '.join(wanted)}"
        raise _Refused("install.signature.invalid", message, where)
    return match


def _statement_type(payload: bytes, where: Path | None) -> None:
    """Refuse a statement that is not an in-toto v1 statement of a predicate type
    that signs what it names (`PREDICATES`): provenance or any other claim about a
    digest is not a signature over it."""
    try:
        statement = json.loads(payload)
    except ValueError:
        statement = None
    if not isinstance(statement, dict):
        message = "the attestation does not hold an in-toto statement"
        raise _Refused("install.signature.invalid", message, where)
    kind, predicate = statement.get("_type"), statement.get("predicateType")
    if kind != STATEMENT_V1 or predicate not in PREDICATES:
        message = (
            f"the attestation is a {kind!s} statement of {predicate!s}, not an in-toto "
            f"{STATEMENT_V1} statement of {' or '.join(PREDICATES)}"
        )
        raise _Refused("install.signature.invalid", message, where)


def _subjects(payload: bytes) -> list[str]:
    try:
        statement = json.loads(payload)
        subjects = statement["subject"]
        return [
            f"{alg}:{value}"
            for subject in subjects
            for alg, value in subject["digest"].items()
            if isinstance(value, str)
        ]
    except (ValueError, KeyError, TypeError, AttributeError):
        return []


def certificate_signer(cert: Certificate) -> tuple[str, str]:
    """The certificate's identity (its first e-mail, URI or Sigstore other name) and
    its OIDC issuer."""
    from cryptography import x509
    from cryptography.hazmat import asn1

    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    names = [
        *sans.get_values_for_type(x509.RFC822Name),
        *sans.get_values_for_type(x509.UniformResourceIdentifier),
        *(
            o.value.decode(errors="replace")
            for o in sans.get_values_for_type(x509.OtherName)
            if o.type_id.dotted_string == _OTHERNAME
        ),
    ]
    issuer = ""
    for oid, der in ((_ISSUER_V2, True), (_ISSUER_V1, False)):
        try:
            value = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier(oid)).value
        except x509.ExtensionNotFound:
            continue
        raw = value.value  # type: ignore[attr-defined]  # an UnrecognizedExtension
        issuer = asn1.decode_der(str, raw) if der else raw.decode(errors="replace")
        break
    return (names[0] if names else ""), issuer


def _log_index(raw: dict[str, Any]) -> int | None:
    try:
        return int(raw["verificationMaterial"]["tlogEntries"][0]["logIndex"])
    except (KeyError, IndexError, TypeError, ValueError):
        return None


# -- checking a directory ---------------------------------------------------------


def verify_tree(
    tree: Path,
    *,
    signers: Signers | None,
    trust_root: Path | None,
    name: str,
    beside: bool = True,
) -> tuple[Signature | None, Path | None, tuple[Diagnostic, ...]]:
    """The signature over the directory `tree` from the first of its `bundle_files`
    that verifies (and is by one of `signers`, when given), the bundle it came from,
    and otherwise why none does: ``install.signature.missing`` when there is no
    bundle, else the refusal of the bundle that came closest (a wrong signer before
    a bad signature)."""
    found = bundle_files(tree, beside=beside)
    if not found:
        message = f"{name} has no Sigstore bundle (*.sigstore.json in its directory)"
        return None, None, (diagnostic("install.signature.missing", message, tree),)
    wanted = candidate_digests(tree)
    problems: list[Diagnostic] = []
    for path in found:
        text = _read(path)
        allowed = signers.identities if signers else ()
        issuers = signers.issuers if signers else ()
        got, why = verify_bundle(
            wanted, text, identities=allowed, issuers=issuers, trust_root=trust_root, where=path
        )
        if got is not None:
            return got, path, ()
        problems += why
    return None, None, (_closest(problems, name),)


def _read(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(_BUNDLE_CAP + 1)


_RANK = ("install.signature.identity", "install.signature.invalid")


def _closest(problems: Iterable[Diagnostic], name: str) -> Diagnostic:
    ranked = sorted(problems, key=lambda d: _RANK.index(d.code) if d.code in _RANK else len(_RANK))
    first = ranked[0]
    return diagnostic(first.code, f"{name}: {first.message}", first.path)


def sigstore_available() -> bool:
    """Whether the ``sigstore`` package can be imported."""
    try:
        _loaded()
    except ImportError:
        return False
    return True


def signed_tree(
    tree: Path,
    *,
    signers: Signers | None,
    trust_root: Path | None,
    name: str,
    within: Path,
) -> tuple[Signature | None, tuple[Diagnostic, ...]]:
    """Check the signature of a skill or plugin about to be installed from `tree`.

    With `signers`, one bundle must verify and be by one of them: otherwise the
    error says why. Without, a bundle found is checked all the same and its signer
    recorded; one that does not verify is an ``install.signature.unverified``
    warning (and no bundle, or no ``sigstore`` package, is nothing to say). A bundle
    beside `tree` is only looked at when it lies inside `within` (the workspace),
    and once it verifies it is copied into `tree`, so that it is installed with what
    it signs."""
    beside = _inside(tree.parent, within)
    if signers is None and (not bundle_files(tree, beside=beside) or not sigstore_available()):
        return None, ()
    got, path, problems = verify_tree(
        tree, signers=signers, trust_root=trust_root, name=name, beside=beside
    )
    if got is None:
        if signers is not None:
            return None, problems
        first = problems[0]
        warned = diagnostic("install.signature.unverified", first.message, first.path)
        return None, (warned,)
    if path is not None and path.parent != tree:
        refused = _place(path, tree / path.name, name)
        if refused is not None:
            return None, (refused,)
    return got, ()


def _place(bundle: Path, target: Path, name: str) -> Diagnostic | None:
    """Copy the verified `bundle` to `target` inside the tree it signs, never through
    a link: `target` must not exist or be a bundle file (which the signature does not
    cover); anything else there is refused. The copy is written to a new file
    (``O_EXCL``, under a random name) and renamed over `target`."""
    if os.path.lexists(target) and not is_bundle_file(target):
        message = (
            f"{name}: {target.name} in its directory is not a Sigstore bundle file, "
            "so the bundle beside it cannot be installed there"
        )
        return diagnostic("install.signature.placement", message, target)
    data = _read(bundle)
    fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=target.parent)  # O_EXCL
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, target)  # a rename: never follows a link at `target`
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return None


def _inside(path: Path, top: Path) -> bool:
    real, root = os.path.realpath(path), os.path.realpath(top)
    return real == root or real.startswith(root + os.sep)
