"""Claude Code's, Codex's and Cursor's plugin catalogues (marketplace.json) read into one
model: every source kind, strict false entries, pluginRoot, renames; a bad entry is
skipped with its reason and never hides the good ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel.install._catalogue import read_catalogue
from tests.support import put

# modelled on anthropics/skills and anthropics/claude-plugins-official
CLAUDE = {
    "name": "team-tools",
    "owner": {"name": "Platform team", "email": "platform@example.com"},
    "metadata": {"description": "What the platform team ships.", "version": "2.1.0",
                 "pluginRoot": "./plugins"},
    "renames": {"old-deploy": "deploy-kit", "retired": None},
    "plugins": [
        {"name": "document-skills", "source": "./", "strict": False,
         "description": "Read and write office documents.",
         "skills": ["./skills/xlsx", "./skills/docx"]},
        {"name": "deploy-kit", "source": "deploy-kit", "version": "1.4.0",
         "category": "deployment", "tags": ["deploy"]},
        {"name": "linear", "source": {"source": "github", "repo": "acme/linear-plugin",
                                      "ref": "v2", "sha": "a" * 40}},
        {"name": "sentry", "source": {"source": "git-subdir", "url": "https://git.example.com/mono.git",
                                      "path": "plugins/sentry", "ref": "main"}},
        {"name": "figma", "source": {"source": "url", "url": "https://git.example.com/figma.git"}},
        {"name": "notes", "source": {"source": "npm", "package": "@acme/notes-plugin",
                                     "version": "^3.0.0"}},
        {"name": "bundle", "source": {"source": "archive", "url": "https://example.com/b.tgz",
                                      "sha256": "b" * 64}},
    ],
}  # fmt: skip


def catalogue_at(root: Path, rel: str, document: Any) -> Path:
    put(root, rel, json.dumps(document))
    return root


def test_a_claude_code_catalogue_reads_every_source_kind(tmp_path: Path):
    root = catalogue_at(tmp_path / "repo", ".claude-plugin/marketplace.json", CLAUDE)
    catalogue, diags = read_catalogue(root)
    assert diags == ()
    assert catalogue is not None
    assert (catalogue.format, catalogue.name, catalogue.root) == ("claude", "team-tools", root)
    assert (catalogue.description, catalogue.version, catalogue.plugin_root) == (
        "What the platform team ships.", "2.1.0", "./plugins",
    )  # fmt: skip
    assert [(e.name, e.source.to_json()) for e in catalogue.entries] == [
        ("document-skills", {"kind": "path", "path": "."}),
        ("deploy-kit", {"kind": "path", "path": "plugins/deploy-kit"}),
        ("linear", {"kind": "github", "repo": "acme/linear-plugin", "ref": "v2", "sha": "a" * 40}),
        ("sentry", {"kind": "git-subdir", "url": "https://git.example.com/mono.git",
                    "path": "plugins/sentry", "ref": "main"}),
        ("figma", {"kind": "url", "url": "https://git.example.com/figma.git"}),
        ("notes", {"kind": "npm", "package": "@acme/notes-plugin", "version": "^3.0.0"}),
        ("bundle", {"kind": "archive", "url": "https://example.com/b.tgz", "sha256": "b" * 64}),
    ]  # fmt: skip


def test_a_strict_false_entry_carries_its_components(tmp_path: Path):
    root = catalogue_at(tmp_path / "repo", ".claude-plugin/marketplace.json", CLAUDE)
    catalogue, _ = read_catalogue(root)
    assert catalogue is not None
    documents = catalogue.entries[0]
    assert (documents.strict, dict(documents.components)) == (
        False, {"skills": ["./skills/xlsx", "./skills/docx"]},
    )  # fmt: skip
    deploy = catalogue.entries[1]
    assert (deploy.strict, deploy.version, deploy.category, deploy.tags) == (
        True, "1.4.0", "deployment", ("deploy",),
    )  # fmt: skip


def test_renames_lead_to_the_new_entry_or_to_none(tmp_path: Path):
    root = catalogue_at(tmp_path / "repo", ".claude-plugin/marketplace.json", CLAUDE)
    catalogue, _ = read_catalogue(root)
    assert catalogue is not None
    found = catalogue.entry("old-deploy")
    assert found is not None and found.name == "deploy-kit"
    assert catalogue.entry("retired") is None
    assert catalogue.entry("nothing-by-that-name") is None


def test_a_codex_catalogue_reads_local_and_url_sources(tmp_path: Path):
    document = {
        "name": "openai-curated",
        "interface": {"displayName": "Curated"},
        "plugins": [
            {"name": "figma", "source": {"source": "local", "path": "./plugins/figma"},
             "policy": {"installation": "AVAILABLE"}, "category": "Design"},
            {"name": "superpowers", "source": {"source": "url", "url": "./"}},
        ],
    }  # fmt: skip
    root = catalogue_at(tmp_path / "repo", ".agents/plugins/marketplace.json", document)
    catalogue, diags = read_catalogue(root)
    assert diags == () and catalogue is not None
    assert (catalogue.format, catalogue.root) == ("codex", root)
    assert [(e.name, e.source.to_json(), e.category) for e in catalogue.entries] == [
        ("figma", {"kind": "path", "path": "plugins/figma"}, "Design"),
        ("superpowers", {"kind": "url", "url": "./"}, None),
    ]
    assert catalogue.entries[0].fields == {"policy": {"installation": "AVAILABLE"}}


def test_a_cursor_catalogue_has_claude_codes_shape(tmp_path: Path):
    document = {"name": "cursor-team", "owner": {"name": "Us"},
                "plugins": [{"name": "rules-pack", "source": "./rules-pack"}]}  # fmt: skip
    root = catalogue_at(tmp_path / "repo", ".cursor-plugin/marketplace.json", document)
    catalogue, diags = read_catalogue(root)
    assert diags == () and catalogue is not None
    assert (catalogue.format, [e.source.path for e in catalogue.entries]) == (
        "cursor", ["rules-pack"],
    )  # fmt: skip


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ({"source": "./x"}, "`name` must be a non-empty string without '/'"),
        ({"name": "a/b", "source": "./x"}, "`name` must be a non-empty string without '/'"),
        ({"name": "x", "source": 3}, "`source` must be a path or an object, not a number"),
        ({"name": "x", "source": {"source": "command", "command": "make-plugin"}},
         "source kind 'command' is not one satchel reads (github, url, git-subdir, npm, "
         "archive, local)"),
        ({"name": "x", "source": {"source": "github"}}, "a github source needs `repo`"),
        ({"name": "x", "source": {"source": "npm", "package": 1}},
         "source `package` must be a string, not a number"),
        ({"name": "x", "source": "../outside"},
         "source path '../outside' leaves the catalogue's folder"),
        ({"name": "x", "source": "/etc"}, "source path '/etc' leaves the catalogue's folder"),
        ({"name": "x", "source": {"source": "github", "repo": "a/b", "path": "../../x"}},
         "source path '../../x' leaves the catalogue's folder"),
        ({"name": "x", "source": "./x", "strict": "no"},
         "`strict` must be true or false, not a string"),
        ({"name": "x", "source": "./x", "tags": "one"}, "`tags` must be a list of strings"),
        ("just-a-name", "an entry must be an object, not a string"),
    ],
)  # fmt: skip
def test_a_bad_entry_is_skipped_and_the_good_ones_kept(tmp_path: Path, entry: Any, reason: str):
    document = {"name": "t", "owner": {"name": "o"},
                "plugins": [entry, {"name": "good", "source": "./good"}]}  # fmt: skip
    path = tmp_path / "repo" / ".claude-plugin" / "marketplace.json"
    catalogue, diags = read_catalogue(
        catalogue_at(tmp_path / "repo", ".claude-plugin/marketplace.json", document)
    )
    assert catalogue is not None
    assert [e.name for e in catalogue.entries] == ["good"]
    assert [(d.code, d.message, d.path) for d in diags] == [
        ("catalogue.entry.invalid", f"plugins entry #1: {reason}; it is skipped", path)
    ]


def test_a_name_listed_twice_keeps_the_first(tmp_path: Path):
    document = {"name": "t", "owner": {"name": "o"}, "plugins": [
        {"name": "twin", "source": "./one"}, {"name": "twin", "source": "./two"}]}  # fmt: skip
    catalogue, diags = read_catalogue(
        catalogue_at(tmp_path / "repo", ".claude-plugin/marketplace.json", document)
    )
    assert catalogue is not None
    assert [e.source.path for e in catalogue.entries] == ["one"]
    assert [(d.code, d.message) for d in diags] == [
        ("catalogue.entry.duplicate", "plugin 'twin' is listed twice; the first entry is kept")
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "marketplace.json: it must hold a JSON object, not a list"),
        (
            '{"name": "t", "plugins": {}}',
            "marketplace.json: `plugins` must be a list, not a mapping",
        ),
        ('{"plugins": []}', "marketplace.json: `name` must be a non-empty string"),
        ("{nope", "marketplace.json: it is not valid JSON"),
    ],
)
def test_a_file_that_cannot_be_a_catalogue_is_one_fatal_diagnostic(
    tmp_path: Path, text: str, message: str
):
    path = put(tmp_path / "repo", ".claude-plugin/marketplace.json", text)
    catalogue, diags = read_catalogue(tmp_path / "repo")
    assert catalogue is None
    assert [(d.code, d.path) for d in diags] == [("catalogue.invalid", path)]
    assert diags[0].message.startswith(message)


def test_a_folder_without_a_catalogue_says_which_files_it_looked_for(tmp_path: Path):
    catalogue, diags = read_catalogue(tmp_path)
    assert catalogue is None
    assert [d.message for d in diags] == [
        "no catalogue here: none of .claude-plugin/marketplace.json, "
        ".agents/plugins/marketplace.json, .cursor-plugin/marketplace.json"
    ]
