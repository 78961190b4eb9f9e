"""A project with skills on disk, loaded into an Environment, for Session tests."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

import satchel
from satchel.session import Session
from tests.support import put, skill_md

REFUND = """\
---
name: refund-policy
description: The refund window, the exceptions, and who may approve one.
---

# Refund policy

Refunds inside 30 days are automatic. Past 30 days a supervisor approves.
"""

PDF = """\
---
name: pdf
description: Extract text from PDF files.
allowed-tools: Read Bash(pdftotext:*)
---

Use scripts/extract.sh on the file.
"""


@pytest.fixture
def skills_dir(project: Path) -> Path:
    root = project / ".agents" / "skills"
    put(root / "refund-policy" / "SKILL.md", REFUND)
    put(root / "refund-policy" / "references" / "exceptions.md", "Damaged goods: always.\n")
    put(root / "pdf" / "SKILL.md", PDF)
    put(root / "pdf" / "scripts" / "extract.sh", '#!/bin/sh\necho extracted "$@"\n', mode=0o755)
    put(root / "pdf" / "references" / "format.md", "PDF 1.7\n")
    put(root / "pdf" / "assets" / "logo.bin", "")
    (root / "pdf" / "assets" / "logo.bin").write_bytes(b"\x89PNG\xff\xfe")
    return root


EnvMaker = Callable[..., satchel.Environment]


@pytest.fixture
def env(layout: satchel.Layout, skills_dir: Path) -> satchel.Environment:
    return satchel.load(layout=layout)


@pytest.fixture
def make_session(env: satchel.Environment) -> Callable[..., Session]:
    def _make(**options: object) -> Session:
        options.setdefault("environ", {"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        return Session(env, **options)  # type: ignore[arg-type]

    return _make


def extra_skill(root: Path, name: str, body: str = "Body.\n", **fields: str) -> Path:
    return put(root / name / "SKILL.md", skill_md(name, body=body, **fields))
