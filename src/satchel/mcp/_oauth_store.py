"""Where a remote MCP server's OAuth authorization is kept: one entry of the system
keyring per server, never a plain file.

The entry's service is ``<client> mcp oauth`` (``satchel mcp oauth``); its user is the
server's name among all servers (`satchel.mcp._names.server_id`) and a digest of the
URL it connects to, so that a changed URL never receives another server's token. The
entry holds one JSON object: the tokens, when the access token expires (seconds since
the epoch), the client registration (dynamic, or the entry's configured client id),
and the authorization server's metadata found when the tokens were issued (so that a
refresh goes to its token endpoint without a new discovery).

Beside the entries, an index by the server's canonical resource URL (RFC 8707, the MCP
spec's resource indicator: scheme and host lower case, no fragment, no trailing slash;
`canonical`): the user ``<digest> index`` (never an entry's user, which ends in hex
digits; the index kept before as ``resource <digest>`` is still read) holds the name
of the entry whose tokens were last kept for that URL, so a path that knows only the
URL (a skill server, an ``mcp+https://`` install, a gateway's source) finds a login
made by name, and a login made by URL (`url_store`) is found by a server of any name
at that URL. Reading tries the entry of the name first, then the index
(`KeyringStore.read`), so logins kept before the index existed are still read by name;
writing tokens points the index at the entry written. Forgetting removes the entry,
the entry the index points at and the index (`KeyringStore.forget`): what a
connection would read.

`KeyringStore` is the SDK's ``TokenStorage`` over that entry. A keyring that cannot be
read reads as nothing stored; one that cannot be written raises `StoreFailed`.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from satchel.mcp._names import server_id

if TYPE_CHECKING:
    from mcp.shared.auth import (
        OAuthClientInformationFull,
        OAuthMetadata,
        OAuthToken,
        ProtectedResourceMetadata,
    )

    from satchel.core.layout import Layout
    from satchel.mcp._spec import McpServer

__all__ = [
    "KeyringStore",
    "StoreFailed",
    "canonical",
    "entry_name",
    "kept_login",
    "resource_index",
    "service",
    "url_name",
    "url_store",
]


class StoreFailed(Exception):
    """The keyring could not keep or forget an authorization; the message says why."""


def service(layout: Layout) -> str:
    """The keyring service every server's authorization is kept under."""
    return service_of(layout.client)


def service_of(client: str) -> str:
    """The keyring service of the client named `client` (``satchel``)."""
    return f"{client} mcp oauth"


def entry_name(server: McpServer, url: str) -> str:
    """The keyring user of `server` connecting to `url`."""
    return _entry(server_id(server), url)


def _entry(who: str, url: str) -> str:
    digest = hashlib.sha256(url.encode("utf-8")).hexdigest()[:16]
    return f"{who} {digest}"


def canonical(url: str) -> str:
    """The canonical resource URL of the server at `url` (RFC 8707, the MCP spec's
    resource indicator): scheme and host in lower case, no fragment, no trailing slash."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def url_name(url: str) -> str:
    """The name of a server known only by its `url`: its canonical URL with the query
    (which may hold a secret: ``?token=...``) shown as ``***``; the entry's digest of the
    whole URL keeps two such servers apart."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(canonical(url))
    return urlunsplit(parts._replace(query="***")) if parts.query else urlunsplit(parts)


def resource_index(url: str) -> str:
    """The keyring user of the index entry of the server at `url`: ``<digest> index``,
    which no entry's user (``<name> <digest>``, ending in hex digits) can be."""
    return f"{_resource_digest(url)} index"


def _resource_digest(url: str) -> str:
    return hashlib.sha256(canonical(url).encode("utf-8")).hexdigest()[:16]


def url_store(service: str, url: str) -> KeyringStore:
    """The store of a server known only by its `url` (``satchel mcp login URL``, a skill
    server, an ``mcp+https://`` install): the entry named by the URL, else the one the
    index names."""
    return KeyringStore(service, _entry(url_name(url), url), index=resource_index(url))


def kept_login(layout: Layout, server: McpServer, url: str) -> bool:
    """Whether the keyring holds tokens for `server` at `url` (``satchel mcp login``'s,
    by its name or by the URL), read without the SDK (``mcp list``: nothing is started)."""
    kept = service(layout)
    other = _indexed(kept, resource_index(url))
    return _tokens_in(kept, entry_name(server, url)) or (
        other is not None and _tokens_in(kept, other)
    )


def _tokens_in(service: str, name: str) -> bool:
    return _has_tokens(_record(service, name))


def _record(service: str, name: str) -> dict[str, Any] | None:
    text = _get(service, name)
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _indexed(service: str, index: str) -> str | None:
    """The entry name the index `index` points at, if any (its user, else the one it
    was kept under before: `legacy_index`)."""
    for user in _index_users(index):
        data = _record(service, user)
        entry = data.get("entry") if data is not None else None
        if isinstance(entry, str) and entry and not _has_tokens(data):
            return entry
    return None


def _index_users(index: str) -> tuple[str, ...]:
    """The users the index `index` may be kept under: its own, then the one it was
    kept under before (``resource <digest>``, which is also the entry of a server named
    ``resource``; an index record holds no tokens): read and removed, never written."""
    digest, _, kind = index.partition(" ")
    return (index, f"resource {digest}") if kind == "index" else (index,)


class KeyringStore:
    """The SDK's token storage, kept in the keyring entry `name` of `service`."""

    def __init__(self, service: str, name: str, *, index: str | None = None) -> None:
        self.service = service
        self.name = name
        self.index = index  # the index entry of the server's URL: read second, kept current
        self.tokens: OAuthToken | None = None
        self.expires_at: float | None = None
        self.client: OAuthClientInformationFull | None = None
        self.metadata: OAuthMetadata | None = None
        self.resource: ProtectedResourceMetadata | None = None
        self.found = False  # whether the keyring held an entry when it was read
        self.deferred = False  # a login: a registration is kept only with its tokens

    # -- the keyring ------------------------------------------------------------

    def read(self) -> None:
        """Load the entry (nothing when there is none or the keyring cannot be read);
        when it holds no tokens, the entry the URL's index names, which is then the one
        written to."""
        from mcp.shared.auth import (
            OAuthClientInformationFull,
            OAuthMetadata,
            OAuthToken,
            ProtectedResourceMetadata,
        )

        data = _record(self.service, self.name)
        other = _indexed(self.service, self.index) if self.index is not None else None
        if not _has_tokens(data) and other is not None and other != self.name:
            found = _record(self.service, other)
            if _has_tokens(found):
                self.name, data = other, found
        if data is None:
            return
        self.found = True
        self.tokens = _parsed(OAuthToken, data.get("tokens"))
        expires = data.get("expires_at")
        self.expires_at = float(expires) if isinstance(expires, int | float) else None
        self.client = _parsed(OAuthClientInformationFull, data.get("client"))
        self.metadata = _parsed(OAuthMetadata, data.get("metadata"))
        self.resource = _parsed(ProtectedResourceMetadata, data.get("resource"))

    def write(self) -> None:
        """Keep the whole entry; `StoreFailed` when the keyring refuses."""
        record = {
            "tokens": _dumped(self.tokens),
            "expires_at": self.expires_at,
            "client": _dumped(self.client),
            "metadata": _dumped(self.metadata),
            "resource": _dumped(self.resource),
        }
        try:
            import keyring

            keyring.set_password(self.service, self.name, json.dumps(record))
            if self.index is not None and self.tokens is not None:
                keyring.set_password(self.service, self.index, json.dumps({"entry": self.name}))
        except Exception as e:  # noqa: BLE001  # any keyring failure is reported, never a traceback
            raise StoreFailed(_why(e)) from None

    def forget(self) -> bool:
        """Remove what a connection would read: the entry, the entry the URL's index
        points at, and the index; whether there was an entry. `StoreFailed` when the
        keyring refuses."""
        try:
            import keyring

            names = [self.name]
            if self.index is not None:
                other = _indexed(self.service, self.index)
                if other is not None and other != self.name:
                    names.append(other)
            removed = [name for name in names if _delete(keyring, self.service, name)]
            if self.index is not None:
                for user in _index_users(self.index):
                    if _indexed(self.service, user) is not None:
                        _delete(keyring, self.service, user)
        except Exception as e:  # noqa: BLE001  # any keyring failure is reported, never a traceback
            raise StoreFailed(_why(e)) from None
        return bool(removed)

    # -- the SDK's TokenStorage -------------------------------------------------

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        from mcp.shared.auth_utils import calculate_token_expiry

        self.tokens = tokens
        self.expires_at = calculate_token_expiry(tokens.expires_in)
        self.write()

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info
        if not self.deferred:
            self.write()


def _has_tokens(data: dict[str, Any] | None) -> bool:
    tokens = data.get("tokens") if data is not None else None
    return isinstance(tokens, dict) and bool(tokens.get("access_token"))


def _delete(keyring: Any, service: str, name: str) -> bool:
    """Delete the entry `name`; whether there was one."""
    from keyring.errors import PasswordDeleteError

    if keyring.get_password(service, name) is None:
        return False
    try:
        keyring.delete_password(service, name)
    except PasswordDeleteError:
        return False
    return True


def _get(service: str, name: str) -> str | None:
    try:
        import keyring

        return keyring.get_password(service, name)
    except Exception:  # noqa: BLE001  # a keyring that cannot be read holds nothing
        return None


def _parsed(kind: Any, value: object) -> Any:
    """`value` validated as the pydantic model `kind`; None when it is not one."""
    from pydantic import ValidationError

    if not isinstance(value, dict):
        return None
    try:
        return kind.model_validate(value)
    except ValidationError:
        return None


def _dumped(value: Any) -> Any:
    return None if value is None else value.model_dump(mode="json", exclude_none=True)


def _why(e: Exception) -> str:
    return " ".join(str(e).split()) or type(e).__name__
