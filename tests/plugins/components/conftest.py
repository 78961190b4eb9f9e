"""Fixtures for the component parsers: a plugin root in tmp_path, file writers and the
official Agent Plugins 1.0 MCP schema as a test oracle (data/mcp.schema.json, a copy of
the Apache-2.0 schema kept beside the spec summary)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

SCHEMA_URL = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
_SCHEMA = json.loads((Path(__file__).parent / "data" / "mcp.schema.json").read_text())
VALIDATOR = Draft202012Validator(_SCHEMA)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "plugin"
    path.mkdir()
    return path


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def write_json(path: Path, value: Any) -> Path:
    return write(path, json.dumps(value, indent=2))


def mcp_doc(servers: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": SCHEMA_URL, "mcpServers": servers}


def schema_valid(doc: Any) -> bool:
    """Whether the official mcp.schema.json accepts `doc`."""
    return VALIDATOR.is_valid(doc)


def codes(diags: Any) -> list[str]:
    return [d.code for d in diags]
