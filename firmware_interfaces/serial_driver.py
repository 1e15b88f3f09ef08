"""The host side of the link: one request at a time, a reader thread, NAK, retries, reconnect.

Threads: the caller's thread sends a request and waits on a condition; the reader thread owns
all reads, decodes frames, answers events with ACK and damaged frames with NAK, wakes the
waiting caller, hands events to ``on_event`` (or the ``events`` queue), and reopens a lost
line with back-off, checking the device's hello again before any request may pass.

Every call (and every hello) has one absolute deadline, ``Timing.call_limit``, set when it
starts: an ACK counts once per try, so a device that ACKs forever, NAKs, drips bytes or floods
the line cannot keep a caller waiting past it. ``interrupt`` ends a call under way at once
(the table's stop request).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from .errors import (
    DeviceClosed,
    DeviceError,
    DeviceFault,
    DeviceInterrupted,
    DeviceRefused,
    DeviceTimeout,
    ProtocolError,
)
from .events import LINK_LOST, REFUSED, DeviceEvent, EventQueue
from .identity import Expected, check_answer, check_identity, check_same_device
from .link_config import LinkStats, Timing
from .port import Connector, LineLost, Port
from .protocol.challenge import NONCE_BYTES
from .protocol.common import Cleared, Err, Fault, HelloCmd, Ident
from .protocol.frame import Frame, Kind, encode
from .protocol.records import Catalogue, Record, encode_record
from .protocol.stream import Damaged, StreamDecoder

__all__ = ["LinkStats", "RecordedHello", "SerialLink", "Timing"]

log = logging.getLogger(__name__)
R = TypeVar("R", bound=Record)


@runtime_checkable
class RecordedHello(Protocol):
    """A line that replays a capture (``replay_port.ReplayPort``): it hands the link the session
    and nonce the recorded host drew, so the hello written is the one recorded and the
    recorded answer's MAC still checks. A live line has neither: the link draws from
    ``secrets``."""

    def hello_session(self) -> str:
        """The session name the recorded host said hello with."""
        ...

    def hello_nonce(self) -> str:
        """The nonce of the recorded hello on this line."""
        ...


@dataclass
class _Pending:
    seq: int
    acked_at: float | None = None
    noise_at: float | None = None
    resend: bool = False
    reply: Frame | None = None


@dataclass
class _Line:
    port: Port | None = None
    decoder: StreamDecoder = field(default_factory=StreamDecoder)
    last_event: int | None = None


class SerialLink:
    """A verified line to one device; use a device driver (``ShufflerDriver``...) on top.

    ``catalogue`` is what the link decodes from the device; a probe that learns the kind of
    device from its hello sets it afterwards.
    """

    def __init__(self, connector: Connector, catalogue: Catalogue, expected: Expected, *,
                 name: str | None = None, timing: Timing | None = None,
                 on_event: Callable[[DeviceEvent], None] | None = None) -> None:
        self.name = name or expected.device or "device"
        self.timing = timing or Timing()
        self.stats = LinkStats()
        self.events: queue.Queue[DeviceEvent] = EventQueue()
        self._connect, self.catalogue, self._expected = connector, catalogue, expected
        self._on_event = on_event
        self._line = _Line()
        self._cond = threading.Condition()
        self._pending: _Pending | None = None
        self._request_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._seq = 0
        self._verified = threading.Event()
        self._closing = threading.Event()
        self._refused: DeviceRefused | None = None
        self._interrupts = 0  # bumped by interrupt(); a call started before it ends
        self._reader: threading.Thread | None = None
        self.ident: Ident | None = None
        self._session: str | None = None  # drawn at the first hello, from its line (below)

    # --- public ---------------------------------------------------------------------------

    def start(self) -> Ident:
        """Open the line, check the hello against the expected device, start the reader."""
        port = self._connect()
        try:
            self.ident = self._handshake(port)
            check_identity(self.ident, self._expected)
        except DeviceError:
            port.close()
            raise
        except OSError as err:  # the port failed while saying hello
            port.close()
            raise LineLost(f"{self.name}: {err}") from err
        self._line.port = port
        self._verified.set()
        self._reader = threading.Thread(target=self._read_loop, name=f"{self.name}-reader",
                                        daemon=True)
        self._reader.start()
        return self.ident

    def call(self, record: Record, reply_type: type[R], reply_timeout: float | None = None) -> R:
        """Send ``record`` and return the device's reply as ``reply_type``.

        Raises ``DeviceFault`` when the device answers ``ERR``, ``DeviceTimeout`` after the
        bounded retries, ``ProtocolError`` for a reply of the wrong type.
        """
        reply = self._exchange(record, reply_timeout)
        if isinstance(reply, Err):
            raise DeviceFault(f"{self.name} refused {reply.cmd}: {reply.code}", reply.code)
        if not isinstance(reply, reply_type):
            raise ProtocolError(f"{self.name}: {record.NAME} answered by {reply.NAME!r}, "
                                f"expected {reply_type.NAME}")
        return reply

    def interrupt(self) -> None:
        """End the call under way at once with ``DeviceInterrupted`` (thread- and
        signal-handler-safe: the condition's lock is re-entrant); later calls are not affected."""
        with self._cond:
            self._interrupts += 1
            self._cond.notify_all()

    @property
    def connected(self) -> bool:
        """True while the line is open and the device verified."""
        return self._verified.is_set()

    def close(self) -> None:
        """Stop the reader and release the line (idempotent)."""
        self._closing.set()
        self._verified.clear()
        if self._reader is not None and self._reader is not threading.current_thread():
            self._reader.join(timeout=5)
        port, self._line.port = self._line.port, None
        if port is not None:
            port.close()
        with self._cond:
            self._cond.notify_all()

    # --- requests ---------------------------------------------------------------------------

    def _next_seq(self) -> int:
        with self._write_lock:
            self._seq = (self._seq + 1) & 0xFF
            return self._seq

    def _send(self, port: Port | None, frame: Frame) -> None:
        if port is None:
            raise OSError("line is down")
        with self._write_lock:
            try:
                port.write(encode(frame))
            except (OSError, DeviceError):  # DeviceError: a replay the host departed from
                raise
            except Exception as err:  # pyserial on a port closed under it: TypeError...
                raise OSError(f"write failed: {err!r}") from err

    def _exchange(self, record: Record, reply_timeout: float | None) -> Record:
        t = self.timing
        reply_wait = t.reply_timeout if reply_timeout is None else reply_timeout
        limit = t.call_limit(reply_wait)
        deadline = time.monotonic() + limit
        interrupts = self._interrupts
        if not self._request_lock.acquire(timeout=limit):
            raise DeviceTimeout(f"{self.name}: {record.NAME} not sent within {limit:g} s: "
                                f"another call holds the line")
        try:
            seq = self._next_seq()
            frame = Frame(Kind.REQUEST, seq, encode_record(record))
            self.stats.requests += 1
            for attempt in range(1 + t.retries):
                self._check_call(record, interrupts, deadline, limit)
                if attempt:
                    self.stats.resends += 1
                if not self._verified.wait(min(t.ack_timeout, deadline - time.monotonic())):
                    if self._refused is not None:
                        raise self._refused
                    continue
                pending = _Pending(seq)
                with self._cond:
                    self._pending = pending
                try:
                    self._send(self._line.port, frame)
                except OSError as err:
                    log.debug("%s: write failed: %s", self.name, err)
                reply = self._await(pending, t.ack_timeout, reply_wait, deadline, interrupts)
                if reply is not None:
                    return self.catalogue.decode(reply.payload)
            self._check_call(record, interrupts, deadline, limit)
            if self._refused is not None:
                raise self._refused
            down = "" if self._verified.is_set() else " (line down)"
            raise DeviceTimeout(
                f"{self.name}: no answer to {record.NAME} after {1 + t.retries} tries{down}"
            )
        finally:
            self._request_lock.release()

    def _check_call(self, record: Record, interrupts: int, deadline: float,
                    limit: float) -> None:
        """Raise if the call was closed, interrupted or ran out of its absolute deadline."""
        if self._closing.is_set():
            raise DeviceClosed(f"{self.name} is closed")
        if self._interrupts != interrupts:
            raise DeviceInterrupted(f"{self.name}: {record.NAME} interrupted by the host")
        if time.monotonic() >= deadline:
            raise DeviceTimeout(f"{self.name}: no answer to {record.NAME} within its "
                                f"{limit:g} s limit")

    def _await(self, pending: _Pending, ack_timeout: float, reply_timeout: float,
               limit: float, interrupts: int) -> Frame | None:
        """The reply to ``pending``, or None: no ACK in time, no reply after the (first) ACK,
        a NAK, or the call's absolute ``limit`` (a monotonic time) reached."""
        start = time.monotonic()
        with self._cond:
            try:
                while not self._closing.is_set() and self._interrupts == interrupts:
                    if pending.reply is not None or pending.resend:
                        return pending.reply
                    if pending.acked_at is None:
                        deadline = start + ack_timeout
                    else:
                        deadline = pending.acked_at + reply_timeout
                        if pending.noise_at is not None:  # the reply may have been lost in it
                            deadline = min(deadline, pending.noise_at + ack_timeout)
                    left = min(deadline, limit) - time.monotonic()
                    if left <= 0:
                        return None
                    self._cond.wait(left)
                return None
            finally:
                self._pending = None

    # --- reader thread ------------------------------------------------------------------------

    def _read_loop(self) -> None:
        while not self._closing.is_set():
            port = self._line.port
            if port is None:
                self._reconnect()
                continue
            try:
                data = port.read(max(1, port.in_waiting))
            except Exception as err:  # OSError, or anything a broken port raises
                if not self._closing.is_set():
                    self._lost(str(err) or type(err).__name__)
                continue
            if data:
                decoder = self._line.decoder
                noise = decoder.garbage_bytes
                for item in decoder.feed(data):
                    self._handle(port, item)
                if decoder.garbage_bytes != noise:
                    self._noise(decoder.garbage_bytes - noise)

    def _handle(self, port: Port, item: Frame | Damaged) -> None:
        if isinstance(item, Damaged):
            if item.kind in (Kind.REPLY, Kind.EVENT):
                self.stats.naks_sent += 1
                self._try_send(port, Frame(Kind.NAK, item.seq, b"crc"))
            return
        if item.kind is Kind.EVENT:
            self._try_send(port, Frame(Kind.ACK, item.seq))
            if item.seq != self._line.last_event:
                self._line.last_event = item.seq
                try:
                    record = self.catalogue.decode(item.payload)
                except ProtocolError as err:
                    log.warning("%s: undecodable event dropped: %s", self.name, err)
                    return
                self._emit(record)
            return
        with self._cond:
            pending = self._pending
            if pending is None or pending.seq != item.seq:
                return
            if item.kind is Kind.ACK:
                if pending.acked_at is None:  # a repeated ACK must not move the wait on
                    pending.acked_at = time.monotonic()
            elif item.kind is Kind.NAK:
                pending.resend = True
                self.stats.naks_received += 1
            elif item.kind is Kind.REPLY:
                pending.reply = item
            self._cond.notify_all()

    def _noise(self, count: int) -> None:
        """Count skipped bytes; a reply awaited after its ACK may be lost in them."""
        self.stats.garbage_bytes += count
        with self._cond:
            if self._pending is not None and self._pending.acked_at is not None:
                self._pending.noise_at = time.monotonic()
                self._cond.notify_all()

    def _try_send(self, port: Port, frame: Frame) -> None:
        try:
            self._send(port, frame)
        except OSError as err:
            log.debug("%s: could not send %s: %s", self.name, frame, err)
        except DeviceError as err:  # a replay that differs: the replay keeps it for its check
            log.warning("%s: could not send %s: %s", self.name, frame, err)

    def _emit(self, record: Record, detail: str = "") -> None:
        event = DeviceEvent(self.name, record, detail)
        self.stats.events += 1
        if self._on_event is None:
            self.events.put(event)
            return
        try:
            self._on_event(event)
        except Exception:  # a failing callback must not kill the reader thread
            log.exception("%s: on_event callback failed for %s", self.name, event)

    def _lost(self, reason: str) -> None:
        self._verified.clear()
        port, self._line = self._line.port, _Line()
        if port is not None:
            with self._write_lock, contextlib.suppress(Exception):
                port.close()  # not while a request is being written
        with self._cond:
            if self._pending is not None:  # resend as soon as the line is back
                self._pending.resend = True
                self._cond.notify_all()
        log.warning("%s: line lost: %s", self.name, reason)
        self._emit(Fault(LINK_LOST), reason)

    def _reconnect(self) -> None:
        delay = self.timing.backoff_initial
        while not self._closing.wait(delay):
            delay = min(delay * 2, self.timing.backoff_max)
            try:
                port = self._connect()
            except DeviceError as err:
                log.debug("%s: reconnect failed: %s", self.name, err)
                continue
            try:
                ident = self._handshake(port)
                assert self.ident is not None
                check_same_device(self.ident, ident)
                check_identity(ident, self._expected)
            except DeviceRefused as err:
                port.close()
                self._refused = err
                self._emit(Fault(REFUSED), str(err))
                self._closing.wait()
                return
            except (DeviceError, OSError) as err:
                port.close()
                log.debug("%s: handshake after reconnect failed: %s", self.name, err)
                continue
            self._line.port = port
            self.stats.reconnects += 1
            log.info("%s: reconnected", self.name)
            self._verified.set()
            self._emit(Cleared(LINK_LOST))
            return

    def _handshake(self, port: Port) -> Ident:
        """Send HELLO with a fresh nonce and read the port directly until its reply (before
        the reader runs), all within one absolute deadline; the answer is checked against the
        expected key."""
        t = self.timing
        limit = t.call_limit()
        overall = time.monotonic() + limit
        if isinstance(port, RecordedHello):  # a replay: the draws the recording made
            self._session = self._session or port.hello_session()
            nonce = port.hello_nonce()
        else:
            self._session = self._session or secrets.token_hex(4)
            nonce = secrets.token_hex(NONCE_BYTES)  # fresh for each hello: a copy cannot answer it
        for _ in range(1 + t.retries):
            seq = self._next_seq()
            hello = encode_record(HelloCmd(session=self._session, nonce=nonce))
            self._send(port, Frame(Kind.REQUEST, seq, hello))
            deadline = min(time.monotonic() + t.ack_timeout, overall)
            acked = False
            while time.monotonic() < deadline and not self._closing.is_set():
                for item in self._line.decoder.feed(port.read(max(1, port.in_waiting))):
                    if not isinstance(item, Frame) or item.seq != seq or item.kind in (
                        Kind.EVENT, Kind.REQUEST
                    ):
                        self._handle(port, item)
                    elif item.kind is Kind.ACK:
                        if not acked:  # the first ACK only: a repeated one moves nothing
                            acked = True
                            deadline = min(time.monotonic() + t.reply_timeout, overall)
                    elif item.kind is Kind.NAK:
                        deadline = 0.0  # resend at once
                    else:
                        reply = self.catalogue.decode(item.payload)
                        if not isinstance(reply, Ident):
                            raise ProtocolError(f"{self.name}: HELLO answered by {reply.NAME}")
                        check_answer(reply, nonce, self._expected, self.name)
                        return reply
            if time.monotonic() >= overall:
                raise DeviceTimeout(f"{self.name}: no answer to HELLO within its {limit:g} s "
                                    f"limit")
        raise DeviceTimeout(f"{self.name}: no answer to HELLO after {1 + t.retries} tries")
