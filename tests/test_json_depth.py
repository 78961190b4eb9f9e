"""Every JSON satchel reads is bounded in depth (`satchel.core._json.loads`, 64 levels): a
100,000-deep array in a manifest, a hooks file, an .mcp.json, a lock file or the trust
list is a diagnostic naming the limit, never a `RecursionError`."""

from __future__ import annotations

import json

import pytest

import satchel
from satchel.core._json import MAX_DEPTH, TooDeep, loads, nesting, top_level
from satchel.install import InstallError
from satchel.install._lock import read_lock
from satchel.trust._trust import read_trust, store_path
from tests.support import put

DEEP = "[" * 100_000 + "]" * 100_000
TOO_DEEP = f"it nests deeper than {MAX_DEPTH} levels"


def test_the_parser_refuses_past_the_limit_and_reads_up_to_it():
    with pytest.raises(TooDeep, match=f"^{TOO_DEEP}$"):
        loads(DEEP)
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert nesting(at_limit) == MAX_DEPTH
    assert loads(at_limit) is not None
    with pytest.raises(TooDeep):
        loads("[" + at_limit + "]")
    assert loads(b'{"a": "[[[[{{{{"}', max_depth=1) == {"a": "[[[[{{{{"}


def test_brackets_inside_strings_do_not_count():
    assert nesting(r'{"a": "[\"[[[", "b": [{}]}') == 3


def test_the_top_level_id_of_a_too_deep_message_is_found_without_parsing_it():
    message = '{"jsonrpc": "2.0", "result": {"x": ' + DEEP + '}, "id": 7}'
    assert top_level(message, "id") == 7
    assert top_level('{"x": {"id": 3}}', "id") is None
    assert top_level('[{"id": 3}]', "id") is None
    assert top_level('{"id": [1]}', "id") is None


def test_deep_files_of_a_trusted_project_are_diagnostics(layout):
    project = layout.project
    put(
        project / ".satchel/plugins/kit/.claude-plugin/plugin.json",
        f'{{"name": "kit", "x": {DEEP}}}',
    )
    put(project / ".satchel/plugins/hk/.claude-plugin/plugin.json", '{"name": "hk"}')
    put(project / ".satchel/plugins/hk/hooks/hooks.json", f'{{"hooks": {DEEP}}}')
    put(project / ".mcp.json", f'{{"mcpServers": {DEEP}}}')
    put(project / ".claude/settings.json", f'{{"hooks": {DEEP}}}')
    env = satchel.load(layout=layout, claude_settings_hooks=True)
    found = {(d.code, d.message, d.path.relative_to(project)) for d in env.diagnostics if d.path}
    assert found >= {
        (
            "plugin.manifest.invalid",
            f".claude-plugin/plugin.json: it is not valid JSON: {TOO_DEEP}",
            project.joinpath(".satchel/plugins/kit/.claude-plugin/plugin.json").relative_to(
                project
            ),
        ),
        (
            "plugin.hooks.invalid",
            f"not valid JSON: {TOO_DEEP}",
            project.joinpath(".satchel/plugins/hk/hooks/hooks.json").relative_to(project),
        ),
        (
            "config.mcp.invalid",
            f"not valid JSON: {TOO_DEEP}",
            project.joinpath(".mcp.json").relative_to(project),
        ),
        (
            "hook.file.invalid",
            f"not valid JSON ({TOO_DEEP}); no hook of this file loads",
            project.joinpath(".claude/settings.json").relative_to(project),
        ),
    }


def test_a_deep_lock_file_is_refused(tmp_path):
    path = put(
        tmp_path / "skills.lock", json.dumps({"version": 1}).replace("}", f', "entries": {DEEP}}}')
    )
    with pytest.raises(InstallError) as refused:
        read_lock(path)
    assert (refused.value.code, str(refused.value)) == (
        "install.lock.invalid",
        f"the lock file is not valid: {TOO_DEEP}",
    )


def test_a_deep_trust_list_trusts_nothing(layout):
    put(store_path(layout), f'{{"folders": {DEEP}}}')
    listed = read_trust(layout)
    assert listed.folders == ()
    assert listed.problem is not None
    assert (listed.problem.code, listed.problem.message) == (
        "config.trust.invalid",
        f"trusted-folders.json could not be read (not JSON ({TOO_DEEP})); no folder is trusted",
    )
