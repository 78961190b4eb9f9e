"""`satchel serve --http`: the address, what counts as loopback, DNS-rebinding settings."""

from __future__ import annotations

import pytest

from satchel.server._http import bind, is_loopback, parse_address, security, url


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("localhost:0", ("localhost", 0)),
        ("[::1]:8765", ("::1", 8765)),
        (" 0.0.0.0:80 ", ("0.0.0.0", 80)),
    ],
)
def test_an_address_is_host_and_port(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("8765", "'8765' is not HOST:PORT (e.g. 127.0.0.1:8765, or [::1]:8765)"),
        ("::1:8765", "'::1:8765' is not HOST:PORT (e.g. 127.0.0.1:8765, or [::1]:8765)"),
        ("host:99999", "port 99999 is out of range (0 to 65535)"),
    ],
)
def test_a_bad_address_says_what_is_wrong(text, why):
    with pytest.raises(ValueError) as caught:
        parse_address(text)
    assert str(caught.value) == why


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.3.2.1", True),
        ("::1", True),
        ("LOCALHOST", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("my-laptop.local", False),  # a name other than localhost is never assumed loopback
    ],
)
def test_what_counts_as_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_rebinding_protection_is_on_for_loopback_only_with_exact_values():
    on = security("127.0.0.2", 8765)
    assert on.enable_dns_rebinding_protection
    names = ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "127.0.0.2:8765"]
    assert on.allowed_hosts == names
    assert on.allowed_origins == [f"http://{n}" for n in names]
    assert security("::1", 80).allowed_hosts == [
        "127.0.0.1:80", "localhost:80", "[::1]:80", "127.0.0.1", "localhost", "[::1]"
    ]  # fmt: skip
    assert not security("0.0.0.0", 8765).enable_dns_rebinding_protection


def test_port_zero_binds_a_free_port_and_the_url_names_it():
    sock = bind("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert port > 0
        assert url(sock) == f"http://127.0.0.1:{port}/mcp"
        with pytest.raises(OSError):
            bind("127.0.0.1", port).close()  # taken while this one listens
    finally:
        sock.close()
