"""Which hosts are loopback: the one rule the HTTP checks of MCP and install share."""

from __future__ import annotations

import ipaddress

__all__ = ["LOOPBACK_NAMES", "is_loopback"]

# the loopback spellings plain http:// is accepted for in install sources, literally
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses; any other name is not."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
