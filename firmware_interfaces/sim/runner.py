"""Runs a simulated device: accept a line, serve it, and again after each hang-up or drop."""

from __future__ import annotations

import logging
import threading

from .channels import Listener
from .link import DeviceLink

log = logging.getLogger(__name__)


class Runner:
    """The device loop over a listener, in the calling thread (``run``) or its own (``start``)."""

    def __init__(self, link: DeviceLink, listener: Listener) -> None:
        self.link = link
        self.listener = listener
        self.stop_event = threading.Event()
        self.drops = 0
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Where a host opens the device (pty path, ``socket://`` URL)."""
        return self.listener.url

    def run(self) -> None:
        """Serve until ``stop`` is called."""
        try:
            while not self.stop_event.is_set():
                channel = self.listener.accept(0.1)
                if channel is None:
                    continue
                try:
                    dropped = self.link.serve(channel, self.stop_event)
                finally:
                    channel.close()
                if dropped:
                    self.drops += 1
                    log.info("%s: line dropped (fault)", self.link.device.DEVICE)
        finally:
            self.listener.close()

    def start(self) -> Runner:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(target=self.run, daemon=True,
                                        name=f"sim-{self.link.device.DEVICE}")
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the listener."""
        self.stop_event.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
