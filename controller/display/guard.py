"""``Guard``: the display's HTTP guards, one ASGI middleware in front of the whole app.

Each check runs before the app sees the request, so none of them can be undone by a route:

* the ``Host`` header must name a host the server was started for (DNS rebinding: a page on
  ``evil.example`` whose name is made to resolve to the table cannot talk to the display);
* a write (``POST``, ``PUT``, ``PATCH``, ``DELETE``) to ``/api`` without an ``Authorization``
  header is refused with 401 before one byte of its body is read (the full token check stays
  in ``deps.get_operator``); writes that need no operator (signing in) are listed by the app;
* a body is at most ``BODY_LIMIT`` bytes: a larger ``Content-Length`` is refused at once, and a
  chunked body is counted as it streams in and refused when it grows past the limit, so no body
  is ever buffered whole;
* every answer carries the security headers (``HEADERS``), and ``/api`` answers
  ``Cache-Control: no-store``.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, get_args

from fastapi import FastAPI, HTTPException, status
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .deps import OperatorDep

BODY_LIMIT = 16 * 1024
"""The largest request body, in bytes: every act's body is a few hundred."""

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""Host names always served: this machine's own."""

WILDCARDS = frozenset({"0.0.0.0", "::", ""})
"""Bind addresses meaning "every interface": then any IP literal is served (see ``HostCheck``)."""

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something and so need a token before their body is read."""

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
"""The page loads only its own scripts and styles (none inline) and may not be framed."""

HEADERS = ((b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))
"""Sent with every answer."""


class BodyTooLarge(HTTPException):
    """A request body grew past ``BODY_LIMIT`` while it was read (413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(status.HTTP_413_CONTENT_TOO_LARGE,
                         f"the request body is over {limit} bytes",
                         headers={"Connection": "close"})


class HostCheck:
    """The host names a server answers to: its bind address, this machine's local names and
    the names it was given.  Bound to every interface, it also answers to any IP literal:
    DNS rebinding needs a name the attacker controls, and an address is no name."""

    def __init__(self, names: Iterable[str]) -> None:
        given = {_bare(name) for name in names}
        self.any_address = bool(given & WILDCARDS)
        self.names = frozenset((given - WILDCARDS) | LOCAL_HOSTS)

    def allows(self, host: str) -> bool:
        """Whether a request whose ``Host`` header is ``host`` is served."""
        name = _bare(host)
        if name in self.names:
            return True
        if not self.any_address or not name:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


def _bare(host: str) -> str:
    """``host`` without its port or brackets, lower case, no trailing dot."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


Refusal = tuple[int, str, list[tuple[bytes, bytes]]]
"""A status, its detail and extra headers."""


def _refusal(code: int, detail: str, extra: list[tuple[bytes, bytes]]) -> list[Message]:
    """The answer to a request refused before the app saw it; the connection then closes, so
    the rest of a body is never read."""
    body = json.dumps({"detail": detail}).encode()
    head = [(b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()), (b"connection", b"close"), *extra]
    return [{"type": "http.response.start", "status": code, "headers": head},
            {"type": "http.response.body", "body": body}]


class Guard:
    """The ASGI middleware: Host check, token before body, body limit, security headers."""

    def __init__(self, app: ASGIApp, hosts: HostCheck, open_writes: Callable[[str], bool],
                 body_limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.hosts = hosts
        self.open_writes = open_writes
        self.body_limit = body_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse what the guards refuse; pass the rest on with a counted body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope["headers"]}
        path: str = scope["path"]
        api = path == "/api" or path.startswith("/api/")
        host = headers.get(b"host", b"").decode("latin-1")
        refused = self._refuse(scope, headers, host, api, path)
        if refused is not None:
            for message in _refusal(*refused):
                await send(_with_headers(message, api))
            return
        has_body = b"transfer-encoding" in headers or headers.get(b"content-length",
                                                                  b"0") not in (b"0", b"")
        counted = _Counter(receive, self.body_limit)

        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            message = _with_headers(message, api)
            if message["type"] == "http.response.start":
                started = True
                if has_body and not counted.done:  # the unread rest is never read: hang up
                    message["headers"] = [(k, v) for k, v in message["headers"]
                                          if k.lower() != b"connection"]
                    message["headers"].append((b"connection", b"close"))
            await send(message)

        try:
            await self.app(scope, counted, guarded_send)
        except BodyTooLarge as err:  # read by something other than a route's body parsing
            if started:
                raise
            for message in _refusal(err.status_code, str(err.detail), []):
                await send(_with_headers(message, api))

    def _refuse(self, scope: Scope, headers: dict[bytes, bytes], host: str, api: bool,
                path: str) -> Refusal | None:
        if not self.hosts.allows(host):
            return (status.HTTP_400_BAD_REQUEST,
                    f"host {host[:100]!r} is not served here (allowed: the server's own "
                    f"address, {', '.join(sorted(self.hosts.names))})", [])
        if (api and scope["method"] in WRITES and b"authorization" not in headers
                and not self.open_writes(path)):
            return (status.HTTP_401_UNAUTHORIZED,
                    "acts need a dealer's or supervisor's token: send "
                    "'Authorization: Bearer TOKEN'", [(b"www-authenticate", b"Bearer")])
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 19:
                return (status.HTTP_400_BAD_REQUEST,
                        f"Content-Length {length[:30].decode('latin-1')!r} is not a length", [])
            if int(length) > self.body_limit:
                return (status.HTTP_413_CONTENT_TOO_LARGE,
                        f"the request body is {int(length)} bytes; at most {self.body_limit} "
                        f"are taken", [])
        return None


class _Counter:
    """The request's ``receive``, counting body bytes; past the limit it raises 413."""

    def __init__(self, receive: Receive, limit: int) -> None:
        self.receive = receive
        self.limit = limit
        self.seen = 0
        self.done = False

    async def __call__(self) -> Message:
        message = await self.receive()
        if message["type"] == "http.request":
            self.seen += len(message.get("body", b""))
            if self.seen > self.limit:
                raise BodyTooLarge(self.limit)
            self.done = not message.get("more_body", False)
        return message


def _with_headers(message: Message, api: bool) -> Message:
    """The security headers added to a response's start (no-store on the API)."""
    if message["type"] != "http.response.start":
        return message
    mine = {name for name, _ in HEADERS}
    if api:
        mine.add(b"cache-control")
    kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in mine]
    extra = [(b"cache-control", b"no-store")] if api else []
    return {**message, "headers": [*kept, *HEADERS, *extra]}


def open_writes(app: FastAPI) -> Callable[[str], bool]:
    """A test of which ``/api`` paths take a write without a token: those of the routes that
    need no operator (signing in).  Every other write needs an ``Authorization`` header before
    its body is read."""
    operator = get_args(OperatorDep)[1].dependency
    patterns = [route.path_regex for route in _api_routes(app.routes)
                if (route.methods or set()) & WRITES and not _needs(route.dependant, operator)]
    return lambda path: any(pattern.match(path) for pattern in patterns)


def _api_routes(routes: Iterable[Any]) -> Iterator[APIRoute]:
    """The API routes, also those of included routers (FastAPI keeps an included router as one
    entry holding its ``original_router``)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from _api_routes(route.original_router.routes)


def _needs(dependant: Dependant, call: Any) -> bool:
    """Whether a route's dependency tree includes ``call``."""
    return any(d.call is call or _needs(d, call) for d in dependant.dependencies)
