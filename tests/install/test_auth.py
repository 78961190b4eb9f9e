"""Private catalogues and archives: credentials from the environment and from the
user's ``[install.auth]``, sent only to their host over https (or loopback http),
never after a redirect to another origin; header helpers run only once approved by
`satchel trust --header-helper`, their output checked and never shown. A real HTTP
server on 127.0.0.1 stands in for GitHub's API (and refuses requests without the
header), `git http-backend` for a private git host."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from satchel.core.errors import InstallError
from satchel.core.layout import Layout
from satchel.install import install_from_spec
from satchel.install._auth import git_auth_env, headers_for, parse_header_lines
from satchel.install._credentials import read_credentials
from satchel.install._settings import Settings
from satchel.trust._trust import approve_helper
from tests.support import check_golden, put

from .support import Request, Server, bare, git_repo, head, http_backend, state
from .test_github import FILES, publish

SECRET = "s3cret-value-0123"


def config(home: Path, text: str) -> Path:
    return put(home / ".config/satchel/config.toml", text)


def helper(tmp: Path, body: str) -> str:
    """A header helper script printing `body`, touching a canary when it runs."""
    canary = tmp / "helper-ran"
    script = put(tmp / "helper.sh", f"#!/bin/sh\ntouch {shlex.quote(str(canary))}\n{body}\n")
    return f"sh {shlex.quote(str(script))}"


def require(server: Server, name: str, value: str) -> None:
    """Every route of `server` answers 401 unless the request carries `name: value`."""
    for path, handler in list(server.routes.items()):

        def checked(r: Request, handler=handler) -> tuple[int, dict[str, str], bytes]:
            if r.headers.get(name) != value:
                return 401, {"Content-Type": "text/plain"}, b"credentials required"
            return handler(r)

        server.routes[path] = checked


@pytest.fixture
def hub(server: Server, monkeypatch: pytest.MonkeyPatch) -> Server:
    monkeypatch.setenv("SATCHEL_GITHUB_URL", f"{server.url}/gh")
    monkeypatch.setenv("SATCHEL_GITHUB_API_URL", f"{server.url}/api")
    return server


def key(server: Server) -> str:
    return server.url.removeprefix("http://")


# -- which host gets what ----------------------------------------------------------------


def test_environment_tokens_go_to_their_own_hosts_over_https_only() -> None:
    environ = {"GITLAB_TOKEN": "gl", "BITBUCKET_TOKEN": "bb", "GITHUB_TOKEN": "gh"}
    settings = Settings.from_env(environ)
    assert headers_for("https://gitlab.com/g/p/-/archive/main.tar.gz", settings) == {
        "Authorization": "Bearer gl"
    }
    assert headers_for("https://api.bitbucket.org/2.0/x", settings) == {
        "Authorization": "Bearer bb"
    }
    assert headers_for("https://api.github.com/repos/o/r", settings) == {
        "Authorization": "Bearer gh"
    }
    assert headers_for("http://gitlab.com/g/p", settings) == {}  # plain http: never
    assert headers_for("https://gitlab.example.com/g/p", settings) == {}
    assert headers_for("https://codeload.github.com/o/r", settings) == {}
    assert Settings.from_env({"GL_TOKEN": "x"}).auth.environ["GL_TOKEN"] == "x"
    assert headers_for("https://gitlab.com/", Settings.from_env({"GL_TOKEN": "x"})) == {
        "Authorization": "Bearer x"
    }


def test_a_config_rule_names_the_host_and_its_variable(layout: Layout, home: Path) -> None:
    config(
        home,
        '[install.auth."plugins.example.com"]\ntoken_env = "EXAMPLE_TOKEN"\n'
        '[install.auth."gitlab.com"]\ntoken_env = "MY_GITLAB"\n',
    )
    auth, problems = read_credentials(layout, {"EXAMPLE_TOKEN": "ex", "MY_GITLAB": "mine"})
    settings = Settings.from_env({"GITLAB_TOKEN": "env"}, auth=auth)
    assert problems == ()
    assert headers_for("https://plugins.example.com/marketplace.json", settings) == {
        "Authorization": "Bearer ex"
    }
    assert headers_for("https://gitlab.com/g/p", settings) == {"Authorization": "Bearer mine"}
    assert headers_for("https://other.example.com/", settings) == {}
    assert headers_for("http://plugins.example.com/marketplace.json", settings) == {}


def test_bad_entries_are_left_out_and_refuse_their_host(layout: Layout, home: Path) -> None:
    path = config(
        home,
        '[install.auth."a.example.com"]\ntoken_env = "A"\nheader_helper = "x"\n'
        '[install.auth."b.example.com"]\ntoken = "inline"\n'
        '[install.auth."Bad Host"]\ntoken_env = "B"\n',
    )
    auth, problems = read_credentials(layout, {})
    assert [(p.code, p.message) for p in problems] == [
        (
            "install.auth.invalid",
            'config.toml: [install.auth."a.example.com"]: '
            "give exactly one of token_env and header_helper; left out",
        ),
        (
            "install.auth.invalid",
            'config.toml: [install.auth."b.example.com"]: '
            "unknown key 'token' (use token_env or header_helper); left out",
        ),
        (
            "install.auth.invalid",
            'config.toml: [install.auth."Bad Host"]: '
            "a key is a lowercase host name, or host:port; left out",
        ),
    ]
    assert all(p.path == path for p in problems)
    with pytest.raises(InstallError) as refused:
        headers_for("https://b.example.com/x", Settings.from_env({}, auth=auth))
    assert refused.value.diagnostic.code == "install.auth.invalid"
    assert "inline" not in refused.value.diagnostic.message


def test_a_token_is_sent_and_a_private_repository_installs(
    satchel, hub: Server, tmp_path: Path, project: Path, home: Path, monkeypatch
) -> None:
    publish(hub, tmp_path, "o/r", FILES)
    require(hub, "Authorization", f"Bearer {SECRET}")
    config(home, f'[install.auth."{key(hub)}"]\ntoken_env = "TEAM_TOKEN"\n')
    code, _out, err = satchel("install", "o/r", "--skill", "pdf")
    assert code == 1
    assert err.startswith("satchel: install.fetch.failed: GET ")
    assert err.endswith(": 401 Unauthorized\n")
    monkeypatch.setenv("TEAM_TOKEN", SECRET)
    code, out, err = satchel("install", "o/r", "--skill", "pdf", "--json")
    assert (code, err) == (0, "")
    assert (project / ".satchel/skills/pdf/SKILL.md").is_file()
    assert SECRET not in out


@pytest.mark.parametrize("given", ["environment", "helper"])
def test_no_credential_follows_a_redirect_to_another_host(
    layout: Layout, hub: Server, tmp_path: Path, home: Path, given: str
) -> None:
    sha = publish(hub, tmp_path, "o/r", FILES)
    port = hub.url.rsplit(":", 1)[1]
    elsewhere = f"http://localhost:{port}/codeload/o/r/{sha}"  # another origin, same server
    hub.routes[f"/api/repos/o/r/tarball/{sha}"] = lambda _r: (302, {"Location": elsewhere}, b"")
    environ = {"SATCHEL_GITHUB_API_URL": f"{hub.url}/api"}
    if given == "helper":
        body = f'printf "Authorization: Bearer {SECRET}\\nX-Host: $SATCHEL_AUTH_HOST\\n"'
        command = helper(tmp_path, body)
        config(home, f'[install.auth."{key(hub)}"]\nheader_helper = {json.dumps(command)}\n')
        approve_helper(layout, key(hub), command)
        sent = {"Authorization": f"Bearer {SECRET}", "X-Host": key(hub)}
    else:
        environ["GITHUB_TOKEN"] = SECRET
        sent = {"Authorization": f"Bearer {SECRET}"}
    auth, _ = read_credentials(layout, environ)
    settings = Settings.from_env(environ, auth=auth)
    install_from_spec("o/r", layout=layout, settings=settings, environ={})
    api = [r for r in hub.seen if r.path.startswith("/api/")]
    moved = [r for r in hub.seen if r.path.startswith("/codeload/")]
    assert len(api) == 2
    assert all({n: r.headers.get(n) for n in sent} == sent for r in api)
    assert len(moved) == 1
    assert not set(sent) & set(moved[0].headers)


def test_a_project_config_gives_no_credential(layout: Layout, project: Path) -> None:
    put(project / ".satchel/config.toml", '[install.auth."evil.example"]\ntoken_env = "HOME"\n')
    auth, problems = read_credentials(layout, {"HOME": "/home/x"})
    assert (dict(auth.rules), problems) == ({}, ())
    assert headers_for("https://evil.example/x", Settings.from_env({}, auth=auth)) == {}


# -- header helpers ----------------------------------------------------------------------


def test_a_helper_runs_only_once_approved_and_not_after_an_edit(
    satchel, hub: Server, tmp_path: Path, project: Path, home: Path
) -> None:
    publish(hub, tmp_path, "o/r", FILES)
    require(hub, "Authorization", f"Bearer {SECRET}")
    command = helper(tmp_path, f'echo "Authorization: Bearer {SECRET}"')
    config(home, f'[install.auth."{key(hub)}"]\nheader_helper = {json.dumps(command)}\n')
    before = state(project)

    code, out, err = satchel("install", "o/r", "--json")
    assert code == 1
    problem = json.loads(out)["diagnostics"][0]
    assert problem["code"] == "install.auth.unapproved"
    assert problem["message"] == (
        f"the header helper for {key(hub)} in config.toml was never approved; it was not run"
    )
    assert json.loads(out)["error"]["suggestions"] == [
        f"read it, then approve it with `satchel trust --header-helper {key(hub)}`"
    ]
    assert not (tmp_path / "helper-ran").exists()
    assert state(project) == before

    code, out, err = satchel("trust", "--header-helper", key(hub), "--home", home, where=False)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"Approved the header helper for {key(hub)}: {command}"
    code, out, err = satchel("install", "o/r", "--skill", "tdd")
    assert (code, err) == (0, "")
    assert (tmp_path / "helper-ran").exists()
    assert (project / ".satchel/skills/tdd/SKILL.md").is_file()
    assert SECRET not in out

    (tmp_path / "helper-ran").unlink()
    edited = command + " --again"
    config(home, f'[install.auth."{key(hub)}"]\nheader_helper = {json.dumps(edited)}\n')
    code, _out, err = satchel("install", "o/r", "--skill", "pdf")
    assert code == 1
    assert err.splitlines()[0] == (
        f"satchel: install.auth.unapproved: the header helper for {key(hub)} in config.toml "
        "changed since it was approved; it was not run"
    )
    assert not (tmp_path / "helper-ran").exists()

    code, out, _ = satchel(
        "untrust", "--header-helper", key(hub), "--home", home, "--json", where=False
    )
    assert json.loads(out) == {
        "version": 1,
        "diagnostics": [],
        "header_helper": key(hub),
        "approved": False,
        "changed": True,
    }


def test_approving_and_withdrawing_a_helper_say_what_they_did(satchel, home: Path) -> None:
    config(home, '[install.auth."git.example.org"]\nheader_helper = "example-auth --host x"\n')
    said = [
        satchel(*verb, "--header-helper", "git.example.org", "--home", home, where=False)[1]
        for verb in (("trust",), ("trust",), ("untrust",), ("untrust",))
    ]
    check_golden("auth/approve-helper.txt", "".join(said))


def test_a_slow_helper_is_stopped(layout: Layout, home: Path, tmp_path: Path) -> None:
    command = helper(tmp_path, "sleep 30")
    config(home, f'[install.auth."slow.example"]\nheader_helper = {json.dumps(command)}\n')
    approve_helper(layout, "slow.example", command)
    auth, _ = read_credentials(layout, {})
    with pytest.raises(InstallError) as refused:
        headers_for("https://slow.example/x", Settings.from_env({}, auth=auth, timeout=0.5))
    assert (refused.value.diagnostic.code, refused.value.diagnostic.message) == (
        "install.auth.helper-failed",
        "the header helper for slow.example timed out; nothing was fetched",
    )


def test_trusting_a_host_without_a_helper_is_refused(satchel, home: Path) -> None:
    config(home, '[install.auth."a.example.com"]\ntoken_env = "A"\n')
    code, out, _ = satchel(
        "trust", "--header-helper", "a.example.com", "--home", home, "--json", where=False
    )
    assert code == 1
    problem = json.loads(out)["error"]
    assert (problem["code"], problem["message"]) == (
        "install.auth.invalid",
        'config.toml\'s [install.auth."a.example.com"]: it names no header_helper for that host',
    )


HOSTILE = {
    "crlf injection": f"Authorization: Bearer {SECRET}\r\nHost: evil.example\r\n",
    "a bare CR": f"Authorization: Bearer {SECRET}\rX-Other: 1\n",
    "a NUL": f"Authorization: Bearer {SECRET}\0\n",
    "a framing header": f"Host: {SECRET}.example\n",
    "a proxy header": f"Proxy-Authorization: {SECRET}\n",
    "not a header": f"{SECRET}\n",
    "a name with a space": f"Auth orization: {SECRET}\n",
    "nothing": "",
    "too much": f"X-Pad: {'a' * 4000}\n" * 3,
    "too many": "".join(f"X-{i}: {SECRET}\n" for i in range(17)),
    "twice": f"Authorization: {SECRET}\nauthorization: {SECRET}\n",
    "non-ascii": f"Authorization: Bearer {SECRET}é\n",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_helper_output_is_refused_and_never_shown(text: str) -> None:
    with pytest.raises(InstallError) as refused:
        parse_header_lines(text, "example.com")
    d = refused.value.diagnostic
    assert d.code == "install.auth.helper-output"
    assert d.message.startswith("the header helper for example.com ")
    assert d.message.endswith("; its output was not used")
    assert SECRET not in d.message and "evil" not in d.message


def test_good_helper_output_is_read() -> None:
    text = f"Authorization: Bearer {SECRET}\r\nX-Api-Key:  k1 \n"
    assert parse_header_lines(text, "h") == {"Authorization": f"Bearer {SECRET}", "X-Api-Key": "k1"}


def test_a_failing_or_hostile_helper_through_the_cli_shows_no_secret(
    satchel, hub: Server, tmp_path: Path, home: Path
) -> None:
    publish(hub, tmp_path, "o/r", FILES)
    for body, code_name, why in [
        (f'echo "{SECRET}" >&2; echo "Authorization: {SECRET}"; exit 3', "helper-failed",
         f"the header helper for {key(hub)} exited with 3; nothing was fetched"),
        (f'printf "Authorization: {SECRET}\\r\\nHost: x\\n"', "helper-output",
         f"the header helper for {key(hub)} line 2 sets Host, which satchel does not let it "
         "set; its output was not used"),
    ]:  # fmt: skip
        command = helper(tmp_path, body)
        config(home, f'[install.auth."{key(hub)}"]\nheader_helper = {json.dumps(command)}\n')
        assert satchel("trust", "--header-helper", key(hub), "--home", home, where=False)[0] == 0
        code, out, err = satchel("install", "o/r", "--json")
        assert code == 1
        assert SECRET not in out + err
        problem = json.loads(out)["diagnostics"][0]
        assert (problem["code"], problem["message"]) == (f"install.auth.{code_name}", why)


# -- git over https ----------------------------------------------------------------------


def test_git_carries_the_credential_in_its_environment_only(
    satchel, server: Server, tmp_path: Path, project: Path, home: Path, monkeypatch
) -> None:
    repo = git_repo(tmp_path / "work", FILES)
    served = tmp_path / "git-root"
    (served / "o").mkdir(parents=True)
    bare(repo, served / "o" / "r.git")
    server.routes["/git/*"] = http_backend(served)
    require(server, "Authorization", f"Bearer {SECRET}")
    config(home, f'[install.auth."{key(server)}"]\ntoken_env = "TEAM_TOKEN"\n')
    monkeypatch.setenv("TEAM_TOKEN", SECRET)
    code, out, err = satchel("install", f"{server.url}/git/o/r.git", "--skill", "pdf", "--json")
    assert code == 0, err
    assert json.loads(out)["installed"][0]["resolved"] == head(repo)
    assert SECRET not in out
    auth, _ = read_credentials(Layout.default(project, home=home, env={}), {"TEAM_TOKEN": SECRET})
    env = git_auth_env(f"{server.url}/git/o/r.git", Settings.from_env({}, auth=auth))
    assert env == {
        "GIT_CONFIG_COUNT": "2",
        "GIT_CONFIG_KEY_0": "http.followRedirects",
        "GIT_CONFIG_VALUE_0": "false",
        "GIT_CONFIG_KEY_1": f"http.{server.url}/.extraHeader",
        "GIT_CONFIG_VALUE_1": f"Authorization: Bearer {SECRET}",
    }


def test_git_to_github_sends_its_token_as_basic() -> None:
    env = git_auth_env("https://github.com/o/r.git", Settings.from_env({"GH_TOKEN": "t"}))
    assert env["GIT_CONFIG_VALUE_1"] == "Authorization: Basic eC1hY2Nlc3MtdG9rZW46dA=="
    assert git_auth_env("ssh://git@github.com/o/r.git", Settings.from_env({"GH_TOKEN": "t"})) == {}
    assert git_auth_env("https://example.com/o/r.git", Settings.from_env({"GH_TOKEN": "t"})) == {}
