"""Headers every HTTP answer carries, so a browser keeps the pages to themselves.

The page loads only its own scripts, styles and WebSocket (Content-Security-Policy),
may not be framed by another site (clickjacking), and no file is read as another
type than it is served as. In a cluster, the page may also connect to the
processes' own addresses (``room_server``), and to those alone.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI middleware: adds :data:`HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        app = scope.get("app")
        node = getattr(getattr(app, "state", None), "cluster", None)
        extra = _origins(node.direct_urls()) if node is not None else []
        policy = HEADERS["Content-Security-Policy"]
        if extra:
            policy = policy.replace("connect-src 'self'", " ".join(["connect-src 'self'", *extra]))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, policy if name == "Content-Security-Policy" else value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _origins(urls: list[str]) -> list[str]:
    """The WebSocket origins of these addresses (``ws://host:port``), each once."""
    origins: list[str] = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in ("ws", "wss") and parts.netloc and parts.netloc.isprintable() and " " not in parts.netloc:
            origin = f"{parts.scheme}://{parts.netloc}"
            if origin not in origins and ";" not in origin:
                origins.append(origin)
    return origins
