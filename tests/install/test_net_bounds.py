"""Every fetch has a deadline as well as a timeout for each wait: an OCI registry and a
web server on 127.0.0.1 that trickle their answers a byte at a time, or go quiet after
the headers, are stopped with ``install.fetch.timeout`` (the deadline set short through
SATCHEL_FETCH_DEADLINE and SATCHEL_FETCH_TIMEOUT, so each test takes about a second)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

BODY = b'{"schemaVersion": 2, "layers": []}' + b" " * 166  # 200 bytes, sent one by one
STEP = 0.05  # seconds between two bytes: 10 s for the whole body
HEADERS = b"HTTP/1.0 200 OK\r\nX-Pad: " + b"a" * 300 + b"\r\n\r\n"  # 16 s, a byte at a time
SENT: dict[str, int] = {}  # the header bytes each /slow-headers/ answer got out


class Trickle(BaseHTTPRequestHandler):
    """``/trickle/...`` sends one byte every STEP seconds; ``/quiet/...`` sends its
    headers and then nothing for 10 s."""

    def do_GET(self) -> None:
        if "/slow-headers/" in self.path:
            return self._slow_headers()
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        try:
            if self.path.startswith("/quiet/") or "/quiet/" in self.path:
                self.wfile.flush()
                time.sleep(10 * STEP * 20)
            for i in range(len(BODY)):
                self.wfile.write(BODY[i : i + 1])
                self.wfile.flush()
                time.sleep(STEP)
        except OSError:  # the client gave up: what the test wants
            return

    def _slow_headers(self) -> None:
        """The status line and headers, one byte every STEP seconds, counted in SENT
        until the client hangs up."""
        SENT[self.path] = 0
        try:
            for i in range(len(HEADERS)):
                self.wfile.write(HEADERS[i : i + 1])
                self.wfile.flush()
                SENT[self.path] = i + 1
                time.sleep(STEP)
        except OSError:
            return

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def trickling() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _problem(out: str) -> tuple[str, str, str | None]:
    (d,) = json.loads(out)["diagnostics"]
    return d["code"], d["message"], d["hint"]


def test_an_oci_registry_trickling_its_manifest_is_stopped_at_the_deadline(
    satchel, trickling, monkeypatch
):
    monkeypatch.setenv("SATCHEL_FETCH_DEADLINE", "1")
    code, out, _ = satchel("install", f"oci://{trickling}/team/pdf:v1", "--json")
    assert code == 1
    url = f"http://{trickling}/v2/team/pdf/manifests/v1"
    assert _problem(out) == (
        "install.fetch.timeout",
        f"GET {url}: it went on past its deadline of 1 s, so it was stopped",
        "SATCHEL_FETCH_DEADLINE allows more than 1 s",
    )


def test_an_archive_trickling_is_stopped_at_the_deadline(satchel, trickling, monkeypatch):
    monkeypatch.setenv("SATCHEL_FETCH_DEADLINE", "1")
    url = f"http://{trickling}/trickle/skills.tar.gz"
    code, out, _ = satchel("install", f"archive:{url}", "--json")
    assert code == 1
    assert _problem(out)[:2] == (
        "install.fetch.timeout",
        f"GET {url}: it went on past its deadline of 1 s, so it was stopped",
    )


def test_headers_trickled_a_byte_at_a_time_are_cut_at_the_deadline(satchel, trickling, monkeypatch):
    """No read ever waits long, so only the client's timer ends it: the connection is
    cut when the deadline passes, long before the server has sent all its headers."""
    monkeypatch.setenv("SATCHEL_FETCH_DEADLINE", "1")
    monkeypatch.setenv("SATCHEL_FETCH_TIMEOUT", "5")
    url = f"http://{trickling}/slow-headers/skills.tar.gz"
    code, out, _ = satchel("install", f"archive:{url}", "--json")
    assert code == 1
    assert _problem(out)[:2] == (
        "install.fetch.timeout",
        f"GET {url}: it went on past its deadline of 1 s, so it was stopped",
    )
    assert 0 < SENT["/slow-headers/skills.tar.gz"] < len(HEADERS)


def test_a_server_gone_quiet_is_left_after_the_timeout(satchel, trickling, monkeypatch):
    monkeypatch.setenv("SATCHEL_FETCH_TIMEOUT", "0.3")
    url = f"http://{trickling}/quiet/skills.tar.gz"
    code, out, _ = satchel("install", f"archive:{url}", "--json")
    assert code == 1
    assert _problem(out) == (
        "install.fetch.timeout",
        f"GET {url}: the server sent nothing for 0.3 s (or what was left of the deadline "
        "of 600 s), so it was stopped",
        "SATCHEL_FETCH_TIMEOUT and SATCHEL_FETCH_DEADLINE allow more",
    )


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_a_bound_that_is_not_a_positive_number_is_refused(satchel, monkeypatch, value):
    monkeypatch.setenv("SATCHEL_FETCH_DEADLINE", value)
    code, out, _ = satchel("install", "oci://127.0.0.1:9/team/pdf:v1", "--json")
    assert code == 1
    assert json.loads(out)["error"] == {
        "code": "install.settings.invalid",
        "message": f"SATCHEL_FETCH_DEADLINE={value!r} is not a positive number of seconds",
    }
