"""OCI registries as a source: `satchel publish` then `install`, by tag and by digest,
both layouts, a tampered blob or manifest refused, hostile per-file titles refused,
the lock pinned by manifest digest for --frozen, update and verify, and browse; all
against a real registry (Debian's docker-registry) on 127.0.0.1."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from satchel.install import Settings, parse_source
from satchel.install._oci import OCI_INDEX, OCI_MANIFEST, Registry, digest_of
from satchel.install._oci_layout import EMPTY, TITLE
from tests.support import put, skill_md, write_tree

from .registry import Registry as Running
from .support import state


@pytest.fixture(autouse=True)
def no_docker_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No credentials but those a test writes: DOCKER_CONFIG points at an empty folder."""
    empty = tmp_path / "docker-empty"
    empty.mkdir()
    monkeypatch.setenv("DOCKER_CONFIG", str(empty))


def a_skill(root: Path, name: str, body: str = "Body.\n") -> Path:
    return write_tree(
        root / name,
        {"SKILL.md": skill_md(name, f"{name} things.", body), "scripts/run.sh": "echo hi\n"},
    )


def publish(satchel, path: Path, ref: str, *extra: str) -> dict[str, object]:
    code, out, err = satchel("publish", path, ref, *extra, "--json", where=False)
    assert code == 0, err + out
    return json.loads(out)


def install(satchel, ref: str, *extra: str) -> dict[str, object]:
    code, out, err = satchel("install", ref, *extra, "--json")
    assert code == 0, err + out
    return json.loads(out)


def refused(satchel, *args: str | Path) -> dict[str, object]:
    code, out, _ = satchel(*args, "--json", where=args[0] != "publish")
    assert code == 1
    return json.loads(out)["error"]


def push_files(registry: Running, repo: str, tag: str, files: dict[str, bytes]) -> str:
    """Layout (b) pushed with satchel's client: one layer per file, titled with its path."""
    env = {"DOCKER_CONFIG": os.environ["DOCKER_CONFIG"]}
    host, _, name = registry.ref(repo).removeprefix("oci://").partition("/")
    with Registry(host, name.rsplit(":", 1)[0], Settings(), env, push=True) as client:
        config = client.push_blob(b"{}")
        layers = [
            {"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": client.push_blob(d),
             "size": len(d), "annotations": {TITLE: title}}
            for title, d in files.items()
        ]  # fmt: skip
        manifest = {
            "schemaVersion": 2,
            "mediaType": OCI_MANIFEST,
            "artifactType": "application/vnd.agentskills.skill.v1",
            "config": {"mediaType": EMPTY, "digest": config, "size": 2},
            "layers": layers,
        }
        return client.push_manifest(tag, OCI_MANIFEST, json.dumps(manifest).encode())


def test_publish_then_install_round_trip(satchel, oci_registry, project, tmp_path):
    skill = a_skill(tmp_path / "src", "pdf")
    os.chmod(skill / "scripts/run.sh", 0o755)
    ref = oci_registry.ref("team/pdf", "v1")
    pushed = publish(satchel, skill, ref)
    assert pushed["reference"] == ref
    assert pushed["kind"] == "skill" and pushed["name"] == "pdf" and pushed["layers"] == 1
    done = install(satchel, ref)
    [entry] = done["installed"]
    assert entry["name"] == "pdf" and entry["source"] == ref and entry["ref"] == "v1"
    assert entry["resolved"] == pushed["digest"]
    target = project / ".satchel/skills/pdf"
    assert (target / "SKILL.md").read_text() == (skill / "SKILL.md").read_text()
    assert stat.S_IMODE(os.stat(target / "scripts/run.sh").st_mode) == 0o755
    lock = json.loads((project / ".satchel/skills.lock").read_text())
    assert lock["entries"][0]["resolved"] == pushed["digest"]


def test_install_says_the_digest_it_installed(satchel, oci_registry, project, tmp_path):
    ref = oci_registry.ref("team/said")
    pushed = publish(satchel, a_skill(tmp_path / "src", "said"), ref)
    code, out, _ = satchel("install", ref)
    assert code == 0
    assert out.splitlines() == [
        f"Installed skill said in {project / '.satchel/skills/said'} from {ref} "
        f"at {str(pushed['digest'])[:19]}"
    ]


def test_publish_is_reproducible_and_prints_the_digest(satchel, oci_registry, tmp_path):
    skill = a_skill(tmp_path / "src", "same")
    first = publish(satchel, skill, oci_registry.ref("team/same", "a"))
    again = publish(satchel, skill, oci_registry.ref("team/same", "b"))
    assert first["digest"] == again["digest"]
    code, out, _ = satchel("publish", skill, oci_registry.ref("team/same", "c"), where=False)
    assert code == 0
    assert out.splitlines() == [
        f"Published skill same to {oci_registry.ref('team/same', 'c')}",
        f"digest {first['digest']}",
        f"install with: satchel install {first['pinned']}",
    ]


def test_pull_by_digest_pins_the_digest_as_the_ref(satchel, oci_registry, project, tmp_path):
    pushed = publish(satchel, a_skill(tmp_path / "src", "bydigest"), oci_registry.ref("t/d"))
    pinned = f"oci://{oci_registry.host}/t/d@{pushed['digest']}"
    assert pushed["pinned"] == pinned
    [entry] = install(satchel, pinned)["installed"]
    assert entry["ref"] == pushed["digest"] and entry["resolved"] == pushed["digest"]
    assert (project / ".satchel/skills/bydigest/SKILL.md").is_file()


def test_layout_files_published_and_pulled(satchel, oci_registry, project, tmp_path):
    skill = a_skill(tmp_path / "src", "perfile")
    pushed = publish(satchel, skill, oci_registry.ref("t/perfile"), "--layout", "files")
    assert pushed["layers"] == 2
    install(satchel, oci_registry.ref("t/perfile"))
    got = project / ".satchel/skills/perfile"
    assert (got / "scripts/run.sh").read_text() == "echo hi\n"
    assert (got / "SKILL.md").read_text() == (skill / "SKILL.md").read_text()


def test_layout_files_pushed_with_the_client(satchel, oci_registry, project):
    files = {
        "tool/SKILL.md": skill_md("tool", "Tool things.").encode(),
        "tool/ref/deep/notes.md": b"notes\n",
    }
    digest = push_files(oci_registry, "t/client", "v1", files)
    [entry] = install(satchel, oci_registry.ref("t/client"))["installed"]
    assert entry["resolved"] == digest and entry["folder"] == "tool"
    assert (project / ".satchel/skills/tool/ref/deep/notes.md").read_bytes() == b"notes\n"


@pytest.mark.parametrize(
    ("title", "why"),
    [
        ("../evil/SKILL.md", "has a '..' segment"),
        ("/etc/evil", "is absolute"),
        ("C:/evil", "is absolute"),
        ("x\\..\\evil", "holds a backslash or NUL"),
        ("x/./y", "has an empty or '.' segment"),
        ("x//y", "has an empty or '.' segment"),
        ("x/\x1b[2Jy", "is empty or holds a control character"),
        ("", "is empty or holds a control character"),
    ],
    ids=["dotdot", "absolute", "drive", "backslash", "dot", "empty-segment", "control", "empty"],
)
def test_a_hostile_per_file_title_is_refused_and_nothing_installed(
    satchel, oci_registry, project, title, why
):
    files = {"ok/SKILL.md": skill_md("ok", "Ok.").encode(), title: b"evil " + title.encode()}
    push_files(oci_registry, "t/hostile", "x", files)
    before = state(project)
    error = refused(satchel, "install", oci_registry.ref("t/hostile", "x"))
    assert error["code"] == "install.oci.path"
    assert error["message"] == (
        f"{oci_registry.ref('t/hostile', 'x')}: layer title {title!r} {why}"
    )
    assert state(project) == before


def test_a_title_twice_or_below_a_file_is_refused(satchel, oci_registry):
    push_files(oci_registry, "t/twice", "x", {"a/SKILL.md": b"1", "a/skill.md": b"2"})
    error = refused(satchel, "install", oci_registry.ref("t/twice", "x"))
    assert (error["code"], error["message"]) == (
        "install.oci.path", f"{oci_registry.ref('t/twice', 'x')}: layer title 'a/skill.md' is twice"
    )  # fmt: skip
    push_files(oci_registry, "t/below", "x", {"a/f": b"1", "a/f/g": b"2"})
    error = refused(satchel, "install", oci_registry.ref("t/below", "x"))
    assert error["code"] == "install.oci.path"
    assert error["message"].endswith("layer title 'a/f/g' is below another file")


def test_a_tampered_blob_is_refused_and_nothing_installed(satchel, oci_registry, project, tmp_path):
    skill = a_skill(tmp_path / "src", "tampered", body="Unique to the tampered test.\n")
    publish(satchel, skill, oci_registry.ref("t/tampered"))
    ref = oci_registry.ref("t/tampered")
    with Registry(oci_registry.host, "t/tampered", Settings(), {}) as client:
        [layer] = client.manifest("v1").doc["layers"]
    blob = oci_registry.blob_file(layer["digest"])
    data = bytearray(blob.read_bytes())
    data[-5] ^= 0xFF  # same size, other bytes
    blob.write_bytes(bytes(data))
    before = state(project)
    error = refused(satchel, "install", ref)
    assert error["code"] == "install.integrity"
    assert error["message"] == (
        f"oci://{oci_registry.host}/t/tampered@{layer['digest']}: the blob's "
        f"{len(data):,} bytes hash to {digest_of(bytes(data))}, not its digest"
    )
    assert state(project) == before


def test_a_tampered_manifest_is_refused(satchel, oci_registry, project, tmp_path):
    skill = a_skill(tmp_path / "src", "badmanifest", body="Unique to the manifest test.\n")
    pushed = publish(satchel, skill, oci_registry.ref("t/badmanifest"))
    stored = oci_registry.blob_file(str(pushed["digest"]))
    changed = stored.read_bytes().replace(b'"schemaVersion":2', b'"schemaVersion": 2')
    stored.write_bytes(changed)
    error = refused(satchel, "install", str(pushed["pinned"]))
    assert error["code"] == "install.integrity"
    assert error["message"] == f"{pushed['pinned']}: the manifest is {digest_of(changed)}"
    assert not (project / ".satchel").exists()


def test_an_index_leads_to_the_skill_manifest(satchel, oci_registry, project, tmp_path):
    pushed = publish(satchel, a_skill(tmp_path / "src", "indexed"), oci_registry.ref("t/idx"))
    with Registry(oci_registry.host, "t/idx", Settings(), {}, push=True) as client:
        size = len(client.manifest(str(pushed["digest"])).body)
        index = {
            "schemaVersion": 2,
            "mediaType": OCI_INDEX,
            "manifests": [
                {"mediaType": OCI_MANIFEST, "digest": pushed["digest"], "size": size,
                 "artifactType": "application/vnd.agent.skill.v1+json"},
            ],
        }  # fmt: skip
        index_digest = client.push_manifest("all", OCI_INDEX, json.dumps(index).encode())
    [entry] = install(satchel, oci_registry.ref("t/idx", "all"))["installed"]
    assert entry["resolved"] == index_digest
    assert (project / ".satchel/skills/indexed/SKILL.md").is_file()


def test_lock_pins_the_digest_for_frozen_update_and_verify(
    satchel, oci_registry, project, tmp_path
):
    ref = oci_registry.ref("t/moving", "stable")
    first = publish(satchel, a_skill(tmp_path / "one", "moving", body="One.\n"), ref)
    install(satchel, ref)
    second = publish(satchel, a_skill(tmp_path / "two", "moving", body="Two.\n"), ref)
    assert first["digest"] != second["digest"]
    target = project / ".satchel/skills/moving"
    for path in sorted(target.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    target.rmdir()
    frozen = install(satchel, "--frozen")
    [entry] = frozen["installed"]
    assert entry["resolved"] == first["digest"]
    assert "One." in (target / "SKILL.md").read_text()  # the locked digest, not the tag
    code, out, _ = satchel("verify", "--json")
    assert code == 0 and [c["status"] for c in json.loads(out)["entries"]] == ["ok"]
    code, out, _ = satchel("update", "--json")
    assert code == 0
    [change] = json.loads(out)["changes"]
    assert (change["before"], change["after"]) == (first["digest"], second["digest"])
    assert change["changed"] == ["SKILL.md"]
    assert "Two." in (target / "SKILL.md").read_text()


def test_browse_lists_the_skills_of_an_oci_source(satchel, oci_registry, tmp_path):
    plugin = write_tree(
        tmp_path / "src" / "kit",
        {
            ".claude-plugin/plugin.json": json.dumps({"name": "kit", "description": "A kit."}),
            "skills/alpha/SKILL.md": skill_md("alpha", "Alpha things."),
        },
    )
    pushed = publish(satchel, plugin, oci_registry.ref("t/kit"))
    assert pushed["kind"] == "plugin"
    code, out, _ = satchel("browse", oci_registry.ref("t/kit"), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["resolved"] == pushed["digest"]
    assert [(p["name"], p["folder"], p["source"]) for p in doc["plugins"]] == [
        ("kit", "kit", oci_registry.ref("t/kit"))
    ]


def test_publish_refuses_a_folder_that_is_not_one_skill(satchel, oci_registry, tmp_path):
    a_skill(tmp_path / "many", "one")
    a_skill(tmp_path / "many", "two")
    error = refused(satchel, "publish", tmp_path / "many", oci_registry.ref("t/x"))
    assert error["code"] == "install.skill.none"
    put(tmp_path, "bad/SKILL.md", "---\nname: bad\n---\nNo description.\n")
    error = refused(satchel, "publish", tmp_path / "bad", oci_registry.ref("t/x"))
    assert error["code"] == "install.skill.invalid"
    assert error["message"] == (
        "skill 'bad': skill.description.missing: the skill has no description, "
        f"so no model would know when to use it ({tmp_path / 'bad'})"
    )


def test_publish_refuses_a_digest_target(satchel, tmp_path):
    skill = a_skill(tmp_path / "src", "x")
    error = refused(satchel, "publish", skill, "oci://127.0.0.1:1/t/x@sha256:" + "a" * 64)
    assert error == {
        "code": "install.source.invalid",
        "message": f"oci://127.0.0.1:1/t/x@sha256:{'a' * 64}: publish to a tag; "
        "the digest is what the push gives back",
    } | {k: v for k, v in error.items() if k not in ("code", "message")}


def test_a_missing_tag_is_a_fetch_failure(satchel, oci_registry):
    error = refused(satchel, "install", oci_registry.ref("t/none", "nope"))
    assert error["code"] == "install.fetch.failed"
    assert "not in the registry" in error["message"]


def test_parse_source_reads_oci_references():
    assert parse_source("oci://127.0.0.1:5000/a/b:v1").spec() == "oci://127.0.0.1:5000/a/b:v1"


def _published_tree(tmp_path: Path) -> tuple[Path, Path]:
    """A skill to publish and a secret beside it, outside the skill."""
    secret = put(tmp_path, "secret.txt", "the user's secret\n")
    return a_skill(tmp_path / "src", "leaky"), secret


def _chained_links(skill, secret):
    """Two links each inside the skill as written: `up` leads to the skill's top, and
    `out` goes one above what `up` reaches, to the secret beside the skill."""
    (skill / "scripts" / "deep").mkdir()
    os.symlink("../..", skill / "scripts" / "deep" / "up")
    os.symlink("up/../secret.txt", skill / "scripts" / "deep" / "out")


@pytest.mark.parametrize(
    ("make", "code", "why"),
    [
        pytest.param(
            lambda skill, secret: os.link(secret, skill / "notes.md"),
            "install.archive.link",
            "'notes.md' is a hardlink (2 links): its content may be another file's",
            id="hardlink",
        ),
        pytest.param(
            lambda skill, secret: os.symlink(secret, skill / "notes.md"),
            "install.archive.link",
            "'notes.md' links outside the tree ({secret})",
            id="absolute-symlink",
        ),
        pytest.param(
            lambda skill, secret: os.symlink("../../secret.txt", skill / "scripts" / "s.txt"),
            "install.archive.link",
            "'scripts/s.txt' links outside the tree (../../secret.txt)",
            id="symlink-climbing-out",
        ),
        pytest.param(
            lambda skill, secret: os.symlink("../other", skill / "other"),
            "install.archive.link",
            "'other' links outside the tree (../other)",
            id="symlink-to-a-sibling-of-the-skill",
        ),
        pytest.param(
            _chained_links,
            "install.archive.link",
            "'scripts/deep/out' links outside the tree (up/../secret.txt)",
            id="links-that-climb-out-only-when-followed",
        ),
        pytest.param(
            lambda skill, secret: put(skill, "Notes.md", "a\n") and put(skill, "notes.md", "b\n"),
            "install.archive.duplicate",
            "'notes.md' is in the tree twice",
            id="same-path-after-casefolding",
        ),
    ],
)
def test_publish_refuses_what_install_would_refuse(tmp_path, make, code, why):
    """The layer is judged by the archive extractor's rules before it is built: a file
    outside the skill never reaches the registry through a link."""
    from satchel.install import InstallError, Limits
    from satchel.install._oci_layout import pack

    skill, secret = _published_tree(tmp_path)
    make(skill, secret)
    with pytest.raises(InstallError) as refused_pack:
        pack(skill, "leaky", "skill", "leaky things.", files=False, limits=Limits())
    found = refused_pack.value.diagnostic
    assert (found.code, found.message) == (code, why.replace("{secret}", str(secret)))


def test_publish_keeps_a_symlink_that_stays_in_the_skill(satchel, oci_registry, project, tmp_path):
    skill, _ = _published_tree(tmp_path)
    os.symlink("scripts/run.sh", skill / "run")
    os.symlink("../SKILL.md", skill / "scripts" / "skill.md")
    pushed = publish(satchel, skill, oci_registry.ref("t/inlinks"))
    install(satchel, str(pushed["pinned"]))
    installed = project / ".satchel" / "skills" / "leaky"
    assert os.readlink(installed / "run") == "scripts/run.sh"
    assert (installed / "scripts" / "skill.md").read_text() == (skill / "SKILL.md").read_text()


def test_a_refused_publish_pushes_nothing(satchel, oci_registry, tmp_path):
    skill, secret = _published_tree(tmp_path)
    os.link(secret, skill / "scripts" / "notes.md")
    ref = oci_registry.ref("t/leaky")
    error = refused(satchel, "publish", skill, ref)
    assert (error["code"], error["message"]) == (
        "install.archive.link",
        "'scripts/notes.md' is a hardlink (2 links): its content may be another file's "
        f"({skill / 'scripts' / 'notes.md'})",
    )
    assert refused(satchel, "install", ref)["code"] == "install.fetch.failed"  # no tag
    assert not list(Path(oci_registry.root).rglob("*leaky*"))  # no blob, no repository
