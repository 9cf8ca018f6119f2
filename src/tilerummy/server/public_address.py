"""The server's public address: where invite links point, and which pages may open its WebSocket.

A request's ``Host`` header is whatever the client wrote, so it is trusted only
when it names the configured public URL, an allowed host, or the machine itself
(loopback). A browser's ``Origin`` on the WebSocket is checked against the same
list, so another site's page cannot play in its visitors' names.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from urllib.parse import urlsplit


class AddressError(ValueError):
    """A public URL or host name the server cannot use."""


def _hostname(netloc: str) -> str | None:
    """The host name of ``host[:port]`` in lower case, or None when it is not one."""
    if not netloc or any(char in netloc for char in "/\\ @?#"):
        return None
    try:
        parts = urlsplit(f"//{netloc}")
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return None
    return parts.hostname


def is_loopback(hostname: str) -> bool:
    if hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


def check_public_url(url: str) -> str:
    """``url`` without a trailing slash.

    :raises AddressError: unless it is an http(s) URL with a host and no path.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or _hostname(parts.netloc) is None:
        raise AddressError(f"--public-url {url!r}: expected http(s)://host[:port]")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise AddressError(f"--public-url {url!r}: the server is served at the root, without a path")
    return f"{parts.scheme}://{parts.netloc}"


@dataclass(frozen=True, slots=True)
class PublicAddress:
    #: ``https://play.example.com``: what invite links start with.
    public_url: str | None = None
    #: Host names (lower case) besides the public URL's and loopback that may be used.
    allowed_hosts: frozenset[str] = field(default_factory=frozenset)

    def trusted(self, hostname: str) -> bool:
        if is_loopback(hostname) or hostname in self.allowed_hosts:
            return True
        return self.public_url is not None and urlsplit(self.public_url).hostname == hostname

    def base_url(self, host_header: str, *, secure: bool) -> str:
        """The address invite links start with; empty when the Host header is not trusted
        (the client then prefixes the path with the address it used)."""
        if self.public_url is not None:
            return self.public_url
        hostname = _hostname(host_header)
        if hostname is None or not self.trusted(hostname):
            return ""
        return f"{'https' if secure else 'http'}://{host_header}"

    def origin_allowed(self, origin: str | None) -> bool:
        """A page may open the WebSocket when it is served from a trusted host; a client that
        is not a browser sends no Origin and is not asked."""
        if origin is None:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https"):
            return False
        hostname = _hostname(parts.netloc)
        return hostname is not None and self.trusted(hostname)
