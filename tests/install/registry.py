"""A real OCI registry for the tests: Debian's docker-registry (the CNCF distribution
registry 2.8), started on 127.0.0.1 with a free port, its own storage and config in a
temporary directory; once open, once behind htpasswd (bcrypt) Basic auth.

scripts/tools installs the package; without /usr/bin/docker-registry the tests that
need it skip, saying so."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import put

BINARY = "/usr/bin/docker-registry"
USER, PASSWORD = "alice", "s3cret-pass"


@dataclass(frozen=True)
class Registry:
    """A running registry: its host:port, whether it asks for USER and PASSWORD, and
    where it stores blobs (to tamper with one)."""

    host: str
    auth: bool
    root: Path

    def blob_file(self, digest: str) -> Path:
        hexdigest = digest.split(":", 1)[1]
        return (
            self.root / "data/docker/registry/v2/blobs/sha256" / hexdigest[:2] / hexdigest / "data"
        )

    def ref(self, repo: str, tag: str = "v1") -> str:
        return f"oci://{self.host}/{repo}:{tag}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _config(root: Path, port: int, htpasswd: Path | None) -> Path:
    lines = [
        "version: 0.1",
        "log:",
        "  level: error",
        "  accesslog:",
        "    disabled: true",
        "storage:",
        "  filesystem:",
        f"    rootdirectory: {root / 'data'}",
        "  delete:",
        "    enabled: true",
        "http:",
        f"  addr: 127.0.0.1:{port}",
    ]
    if htpasswd is not None:
        lines += ["auth:", "  htpasswd:", "    realm: satchel-test", f"    path: {htpasswd}"]
    return put(root, "config.yml", "\n".join(lines) + "\n")


def start(root: Path, *, auth: bool) -> Iterator[Registry]:
    if not os.path.exists(BINARY):
        pytest.skip(f"{BINARY} is not installed (scripts/tools installs docker-registry)")
    htpasswd = None
    if auth:
        import bcrypt

        hashed = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=4)).decode()
        htpasswd = put(root, "htpasswd", f"{USER}:{hashed}\n")
    port = _free_port()
    config = _config(root, port, htpasswd)
    log = open(root / "registry.log", "wb")  # noqa: SIM115  # closed below
    proc = subprocess.Popen(
        [BINARY, "serve", str(config)], stdout=log, stderr=subprocess.STDOUT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root)},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((root / "registry.log").read_text()) from None
                time.sleep(0.05)
        yield Registry(f"127.0.0.1:{port}", auth, root)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def docker_config(where: Path, doc: dict[str, object]) -> dict[str, str]:
    """A DOCKER_CONFIG directory holding `doc` as config.json; the variables to set."""
    put(where, "config.json", json.dumps(doc))
    return {"DOCKER_CONFIG": str(where)}


def basic_auth(registry: Registry) -> dict[str, object]:
    pair = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    return {"auths": {registry.host: {"auth": pair}}}


def credential_helper(bin_dir: Path, name: str, answer: dict[str, str] | None) -> Path:
    """An executable ``docker-credential-<name>`` that logs the server it is asked
    about to ``asked.txt`` beside it and answers `answer` (None: not found, exit 1)."""
    script = [
        "#!/bin/sh",
        '[ "$1" = get ] || exit 2',
        f'read server; printf "%s\\n" "$server" >> "{bin_dir}/asked.txt"',
    ]
    if answer is None:
        script.append('echo "credentials not found in native keychain"; exit 1')
    else:
        script.append(f"cat <<'EOF'\n{json.dumps(answer)}\nEOF")
    return put(bin_dir, f"docker-credential-{name}", "\n".join(script) + "\n", mode=0o755)
