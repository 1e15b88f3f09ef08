"""The device side of the link, with the line's faults: noise, slow answers, silence, drops,
and the hostile modes a host must survive: ACK forever, never reply, drip, storm.

One thread runs ``serve``: it ACKs each request, answers it, remembers recent replies so a
resent request is answered from memory (never done twice), NAKs damaged requests, sends
events and resends them until the host ACKs. Controls posted from other threads (the fake's
``inject``) are applied by the same thread, so the device logic is never shared.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from ..errors import PayloadError
from ..protocol.common import ControlCmd, Door, Err, HelloCmd, Ok
from ..protocol.frame import Frame, Kind, encode
from ..protocol.records import Record, encode_record
from ..protocol.stream import Damaged, StreamDecoder
from .base import SimDevice, make_rng, parse_bool, parse_count
from .channels import Channel

REMEMBERED_REPLIES = 8
EVENT_RESEND = 0.2
EVENT_TRIES = 8
FOREVER = float("inf")
LINK_KEYS = ("garbage", "slow", "silence", "drop", "silent_after", "drop_after",
             "ack_forever", "never_reply", "drip", "storm")
REACK_EVERY = 0.05
"""How often a device in ``ack_forever`` mode ACKs the last request again."""
STORM_GARBAGE = 16


@dataclass
class LinkFaults:
    """Faults of the line: ``garbage`` share of damaged frames, ``slow`` seconds before each
    answer, silence after N requests, a dropped line after N requests (``None``: never).

    Hostile modes: ``ack_forever`` ACKs each request and then ACKs it again and again, never
    replying; ``never_reply`` ACKs once and never replies; ``drip`` sends every byte alone,
    that many seconds apart; ``storm`` floods the line with valid frames (ACKs of every
    sequence number, events) and noise, and answers nothing.
    """

    garbage: float = 0.0
    slow: float = 0.0
    silent_after: int | None = None
    drop_after: int | None = None
    ack_forever: bool = False
    never_reply: bool = False
    drip: float = 0.0
    storm: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.garbage <= 1.0:
            raise ValueError(f"garbage={self.garbage!r} is not a ratio 0..1")
        if self.slow < 0:
            raise ValueError(f"slow={self.slow!r} is negative")
        if not 0.0 <= self.drip <= 10.0:
            raise ValueError(f"drip={self.drip!r} is not 0..10 seconds per byte")


@dataclass
class _Outgoing:
    seq: int
    data: bytes
    sent_at: float = 0.0
    tries: int = 0


class DeviceLink:
    """Serves one ``SimDevice`` over whatever channel the listener hands out."""

    def __init__(self, device: SimDevice, faults: LinkFaults | None = None) -> None:
        self.device = device
        self.faults = faults or LinkFaults()
        self.noise = make_rng(None if device.seed is None else device.seed + 1)
        self.seen: list[str] = []
        self._posted: queue.Queue[tuple[tuple[tuple[str, str], ...], threading.Event]] = (
            queue.Queue()
        )
        self._replies: OrderedDict[int, tuple[bytes, bytes]] = OrderedDict()
        self._session: str | None = None
        self._events: deque[_Outgoing] = deque()
        self._event_seq = 0
        self._silent_until = 0.0
        self._drop = False
        self._acking: int | None = None  # the request ack_forever keeps ACKing
        self._reacked_at = 0.0
        self._stop = threading.Event()

    def post(self, settings: tuple[tuple[str, str], ...]) -> threading.Event:
        """Queue control settings for the serving thread; the event is set once applied."""
        done = threading.Event()
        self._posted.put((settings, done))
        return done

    def serve(self, channel: Channel, stop: threading.Event) -> bool:
        """Answer on ``channel`` until the host hangs up (``False``) or a drop fault (``True``)."""
        decoder = StreamDecoder()
        self._stop = stop
        for event in self._events:
            event.tries = 0
        try:
            while not stop.is_set():
                while not self._posted.empty():
                    settings, done = self._posted.get_nowait()
                    self._control(settings)
                    done.set()
                data = channel.recv(0.02)
                if not self._silent():
                    if data and self.noise.random() < self.faults.garbage / 2:
                        data = self._flip(data)
                    for item in decoder.feed(data):
                        self._on_item(channel, item, stop)
                    self._pump(channel)
                    self._hostile(channel)
                if self._drop:
                    self._drop = False
                    channel.close()
                    return True
        except EOFError:
            pass
        return False

    def _silent(self) -> bool:
        return self.faults.silent_after == 0 or time.monotonic() < self._silent_until

    # --- frames -----------------------------------------------------------------------------

    def _on_item(self, channel: Channel, item: Frame | Damaged, stop: threading.Event) -> None:
        if isinstance(item, Damaged):
            if item.kind is Kind.REQUEST:
                self._send(channel, encode(Frame(Kind.NAK, item.seq, b"crc")))
        elif item.kind is Kind.REQUEST:
            self._request(channel, item, stop)
        elif item.kind is Kind.ACK and self._events and self._events[0].seq == item.seq:
            self._events.popleft()
        elif item.kind is Kind.NAK:
            remembered = self._replies.get(item.seq)
            if remembered is not None:
                self._send(channel, remembered[1])
            elif self._events and self._events[0].seq == item.seq:
                self._events[0].sent_at = 0.0  # resend at the next pump

    def _request(self, channel: Channel, frame: Frame, stop: threading.Event) -> None:
        f = self.faults
        if f.storm:
            return  # too busy flooding the line to answer
        if f.ack_forever or f.never_reply:
            self._send(channel, encode(Frame(Kind.ACK, frame.seq)))
            self._acking = frame.seq if f.ack_forever else None
            self._reacked_at = time.monotonic()
            self.seen.append(frame.payload.decode("ascii", "replace"))
            return
        remembered = self._replies.get(frame.seq)
        if remembered is not None and remembered[0] == frame.payload:
            self._send(channel, encode(Frame(Kind.ACK, frame.seq)) + remembered[1])
            return
        self._send(channel, encode(Frame(Kind.ACK, frame.seq)))
        if self.faults.slow:
            stop.wait(self.faults.slow)
        self._count_down()
        reply, events = self._answer(frame.payload)
        data = encode(Frame(Kind.REPLY, frame.seq, encode_record(reply)))
        self._replies[frame.seq] = (frame.payload, data)
        while len(self._replies) > REMEMBERED_REPLIES:
            self._replies.popitem(last=False)
        self._send(channel, data)
        self._queue(events)

    def _answer(self, payload: bytes) -> tuple[Record, list[Record]]:
        try:
            request = self.device.REQUESTS.decode(payload)
        except PayloadError:
            self.seen.append(payload.decode("ascii", "replace"))
            return Err("?", "bad_message"), []
        self.seen.append(str(request))
        if isinstance(request, HelloCmd) and request.session != self._session:
            self._session = request.session
            self._replies.clear()
        if isinstance(request, ControlCmd):
            return self._control(request.settings)
        return self.device.handle(request)

    def _hostile(self, channel: Channel) -> None:
        """ACK the last request again (``ack_forever``) or flood the line (``storm``)."""
        f = self.faults
        now = time.monotonic()
        if f.ack_forever and self._acking is not None and now - self._reacked_at >= REACK_EVERY:
            self._reacked_at = now
            self._send(channel, encode(Frame(Kind.ACK, self._acking)))
        if f.storm:
            burst = bytearray(self.noise.randbytes(STORM_GARBAGE))
            for seq in range(256):
                burst += encode(Frame(Kind.ACK, seq))
            self._event_seq = (self._event_seq + 1) & 0xFF
            burst += encode(Frame(Kind.EVENT, self._event_seq, encode_record(Door(False))))
            channel.send(bytes(burst))

    def _count_down(self) -> None:
        f = self.faults
        if f.silent_after is not None and f.silent_after > 0:
            f.silent_after -= 1
        if f.drop_after is not None:
            f.drop_after -= 1
            if f.drop_after <= 0:
                f.drop_after, self._drop = None, True

    # --- controls ---------------------------------------------------------------------------

    def _control(self, settings: tuple[tuple[str, str], ...]) -> tuple[Record, list[Record]]:
        events: list[Record] = []
        try:
            for key, value in settings:
                if key in LINK_KEYS:
                    self._control_link(key, value)
                else:
                    events += self.device.control(key, value)
        except ValueError:
            self._queue(events)
            return Err("CTRL", "bad_control"), []
        self._queue(events)
        return Ok(), []

    def _control_link(self, key: str, value: str) -> None:
        f = self.faults
        if key == "garbage":
            f.garbage = LinkFaults(garbage=float(value)).garbage
        elif key == "slow":
            f.slow = LinkFaults(slow=float(value)).slow
        elif key == "silence":
            seconds = FOREVER if value == "forever" else float(value)
            self._silent_until = time.monotonic() + seconds
        elif key == "drop":
            self._drop = parse_bool(value)
        elif key == "silent_after":
            f.silent_after = parse_count(value)
        elif key in ("ack_forever", "never_reply", "storm"):
            setattr(f, key, parse_bool(value))
        elif key == "drip":
            f.drip = LinkFaults(drip=float(value)).drip
        else:
            f.drop_after = parse_count(value) or None
            self._drop = self._drop or value == "0"

    # --- output -----------------------------------------------------------------------------

    def _queue(self, events: list[Record]) -> None:
        for record in events:
            self._event_seq = (self._event_seq + 1) & 0xFF
            frame = Frame(Kind.EVENT, self._event_seq, encode_record(record))
            self._events.append(_Outgoing(self._event_seq, encode(frame)))

    def _pump(self, channel: Channel) -> None:
        """Send the oldest unacknowledged event, again after ``EVENT_RESEND`` s, a few times."""
        if not self._events:
            return
        head = self._events[0]
        now = time.monotonic()
        if head.tries and now - head.sent_at < EVENT_RESEND:
            return
        if head.tries >= EVENT_TRIES:
            self._events.popleft()
            return
        head.tries += 1
        head.sent_at = now
        self._send(channel, head.data)

    def _send(self, channel: Channel, data: bytes) -> None:
        ratio = self.faults.garbage
        if ratio and self.noise.random() < ratio:
            channel.send(self.noise.randbytes(self.noise.randint(1, 16)))
        if ratio and self.noise.random() < ratio / 2:
            data = self._flip(data)
        if not self.faults.drip:
            channel.send(data)
            return
        for byte in data:  # one byte at a time, slowly: the host must not wait on them
            channel.send(bytes((byte,)))
            if self._stop.wait(self.faults.drip):
                return

    def _flip(self, data: bytes) -> bytes:
        damaged = bytearray(data)
        damaged[self.noise.randrange(len(damaged))] ^= 1 << self.noise.randrange(8)
        return bytes(damaged)
