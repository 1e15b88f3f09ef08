"""The kept camera frames of a closed round, for disputes: the supervisor's recall names each
read's frame, and ``GET /api/frames/FILE`` serves the JPEG only to a supervisor, only when a
``camera_read`` record of a closed round names it, and only while its SHA-256 is the one
recorded; an open round's frames are never served.  Real journal, real JPEGs (OpenCV), and one
check in headless Chromium that the supervisor's recall shows a frame that loads.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.display import Table, create_app
from controller.journal import StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeCamera, FakeDice, FakeShuffler, PokerRound, Who
from controller.table.felt_camera import KeptFrame
from tests.browser import chromium_missing

from .conftest import DEALER, SETTINGS, SUPERVISOR, SUPERVISOR_PIN, serve

BETS = (2, 4, 6)
"""The positions that bet."""
READ = (1, *BETS)
"""The positions the camera reads before the settlement: the house's and the players'."""


class KeepingCamera(FakeCamera):
    """The fake camera that also keeps each read's frame as ``FeltCamera`` does: a real JPEG
    in ``folder``, its path and SHA-256 as ``last_frame`` for the ``camera_read`` record."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.last_frame: KeptFrame | None = None

    def read(self, position: int) -> str | None:
        image = np.full((48, 64, 3), (30 * position) % 256, dtype=np.uint8)
        cv2.putText(image, str(position), (20, 34), cv2.FONT_HERSHEY_SIMPLEX, 1,
                    (255, 255, 255), 2)
        ok, jpeg = cv2.imencode(".jpg", image)
        assert ok
        data = jpeg.tobytes()
        digest = hashlib.sha256(data).hexdigest()
        path = self.folder / f"20261128T100000Z-{len(self.history):05d}-p{position}-" \
                             f"{digest[:12]}.jpg"
        path.write_bytes(data)
        self.last_frame = KeptFrame(path, digest, position, len(self.history))
        return super().read(position)


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    folder = tmp_path / "table-frames"
    folder.mkdir()
    return folder


def frames_app(journal_path: Path, frames: Path) -> FastAPI:
    """The display over a poker table whose camera keeps its frames in ``frames``."""
    journal = open_journal(journal_path, clock=StepClock())
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(7), FakeDice(7),
                        KeepingCamera(frames))
    return create_app(Table(engine), dataclasses.replace(SETTINGS, frames=frames))


def play_to_reads(client: Any, table: Table, settle: bool) -> None:
    """A round through the API to the dealer's exposure, the camera reading every playing
    position (the system's act, as the live loop does it), then settled or left open."""
    do = client.post
    ok = [do("/api/round/open", headers=DEALER)]
    ok += [do("/api/round/bets", headers=DEALER, json={"position": p, "wager": 2500})
           for p in BETS]
    ok += [do("/api/round/close-bets", headers=DEALER), do("/api/round/shuffle", headers=DEALER)]
    ok += [do("/api/round/packet", headers=DEALER) for _ in range(7)]
    ok.append(do("/api/round/roll", headers=DEALER))
    ok += [do("/api/round/hands", headers=DEALER, json={"position": p}) for p in BETS]
    ok.append(do("/api/round/dealer", headers=DEALER))
    bad = [r.text for r in ok if r.status_code != 200]
    assert not bad, bad
    for position in READ:
        table.act("read_camera", Who.system(), position)
    if settle:
        assert do("/api/round/settle", headers=DEALER).status_code == 200


@pytest.fixture
def client(journal_path: Path, frames: Path) -> Iterator[TestClient]:
    with TestClient(frames_app(journal_path, frames)) as made:
        yield made


def _recalled(client: TestClient) -> list[dict[str, Any]]:
    rounds = client.get("/api/rounds", headers=SUPERVISOR).json()["rounds"]
    frames: list[dict[str, Any]] = rounds[0]["frames"]
    return frames


def test_the_supervisors_recall_names_each_reads_frame_and_serves_it(
        client: TestClient, frames: Path) -> None:
    play_to_reads(client, client.app.state.table, settle=True)  # type: ignore[attr-defined]
    named = _recalled(client)
    assert [f["position"] for f in named] == list(READ)
    for entry in named:
        answer = client.get(entry["url"], headers=SUPERVISOR)
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "image/jpeg"
        assert answer.content == (frames / entry["file"]).read_bytes()
        assert hashlib.sha256(answer.content).hexdigest() == entry["sha256"]
        assert cv2.imdecode(np.frombuffer(answer.content, np.uint8), cv2.IMREAD_COLOR) \
            is not None
    for viewer in ({}, DEALER):  # the dealer's and the public's recall name no frame
        rounds = client.get("/api/rounds", headers=viewer).json()["rounds"]
        assert "frames" not in rounds[0]


def test_only_a_supervisor_opens_a_frame(client: TestClient) -> None:
    play_to_reads(client, client.app.state.table, settle=True)  # type: ignore[attr-defined]
    url = _recalled(client)[0]["url"]
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer not-a-token"}).status_code == 401
    refused = client.get(url, headers=DEALER)
    assert refused.status_code == 403 and "supervisor" in refused.json()["detail"]
    assert client.get(url, params={"ticket": "made-up-ticket"}).status_code == 401
    dealer_ticket = client.post("/api/events/ticket", headers=DEALER).json()["ticket"]
    assert client.get(url, params={"ticket": dealer_ticket}).status_code == 403
    ticket = client.post("/api/events/ticket", headers=SUPERVISOR).json()["ticket"]
    assert client.get(url, params={"ticket": ticket}).status_code == 200


def test_a_file_no_record_names_is_not_served(client: TestClient, frames: Path) -> None:
    play_to_reads(client, client.app.state.table, settle=True)  # type: ignore[attr-defined]
    (frames / "stray.jpg").write_bytes((frames / _recalled(client)[0]["file"]).read_bytes())
    refused = client.get("/api/frames/stray.jpg", headers=SUPERVISOR)
    assert refused.status_code == 404
    assert "no camera_read record names a frame 'stray.jpg'" in refused.json()["detail"]


@pytest.mark.parametrize("path", ["/api/frames/..%2Fsecret.jpg", "/api/frames/%2E%2E",
                                  "/api/frames/.hidden.jpg", "/api/frames/..%5Csecret.jpg",
                                  "/api/frames/%2Fetc%2Fpasswd"])
def test_a_path_in_the_request_reaches_no_file(client: TestClient, frames: Path,
                                               path: str) -> None:
    play_to_reads(client, client.app.state.table, settle=True)  # type: ignore[attr-defined]
    secret = frames.parent / "secret.jpg"
    secret.write_bytes(b"not for the web")
    answer = client.get(path, headers=SUPERVISOR)
    assert answer.status_code in (404, 422), answer.text
    assert b"not for the web" not in answer.content


def test_a_frame_changed_after_it_was_kept_is_a_finding(client: TestClient,
                                                        frames: Path) -> None:
    play_to_reads(client, client.app.state.table, settle=True)  # type: ignore[attr-defined]
    entry = _recalled(client)[1]
    kept = frames / entry["file"]
    data = bytearray(kept.read_bytes())
    data[-3] ^= 0xFF  # one byte of the picture changed
    kept.write_bytes(bytes(data))
    refused = client.get(entry["url"], headers=SUPERVISOR)
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "frame_mismatch" and body["recorded"] == entry["sha256"]
    assert body["found"] == hashlib.sha256(bytes(data)).hexdigest()
    assert f"record {entry['seq']}" in body["detail"] and entry["file"] in body["detail"]
    assert refused.headers["content-type"] == "application/json"
    kept.unlink()  # gone altogether: named, but missing
    missing = client.get(entry["url"], headers=SUPERVISOR)
    assert missing.status_code == 404 and "is missing from" in missing.json()["detail"]


def test_an_open_rounds_frames_are_never_served(client: TestClient, frames: Path) -> None:
    table = client.app.state.table  # type: ignore[attr-defined]
    play_to_reads(client, table, settle=False)
    records = [r for r in table.journal.records() if r.kind == "camera_read"]
    assert len(records) == len(READ)
    for record in records:
        file = record.payload()["frame"]["file"]
        assert (frames / file).is_file()
        refused = client.get(f"/api/frames/{file}", headers=SUPERVISOR)
        assert refused.status_code == 409
        assert refused.json()["error"] == "round_open"
        assert record.round_id is not None and record.round_id in refused.json()["detail"]
    assert client.post("/api/round/settle", headers=DEALER).status_code == 200
    file = records[0].payload()["frame"]["file"]
    assert client.get(f"/api/frames/{file}", headers=SUPERVISOR).status_code == 200


def test_without_a_frames_folder_nothing_is_served(journal_path: Path, frames: Path) -> None:
    journal = open_journal(journal_path, clock=StepClock())
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(7), FakeDice(7),
                        KeepingCamera(frames))
    with TestClient(create_app(Table(engine), SETTINGS)) as client:
        play_to_reads(client, client.app.state.table, settle=True)  # type: ignore[attr-defined]
        refused = client.get(_recalled(client)[0]["url"], headers=SUPERVISOR)
        assert refused.status_code == 404 and "frames folder" in refused.json()["detail"]


@pytest.mark.skipif(bool(chromium_missing()), reason=chromium_missing() or "chromium")
def test_the_supervisors_recall_shows_a_frame_that_loads(journal_path: Path,
                                                         frames: Path) -> None:
    import httpx2
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import headless_chromium

    from .page import type_into

    app = frames_app(journal_path, frames)
    with serve(app) as url, headless_chromium() as driver:
        with httpx2.Client(base_url=url, timeout=10) as client:
            play_to_reads(client, app.state.table, settle=True)
        driver.get(url + "/")
        wait = WebDriverWait(driver, 20)
        wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
        assert not driver.find_elements(By.CSS_SELECTOR, "#recall .frame-link")  # the public
        type_into(driver, "#staff-id", "sue")
        type_into(driver, "#pin", SUPERVISOR_PIN)
        driver.find_element(By.ID, "sign-in").click()
        link = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#recall .frame-link"))
        assert link.text == f"frame P{READ[0]}"
        link.click()
        loaded = wait.until(lambda d: d.execute_script(
            "const i = document.querySelector('#recall img.frame');"
            "return i && i.complete && i.naturalWidth > 0 ? i.naturalWidth : 0;"))
        assert loaded == 64
