"""Install fixtures: a clean environment, a CLI runner, a local HTTP server, git daemon."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from satchel.cli import main

from .registry import Registry, start
from .support import Server, serve

if TYPE_CHECKING:
    from tests.sigstore_world import World

MACHINE_VARS = (
    "GH_TOKEN",
    "GITHUB_TOKEN",
    "SATCHEL_GITHUB_URL",
    "SATCHEL_GITHUB_API_URL",
    "SATCHEL_SKILLS_SH_URL",
    "SATCHEL_NPM_REGISTRY",
    "NO_COLOR",
    "COLUMNS",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


@pytest.fixture
def only_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection beyond 127.0.0.1 fails the test (the signing tests ask for it)."""
    from tests.sigstore_world import loopback_only

    loopback_only(monkeypatch)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """A Sigstore world of the module's own (`tests.sigstore_world`)."""
    from tests.sigstore_world import World

    return World(tmp_path_factory.mktemp("world"))


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in MACHINE_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


class Cli:
    def __init__(self, capsys: pytest.CaptureFixture[str], project: Path, home: Path) -> None:
        self.capsys = capsys
        self.where = ["--project", str(project), "--home", str(home)]

    def __call__(self, *args: str | os.PathLike[str], where: bool = True) -> tuple[int, str, str]:
        argv = [str(a) for a in args] + (self.where if where else [])
        code = main(argv)
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err


@pytest.fixture
def satchel(capsys: pytest.CaptureFixture[str], project: Path, home: Path) -> Cli:
    """`main()` with --project and --home of the test; returns (code, out, err)."""
    return Cli(capsys, project, home)


@pytest.fixture
def server() -> Iterator[Server]:
    yield from serve(Server())


@pytest.fixture(scope="session")
def oci_registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    """A real OCI registry on 127.0.0.1, open to all (tests/install/registry.py)."""
    yield from start(tmp_path_factory.mktemp("registry"), auth=False)


@pytest.fixture(scope="session")
def oci_auth_registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    """A real OCI registry on 127.0.0.1 behind htpasswd Basic auth (USER, PASSWORD)."""
    yield from start(tmp_path_factory.mktemp("registry-auth"), auth=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def git_daemon(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`git daemon` on 127.0.0.1 serving the repositories below the returned root."""
    root = tmp_path / "served"
    root.mkdir()
    port = _free_port()
    proc = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={root}",
         "--listen=127.0.0.1", f"--port={port}", str(root)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"git://127.0.0.1:{port}", root
    finally:
        proc.terminate()
        proc.wait(timeout=10)
