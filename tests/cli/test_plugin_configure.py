"""`satchel plugin configure NAME`: values set with --set and --values-stdin are held
to their option, kept in plugin-options.json (sensitive ones in the keyring, a file
backend here), shown with sensitive ones masked; a bad value or a failing keyring
stores nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from satchel import Layout, load
from tests.support import put
from tests.support.checkout import CHECKOUT
from tests.support.keyring_file import BACKEND, VARIABLE, use_file_keyring

from .support import check_golden

OPTIONS = {
    "api_key": {
        "type": "string", "title": "API key", "description": "d", "sensitive": True,
        "required": True,
    },
    "port": {"type": "number", "title": "Port", "description": "d", "min": 1, "max": 65535,
             "default": 8080},
    "mode": {"type": "string", "title": "Mode", "description": "d", "options": ["fast", "slow"],
             "default": "fast"},
}  # fmt: skip


@pytest.fixture
def where(tmp_path: Path) -> tuple[str, ...]:
    """A user plugin `kit` (user plugins load without trusting a project)."""
    home = tmp_path / "home"
    manifest = {"name": "kit", "userConfig": OPTIONS}
    put(home, ".config/satchel/plugins/kit/.claude-plugin/plugin.json", json.dumps(manifest))
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    return ("--project", str(project), "--home", str(home))


def store(where: tuple[str, ...]) -> Path:
    return Path(where[3]) / ".config" / "satchel" / "plugin-options.json"


@pytest.fixture
def ring(tmp_path: Path):
    with use_file_keyring(tmp_path / "keyring.json") as backend:
        yield backend


def test_set_keeps_each_value_where_it_belongs_and_masks_the_sensitive_one(satchel, where, ring):
    done = satchel("plugin", "configure", "kit", "--set", "api_key=s3cret", "--set", "port=9000",
                   *where, "--json")  # fmt: skip
    assert done.code == 0, done.out
    doc = done.json()
    assert doc["changed"] == ["api_key", "port"]
    rows = {r["key"]: (r["value"], r["from"]) for r in doc["options"]}
    assert rows == {"api_key": ("***", "set"), "port": (9000, "set"), "mode": ("fast", "default")}
    assert "s3cret" not in done.out
    kept = json.loads(store(where).read_text())
    assert kept == {"version": 1, "plugins": {"kit": {"port": 9000}}}
    assert ring.get_password("satchel plugin options", "kit/api_key") == '"s3cret"'  # JSON
    shown = satchel("plugin", "configure", "kit", *where)
    assert shown.code == 0
    check_golden("plugin-configure.txt", shown.out)


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("port=70000", "port: Port must be at most 65535; nothing is stored"),
        ("port=fast", "port: Port must be a number; nothing is stored"),
        ("mode=medium", "mode: Mode must be one of: fast, slow; nothing is stored"),
        ("colour=red", "'colour' isn't declared in the userConfig of plugin 'kit'"),
    ],
)
def test_a_bad_value_stores_nothing(satchel, where, ring, assignment, message):
    done = satchel("plugin", "configure", "kit", "--set", "port=10", "--set", assignment,
                   *where, "--json")  # fmt: skip
    assert done.code == 1
    doc = done.json()
    assert doc["error"]["code"] == "plugin.config.value"
    assert [d["code"] for d in doc["diagnostics"]] == ["plugin.config.value"]
    assert [d["message"] for d in doc["diagnostics"]] == [message]
    assert not store(where).exists()


def test_unset_forgets_a_value(satchel, where, ring):
    satchel("plugin", "configure", "kit", "--set", "api_key=k", "--set", "port=10", *where)
    done = satchel("plugin", "configure", "kit", "--unset", "api_key", "--unset", "port",
                   *where, "--json")  # fmt: skip
    rows = {r["key"]: r["from"] for r in done.json()["options"]}
    assert rows == {"api_key": "missing", "port": "default", "mode": "default"}
    assert ring.get_password("satchel plugin options", "kit/api_key") is None


def test_a_keyring_that_fails_is_a_diagnostic_and_no_plain_text_fallback(satchel, where):
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        done = satchel("plugin", "configure", "kit", "--set", "api_key=s3cret", *where, "--json")
    finally:
        keyring.set_keyring(before)
    assert done.code == 1
    found = [d for d in done.json()["diagnostics"] if d["code"] == "plugin.config.store"]
    assert found and found[0]["message"].startswith(
        "the system keyring cannot write the sensitive options of 'kit' ("
    )
    assert found[0]["message"].endswith("); they are not kept anywhere else")
    assert "s3cret" not in done.out
    assert not store(where).exists()


def test_values_stdin_in_a_real_process(where, tmp_path):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(CHECKOUT),
        "PYTHON_KEYRING_BACKEND": BACKEND,
        VARIABLE: str(tmp_path / "keyring.json"),
    }
    values = {"api_key": "k-1", "port": 443, "mode": "slow"}
    done = subprocess.run(
        [sys.executable, "-m", "satchel", "plugin", "configure", "kit", "--values-stdin",
         *where, "--json"],
        input=json.dumps(values), capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {r["key"]: r["value"] for r in json.loads(done.stdout)["options"]}
    assert rows == {"api_key": "***", "port": 443, "mode": "slow"}
    secrets = json.loads((tmp_path / "keyring.json").read_text())
    assert secrets == {"satchel plugin options\tkit/api_key": '"k-1"'}
    assert "k-1" not in store(where).read_text()


def test_plugin_inspect_lists_the_options_and_never_a_value(satchel, where):
    root = Path(where[3]) / ".config" / "satchel" / "plugins" / "kit"
    done = satchel("plugin", "inspect", root)
    assert done.code == 0
    lines = done.out.splitlines()
    start = lines.index("User configuration: 3")
    check_golden("plugin-inspect-user-config.txt", "\n".join(lines[start : start + 5]) + "\n")


def test_on_a_terminal_each_option_is_prompted_for(where, tmp_path):
    """A real process on a pseudo-terminal: a bad answer is asked again, Enter keeps
    the default, and the sensitive answer is neither echoed nor printed."""
    import pty  # POSIX only, as the suite is
    import select

    leader, follower = pty.openpty()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(CHECKOUT),
        "PYTHON_KEYRING_BACKEND": BACKEND,
        VARIABLE: str(tmp_path / "keyring.json"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "satchel", "plugin", "configure", "kit", *where],
        stdin=follower, stdout=follower, stderr=follower, env=env, cwd=tmp_path,
        start_new_session=True,  # no controlling terminal but the pseudo-terminal
    )  # fmt: skip
    os.close(follower)
    seen = b""

    def answer(prompt: bytes, text: bytes) -> None:
        nonlocal seen
        wanted = seen.count(prompt) + 1
        while seen.count(prompt) < wanted:
            assert select.select([leader], [], [], 60)[0], seen  # a "did not hang" bound
            seen += os.read(leader, 4096)
        os.write(leader, text)

    try:
        answer(b"API key (api_key, string): ", b"k9\n")
        answer(b"Port (port, number) [8080]: ", b"\n")
        answer(b"Mode (mode, string) [fast]: ", b"medium\n")
        answer(b"Mode (mode, string) [fast]: ", b"slow\n")
        while select.select([leader], [], [], 60)[0]:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process is gone and the terminal closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    assert proc.wait(timeout=60) == 0, seen
    text = seen.decode()
    assert "Mode must be one of: fast, slow" in text
    assert "k9" not in text
    assert json.loads(store(where).read_text())["plugins"] == {"kit": {"mode": "slow"}}
    secrets = json.loads((tmp_path / "keyring.json").read_text())
    assert secrets == {"satchel plugin options\tkit/api_key": '"k9"'}


def test_doctor_names_each_required_option_with_no_value_until_it_is_set(satchel, tmp_path, ring):
    """`load` names the unset option that is not sensitive (it leaves the keyring
    alone); doctor names the sensitive one too. Configuring each clears its warning."""
    home, project = tmp_path / "home", tmp_path / "project"
    region = {"type": "string", "title": "Region", "description": "d", "required": True}
    options = {"api_key": OPTIONS["api_key"], "region": region, "port": OPTIONS["port"]}
    manifest = {"name": "kit", "userConfig": options}
    put(home, ".config/satchel/plugins/kit/.claude-plugin/plugin.json", json.dumps(manifest))
    (project / ".git").mkdir(parents=True)
    where = ("--project", str(project), "--home", str(home))

    def unset() -> list[str]:
        doc = satchel("doctor", *where, "--json").json()
        return [d["message"] for d in doc["diagnostics"] if d["code"] == "plugin.config.unset"]

    def said(key: str) -> str:
        return (f"plugin 'kit': required option {key!r} has no value and no default; the "
                "components that name it do not start")  # fmt: skip

    assert unset() == [said("region"), said("api_key")]
    env = load(layout=Layout.default(project, home=home, env={}))
    assert [(d.code, d.message, d.hint) for d in env.diagnostics] == [
        ("plugin.config.unset", said("region"), "satchel plugin configure kit")
    ]
    satchel("plugin", "configure", "kit", "--set", "region=eu", *where)
    assert unset() == [said("api_key")]
    satchel("plugin", "configure", "kit", "--set", "api_key=k", *where)
    assert unset() == []
