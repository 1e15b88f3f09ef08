"""Staff: the people who may act at the table, their PINs and their display sessions.

``roster`` reads and writes the staff file (id, name, role, PIN hash; session rules), ``pins``
hashes PINs with salted scrypt, ``sessions`` keeps signed-in sessions by token digest with
expiry and throttles wrong PINs.  ``StaffError`` is the package's root.
"""

from __future__ import annotations

from .errors import StaffError
from .pins import PinHash, check_pin
from .roster import Member, SessionRules, Staff, check_id, load_staff, save_staff
from .sessions import Ended, SessionStore, Throttle

__all__ = ["Ended", "Member", "PinHash", "SessionRules", "SessionStore", "Staff", "StaffError",
           "Throttle", "check_id", "check_pin", "load_staff", "save_staff"]
