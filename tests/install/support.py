"""What the install tests share: tree hashes, archive and git builders, and a local
HTTP server standing in for GitHub, skills.sh and the npm registry."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import tarfile
import threading
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.support import write_tree

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def state(root: Path) -> dict[str, str]:
    """Every entry below `root` (links not followed) with its content: the C3 check
    that an action left a directory exactly as it was."""
    found: dict[str, str] = {}
    if not os.path.lexists(root):
        return found
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(directory, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                found[rel] = "dir"
            else:
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


# --- archives --------------------------------------------------------------------


@dataclass
class Entry:
    """One tar entry: a file (`data`), a directory, a symlink or hardlink (`link`),
    or a device or FIFO (`kind`)."""

    name: str
    data: bytes = b""
    kind: bytes = tarfile.REGTYPE
    link: str = ""
    mode: int = 0o644


def make_tar(path: Path, entries: list[Entry], *, gzip: bool = True) -> Path:
    with tarfile.open(path, "w:gz" if gzip else "w") as tar:
        for e in entries:
            info = tarfile.TarInfo(e.name)
            info.type = e.kind
            info.mode = e.mode
            info.linkname = e.link
            if e.kind == tarfile.REGTYPE:
                info.size = len(e.data)
                tar.addfile(info, io.BytesIO(e.data))
            else:
                tar.addfile(info)
    return path


def make_zip(path: Path, files: Mapping[str, bytes], links: Mapping[str, str] = {}) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        for name, target in links.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o120777 << 16
            zf.writestr(info, target)
    return path


def tar_of_tree(root: Path, top: str) -> bytes:
    """A .tar.gz of `root` below one top directory, as GitHub and npm serve them."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(root, arcname=top)
    return buf.getvalue()


# --- git -------------------------------------------------------------------------


def git(*args: str | os.PathLike[str], cwd: Path) -> str:
    env = {**GIT_ENV, "PATH": os.environ["PATH"], "HOME": str(cwd)}
    out = subprocess.run(
        ["git", *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def git_repo(path: Path, files: Mapping[str, str | bytes], tag: str | None = None) -> Path:
    """A repository whose first commit holds `files` (on branch main)."""
    path.mkdir(parents=True)
    git("init", "-q", "-b", "main", ".", cwd=path)
    return commit(path, files, tag=tag)


def commit(path: Path, files: Mapping[str, str | bytes], *, tag: str | None = None) -> Path:
    write_tree(path, files)
    git("add", "-A", cwd=path)
    git("commit", "-q", "-m", "change", cwd=path)
    if tag:
        git("tag", "-f", tag, cwd=path)
    return path


def hostile_config(repo: Path, where: Path) -> Path:
    """Arm `repo`'s own config with every program git may run on a read (fsmonitor, a
    required clean and smudge filter ``evil``, ``diff.external``, a textconv for diff
    ``evil``), each a script in `where` that appends its call to the returned canary;
    the caller's attributes choose the files they apply to."""
    canary = where / "canary"
    program = where / "program"
    program.write_text(f'#!/bin/sh\necho "$0 $*" >> {canary}\ncat\n', encoding="utf-8")
    program.chmod(0o755)
    for key in ("core.fsmonitor", "filter.evil.clean", "filter.evil.smudge", "diff.external"):
        git("config", key, str(program), cwd=repo)
    git("config", "filter.evil.required", "true", cwd=repo)
    git("config", "diff.evil.textconv", str(program), cwd=repo)
    return canary


def bare(repo: Path, where: Path) -> Path:
    git("clone", "-q", "--bare", repo, where, cwd=repo.parent)
    return where


def head(repo: Path) -> str:
    return git("rev-parse", "HEAD", cwd=repo)


# --- a local HTTP server -----------------------------------------------------------


Handler = Callable[["Request"], tuple[int, dict[str, str], bytes]]


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass
class Server:
    """Routes by exact path (or prefix ending in ``/*``), records every request."""

    url: str = ""
    routes: dict[str, Handler] = field(default_factory=dict)
    seen: list[Request] = field(default_factory=list)

    def json(self, path: str, doc: object, status: int = 200) -> None:
        body = json.dumps(doc).encode()
        self.routes[path] = lambda _r: (status, {"Content-Type": "application/json"}, body)

    def bytes(self, path: str, body: bytes, status: int = 200) -> None:
        self.routes[path] = lambda _r: (status, {"Content-Type": "application/octet-stream"}, body)

    def handle(self, request: Request) -> tuple[int, dict[str, str], bytes]:
        self.seen.append(request)
        route = self.routes.get(request.path.split("?", 1)[0])
        if route is None:
            for key, handler in self.routes.items():
                if key.endswith("/*") and request.path.startswith(key[:-1]):
                    route = handler
                    break
        if route is None:
            return 404, {"Content-Type": "text/plain"}, b"not found"
        return route(request)


def serve(server: Server) -> Iterator[Server]:
    class _H(BaseHTTPRequestHandler):
        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            req = Request(self.command, self.path, dict(self.headers.items()), body)
            status, headers, payload = server.handle(req)
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            if "Content-Length" not in headers:
                self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = _any
        do_POST = _any

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _H)
    httpd.daemon_threads = True
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def http_backend(root: Path) -> Handler:
    """A handler running `git http-backend` (CGI) for repositories below `root`."""

    def run(request: Request) -> tuple[int, dict[str, str], bytes]:
        path, _, query = request.path.partition("?")
        env = {
            "PATH": os.environ["PATH"],
            "GIT_PROJECT_ROOT": str(root),
            "GIT_HTTP_EXPORT_ALL": "1",
            "REQUEST_METHOD": request.method,
            "PATH_INFO": path.split("/", 2)[2] and "/" + path.split("/", 2)[2],
            "QUERY_STRING": query,
            "CONTENT_TYPE": request.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(request.body)),
            "GIT_PROTOCOL": request.headers.get("Git-Protocol", ""),
            "REMOTE_ADDR": "127.0.0.1",
        }
        out = subprocess.run(
            ["git", "http-backend"], input=request.body, env=env, capture_output=True, check=False
        ).stdout
        head_bytes, _, body = out.partition(b"\r\n\r\n")
        status, headers = 200, {}
        for line in head_bytes.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers[name] = value.strip()
        return status, headers, body

    return run
