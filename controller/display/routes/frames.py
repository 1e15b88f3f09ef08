"""``GET /api/frames/{file}``: the still frame the camera kept for one read of a closed round, for
a supervisor settling a dispute.

The felt camera keeps the frame of every read as a JPEG in the table's frames folder
(``DisplaySettings.frames``: ``frames_beside(journal)``) and its ``camera_read`` record names
it, ``frame: {file, sha256}``.  A frame is served only when all of these hold:

* the asker is a supervisor: a session token (``Authorization``) or, for the page's ``<img>``,
  which cannot send a header, a ticket (``?ticket=``, from ``POST /api/events/ticket``); 401
  without either, 403 for a dealer;
* a ``camera_read`` record names ``file`` (404 otherwise): the name comes from the journal,
  never a path from the request, so no request reaches a file no record names;
* that record's round is closed, settled or voided (409 otherwise): nobody sees a card the
  table has not turned up, and a dispute is over a closed round;
* the file's SHA-256 is still the one recorded (409 otherwise, naming both digests and the
  record): a frame changed after it was kept is a finding, never an image.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response

from ...journal import Record, Role
from ...journal.kinds import CLOSING
from ...round import Who
from ..deps import DeskDep, SettingsDep, TableDep, ViewerDep
from ..sign_in import Desk
from ..table import Table

router = APIRouter(prefix="/api", tags=["frames"])

CAMERA_READ = "camera_read"
"""The record kind that names a kept frame."""
FRAME_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,159}\.jpg$"
"""What a kept frame's file name looks like (``felt_camera``: stamp, count, position, digest):
a bare name, no folder, no leading dot; anything else is refused before the journal is read."""
FRAME_BYTES = 32 * 1024 * 1024
"""The largest frame served: a kept JPEG is a few hundred kilobytes."""


def frames_of(records: tuple[Record, ...] | list[Record]) -> list[dict[str, Any]]:
    """The frames a round's ``camera_read`` records name, in order: the record, the position
    read, the file, its SHA-256 and where a supervisor opens it."""
    out = []
    for record in records:
        if record.kind != CAMERA_READ:
            continue
        data = record.payload()
        frame = data.get("frame")
        if isinstance(frame, dict) and isinstance(frame.get("file"), str):
            out.append({"seq": record.seq, "position": data.get("position"),
                        "file": frame["file"], "sha256": frame.get("sha256"),
                        "url": f"/api/frames/{frame['file']}"})
    return out


def _supervisor(table: Table, viewer: Who | None, ticket: str | None, desk: Desk) -> Who:
    """The supervisor asking, by token or ticket; 401 for nobody, 403 for a dealer."""
    who = viewer
    if who is None and ticket is not None:
        found = table.tickets.find(ticket)
        if found is None or not desk.live(found.session):
            raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                                "unknown or lapsed ticket, or its session ended: ask POST "
                                "/api/events/ticket for a new one",
                                headers={"WWW-Authenticate": "Bearer"})
        who = found.who
    if who is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "a kept frame is for a supervisor: send 'Authorization: Bearer "
                            "TOKEN' or ?ticket=", headers={"WWW-Authenticate": "Bearer"})
    if who.role is not Role.SUPERVISOR:
        raise HTTPException(status.HTTP_403_FORBIDDEN,
                            f"{who.actor!r} has role {who.role.value!r}; a kept frame is for a "
                            f"supervisor")
    return who


def _naming(table: Table, file: str) -> tuple[Record | None, bool]:
    """The latest ``camera_read`` record naming ``file`` (None: none does) and whether its
    round is closed (every record naming it is in a closed round)."""
    with table.lock:
        named = [r for r in table.journal.records_of_kind(CAMERA_READ)
                 if isinstance(frame := r.payload().get("frame"), dict)
                 and frame.get("file") == file]
        if not named:
            return None, False
        rounds = {r.round_id for r in named if r.round_id is not None}
        closed = {r.round_id for r in table.journal.records_of_kind(CLOSING, round_ids=rounds)}
    return named[-1], all(r.round_id in closed for r in named)


def _refused(code: str, detail: str, **more: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, "error": code, **more},
                        status_code=status.HTTP_409_CONFLICT)


@router.get("/frames/{file}", response_class=Response,
            responses={200: {"content": {"image/jpeg": {}},
                             "description": "the kept frame, as recorded"},
                       401: {"description": "no supervisor's token or ticket"},
                       403: {"description": "not a supervisor"},
                       404: {"description": "no camera_read record names the file, or the "
                                            "file is gone"},
                       409: {"description": "the round is open (`round_open`), or the file's "
                                            "SHA-256 is not the recorded one "
                                            "(`frame_mismatch`)"}})
def frame(table: TableDep, settings: SettingsDep, viewer: ViewerDep, desk: DeskDep,
          file: Annotated[str, PathParam(pattern=FRAME_NAME, max_length=164)],
          ticket: Annotated[str | None, Query(max_length=64)] = None) -> Response:
    """The JPEG a closed round's ``camera_read`` record names, if it is still the one kept."""
    _supervisor(table, viewer, ticket, desk)
    folder = settings.frames
    if folder is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            "this display was started without the camera's frames folder")
    record, closed = _naming(table, file)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"no camera_read record names a frame {file!r}")
    if not closed:
        return _refused("round_open", f"frame {file!r} is of round {record.round_id}, still "
                        f"open: a frame is shown once its round is closed",
                        round_id=record.round_id, seq=record.seq)
    recorded = str(record.payload()["frame"].get("sha256") or "")
    path = Path(folder) / file
    try:
        if path.stat().st_size > FRAME_BYTES:
            return _refused("frame_mismatch", f"frame {file!r} is {path.stat().st_size} "
                            f"bytes, no kept frame's size", seq=record.seq, file=file)
        data = path.read_bytes()
    except FileNotFoundError:
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"frame {file!r}, named by record {record.seq} of round "
                            f"{record.round_id}, is missing from {str(folder)!r}") from None
    except OSError as err:
        raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR,
                            f"frame {file!r} cannot be read: {err.strerror or err}") from err
    found = hashlib.sha256(data).hexdigest()
    if found != recorded:
        return _refused("frame_mismatch",
                        f"frame {file!r} has SHA-256 {found}; record {record.seq} (round "
                        f"{record.round_id}) kept it as {recorded}: the file was changed "
                        f"after it was kept", seq=record.seq, round_id=record.round_id,
                        file=file, recorded=recorded, found=found)
    return Response(data, media_type="image/jpeg")
