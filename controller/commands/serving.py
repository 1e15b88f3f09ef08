"""The display's serving options, shared by ``paigow display``, ``demo`` and ``run``.

``--tls-cert FILE --tls-key FILE`` serve the display over HTTPS (uvicorn's ``ssl_certfile`` and
``ssl_keyfile``); ``--allowed-host NAME`` (repeatable) names a host the display answers to
besides its bind address and this machine's own names (``controller/display/guard.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .common import UsageError


def add_serving_options(p: argparse.ArgumentParser) -> None:
    """Add ``--tls-cert``, ``--tls-key`` and ``--allowed-host`` to a command's parser."""
    p.add_argument("--tls-cert", metavar="FILE",
                   help="serve the display over HTTPS with this PEM certificate (with --tls-key)")
    p.add_argument("--tls-key", metavar="FILE", help="the certificate's PEM private key")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name the display answers to besides its address and "
                        "localhost (repeatable; others get 400)")


def tls(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's TLS keywords for ``args`` (none without ``--tls-cert``); the files are checked
    here so a missing one is one line, not a traceback from the server."""
    cert, key = args.tls_cert, args.tls_key
    if cert is None and key is None:
        return {}
    if cert is None or key is None:
        raise UsageError("--tls-cert and --tls-key go together: give both or neither")
    for path, what in ((cert, "TLS certificate"), (key, "TLS key")):
        try:
            with Path(path).open("rb") as file:
                head = file.read(64 * 1024)
        except OSError as err:
            raise UsageError(f"cannot read {what} {path!r}: {err.strerror or err}") from err
        if b"-----BEGIN " not in head:
            raise UsageError(f"{what} {path!r} is not a PEM file")
    return {"ssl_certfile": cert, "ssl_keyfile": key}


def scheme(args: argparse.Namespace) -> str:
    """``https`` when the display is served with TLS, else ``http``."""
    return "https" if args.tls_cert else "http"


def served_hosts(args: argparse.Namespace) -> tuple[str, ...]:
    """The names the display answers to besides this machine's own: the bind address and
    each ``--allowed-host``."""
    names = [args.host, *args.allowed_host]
    for name in names:
        if not name or any(c.isspace() or c in "/@?#" for c in name):
            raise UsageError(f"--allowed-host {name!r} is not a host name")
    return tuple(names)
