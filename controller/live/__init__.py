"""The live table: one round engine behind one lock, shared by the table loop and the display.

The loop (``controller.table``) and the display (``controller.display``) act on the same round;
``Table`` serialises their acts and feeds every record an act appended to the viewers, each as
its role may see it (``visibility``).  It knows no web framework and no device.
"""

from __future__ import annotations

from .table import EventLimits, Published, Subscription, Table, TooManyViewers
from .visibility import SIGHTS, Sight

__all__ = ["SIGHTS", "EventLimits", "Published", "Sight", "Subscription", "Table",
           "TooManyViewers"]
