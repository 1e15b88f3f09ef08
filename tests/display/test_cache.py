"""The display's reading cache: one making per act for many requests, and never an answer
begun before an act for a request that came after it."""

from __future__ import annotations

import asyncio
import threading
import time

from controller.display.cache import ActCache


def test_requests_share_one_making_and_an_act_forgets_it() -> None:
    cache = ActCache(threading.RLock())
    made: list[int] = []

    def make() -> int:
        time.sleep(0.05)
        made.append(len(made) + 1)
        return made[-1]

    async def scenario() -> tuple[list[int], int]:
        together = await asyncio.gather(*(cache.shared("view", make) for _ in range(5)))
        cache.clear()  # an act
        return together, await cache.shared("view", make)

    together, after = asyncio.run(scenario())
    assert together == [1] * 5 and after == 2 and made == [1, 2]
    assert cache.peek("view") == 2 and cache.peek("other") is None
    cache.clear()
    assert cache.peek("view") is None


def test_a_request_after_an_act_does_not_join_a_making_begun_before_it() -> None:
    lock = threading.RLock()
    cache = ActCache(lock)
    makings: list[int] = []

    def make() -> int:
        makings.append(cache.generation)
        return cache.generation

    async def scenario() -> tuple[int, int, int]:
        with lock:  # an act in progress: the first making waits for it
            early = asyncio.create_task(cache.shared("view", make))
            await asyncio.sleep(0.05)
            cache.clear()  # the act changes the table
            late = asyncio.create_task(cache.shared("view", make))
            await asyncio.sleep(0.05)
            in_flight = len(cache._making)
        return await early, await late, in_flight

    early, late, in_flight = asyncio.run(scenario())
    assert in_flight == 2  # the late request began its own making
    assert early == late == 1 and makings == [1]  # made once, after the act
