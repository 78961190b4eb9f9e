"""A keyring backend that keeps passwords in one JSON file, for tests: the system
keyring is never touched. A process picks it with ``PYTHON_KEYRING_BACKEND=
tests.support.keyring_file.FileKeyring`` and the file with ``SATCHEL_TEST_KEYRING``;
in-process, `use_file_keyring` installs it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import keyring
from jaraco.classes import properties
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

VARIABLE = "SATCHEL_TEST_KEYRING"
BACKEND = "tests.support.keyring_file.FileKeyring"


class FileKeyring(KeyringBackend):
    """Passwords as ``{"<service>\\t<user>": password}`` in the file `path` (default:
    ``$SATCHEL_TEST_KEYRING``)."""

    @properties.classproperty
    def priority(cls) -> float:
        """Viable only where a test names its file: never picked by detection."""
        if VARIABLE not in os.environ:
            raise RuntimeError(f"{VARIABLE} is not set")
        return 1

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self._path = path

    @property
    def path(self) -> Path:
        return self._path or Path(os.environ[VARIABLE])

    def _all(self) -> dict[str, str]:
        if not self.path.exists():
            return {}
        data: dict[str, str] = json.loads(self.path.read_text())
        return data

    def get_password(self, service: str, username: str) -> str | None:
        return self._all().get(f"{service}\t{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._all()
        data[f"{service}\t{username}"] = password
        self.path.write_text(json.dumps(data))

    def delete_password(self, service: str, username: str) -> None:
        data = self._all()
        if data.pop(f"{service}\t{username}", None) is None:
            raise PasswordDeleteError(username)
        self.path.write_text(json.dumps(data))


@contextmanager
def use_file_keyring(path: Path) -> Iterator[FileKeyring]:
    """`FileKeyring` at `path` as this process's keyring, the previous one after."""
    before = keyring.get_keyring()
    backend = FileKeyring(path)
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(before)


@contextmanager
def private_keyring(path: Path) -> Iterator[FileKeyring]:
    """A test's own keyring at `path`, in this process and in every process it starts
    (`BACKEND`, `VARIABLE`), so that nothing reads or writes the system's."""
    names = ("PYTHON_KEYRING_BACKEND", VARIABLE)
    before = {name: os.environ.get(name) for name in names}
    os.environ.update({"PYTHON_KEYRING_BACKEND": BACKEND, VARIABLE: str(path)})
    try:
        with use_file_keyring(path) as backend:
            yield backend
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
