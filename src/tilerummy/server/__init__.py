"""Online play: an ASGI server where people and bots play over WebSockets.

The server is authoritative: the engine checks every action, the store
writes it before anyone hears of it, and each player only ever receives
their own view. ``docs/protocol.md`` describes the protocol.
"""

from .app import ROUTES, Settings, create_app, serve
from .protocol import PROTOCOL_VERSION, json_schema

__all__ = ["PROTOCOL_VERSION", "ROUTES", "Settings", "create_app", "json_schema", "serve"]
