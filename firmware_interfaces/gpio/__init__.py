"""GPIO devices through gpiozero on an explicit pin factory: the dealer panel, the shaker's lines.

Every device takes its pin factory as an argument: the real one on a table, a ``MockFactory``
(``mock_factory()``) in tests and in the simulated table; never gpiozero's global default.
"""

from .buzzer import BEEPS, BeepPattern, PanelBuzzer
from .debounce import DEFAULT_DEBOUNCE, Debouncer
from .lines import GpioError, InputLine, OutputLine, PinFactory
from .mock import MockLines, mock_factory
from .panel import ButtonPress, DealerPanel, PanelButton
from .pins import BCM_PINS, PanelPins, PinMapError, ShakerPins, TablePins
from .shaker_lines import (
    InterlockError,
    LidChanged,
    MotorCut,
    ShakeButtonPress,
    ShakerEvent,
    ShakerLines,
)
from .tower_light import SIGNALS, LampMode, LightPattern, TowerLight

__all__ = [
    "BCM_PINS",
    "BEEPS",
    "DEFAULT_DEBOUNCE",
    "SIGNALS",
    "BeepPattern",
    "ButtonPress",
    "DealerPanel",
    "Debouncer",
    "GpioError",
    "InputLine",
    "InterlockError",
    "LampMode",
    "LidChanged",
    "LightPattern",
    "MockLines",
    "MotorCut",
    "OutputLine",
    "PanelButton",
    "PanelBuzzer",
    "PanelPins",
    "PinFactory",
    "PinMapError",
    "ShakeButtonPress",
    "ShakerEvent",
    "ShakerLines",
    "ShakerPins",
    "TablePins",
    "TowerLight",
    "mock_factory",
]
