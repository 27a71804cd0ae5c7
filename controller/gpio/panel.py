"""The table's panel: three buttons that publish commands, an RGB LED and a buzzer.

:class:`Panel` owns no hardware of its own choosing: the pins, the gpiozero pin
factory, the clock and the callback that publishes a command are passed in (as
in ``firmware/pegboard/app.py``), so tests run it on gpiozero's ``MockFactory``.

Buttons. A short press publishes the button's first command when it is released;
a press held ``long_press_s`` publishes its second command once, while still held,
and nothing on release. A press shorter than ``bounce_s`` is contact bounce and
publishes nothing (besides gpiozero's own ``bounce_time``, which not every backend
honours). ``new_game`` has no short command, so brushing it never resets a game.

========== ======================== ==========================
button     short press              long press
========== ======================== ==========================
undo       ``{"command": "undo"}``    ``{"command": "dismiss"}``
confirm    ``{"command": "confirm"}`` ``{"command": "next_deal"}``
new_game   nothing                  ``{"command": "new_game"}``
========== ======================== ==========================

LED and buzzer (:meth:`Panel.show`; :func:`status_for` picks the status):

=========== ================= =============
status      LED               buzzer
=========== ================= =============
``ready``   green, steady     —
``misread`` amber, blinking   one short beep
``revoke``  red, blinking     three beeps
``alert``   amber, steady     —
``offline`` blue, blinking    —
``off``     off               off
=========== ================= =============

>>> from controller.gpio.factory import make_pin_factory
>>> from controller.gpio.pins import PanelPins
>>> sent = []
>>> panel = Panel(PanelPins(), pin_factory=make_pin_factory("mock"), on_command=sent.append)
>>> panel.show("ready")
>>> panel.status, panel.led_color
('ready', (0.0, 1.0, 0.0))
>>> panel.close()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from controller.gpio.pins import PanelPins

__all__ = [
    "BUTTONS",
    "DEFAULT_BINDINGS",
    "MISREAD_KINDS",
    "STATUSES",
    "Panel",
    "PanelHealth",
    "status_for",
]

log = logging.getLogger(__name__)

Command = dict[str, Any]
Binding = tuple[Command | None, Command | None]

BUTTONS = ("undo", "confirm", "new_game")
DEFAULT_BINDINGS: Mapping[str, Binding] = {
    "undo": ({"command": "undo"}, {"command": "dismiss"}),
    "confirm": ({"command": "confirm"}, {"command": "next_deal"}),
    "new_game": (None, {"command": "new_game"}),
}
STATUSES = ("ready", "misread", "revoke", "alert", "offline", "off")
#: Alert kinds that mean the camera read the table wrongly (shown as "misread");
#: ``not-in-pack`` is :mod:`rules.reading`'s name for a card this game's pack lacks.
MISREAD_KINDS = frozenset(
    {"misread", "missing-card", "duplicate-card", "unknown-card", "not-in-pack"}
)

_OFF = (0.0, 0.0, 0.0)
_RED = (1.0, 0.0, 0.0)
_GREEN = (0.0, 1.0, 0.0)
_BLUE = (0.0, 0.0, 1.0)
_AMBER = (1.0, 0.5, 0.0)  # red and green together read as amber through a diffuser
_BLINK_S = {"misread": 0.3, "revoke": 0.2, "offline": 0.5}
_BEEP_S = 0.1


@dataclass(frozen=True, slots=True)
class PanelHealth:
    """What the panel has done: presses seen, commands published, bounces ignored."""

    status: str = "off"
    presses: int = 0
    commands: int = 0
    bounces: int = 0
    callback_errors: int = 0
    last_error: str | None = None


@dataclass(slots=True)
class _Press:
    """One button's press in progress (guarded by the panel's lock)."""

    since: float | None = None  # clock() when pressed; None when up
    long_sent: bool = False


class Panel:
    """The buttons, the RGB status LED and the buzzer on one gpiozero pin factory.

    ``on_command`` is called with a fresh dict per press, from gpiozero's threads;
    an exception from it is logged and counted (:meth:`health`), never raised into
    gpiozero. ``bindings`` replaces the (short, long) commands of the buttons it
    names; ``None`` for either means that press does nothing.
    """

    def __init__(
        self,
        pins: PanelPins,
        *,
        pin_factory: Any,
        on_command: Callable[[Command], None],
        long_press_s: float = 1.0,
        bounce_s: float = 0.05,
        bindings: Mapping[str, Binding] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import RGBLED, Button, Buzzer
        from gpiozero.exc import PinPWMUnsupported

        if not 0 <= bounce_s < long_press_s:
            raise ValueError(
                f"expected 0 <= bounce_s < long_press_s, got {bounce_s} and {long_press_s}"
            )
        self._bindings = dict(DEFAULT_BINDINGS)
        for name, binding in (bindings or {}).items():
            if name not in BUTTONS:
                raise ValueError(f"bindings.{name}: no such button (expected one of {BUTTONS})")
            if not (isinstance(binding, tuple) and len(binding) == 2):
                raise ValueError(f"bindings.{name}: expected (short, long), got {binding!r}")
            self._bindings[name] = binding
        self._on_command = on_command
        self._clock = clock
        self._bounce_s = bounce_s
        self._long_press_s = long_press_s
        self._lock = threading.Lock()
        self._presses = {name: _Press() for name in BUTTONS}
        self._health = PanelHealth()
        self._closed = False
        self._devices: list[Any] = []
        try:
            self._buttons = {}
            for name in BUTTONS:
                button = Button(
                    getattr(pins, name),
                    pull_up=pins.pull_up,
                    bounce_time=bounce_s or None,
                    hold_time=long_press_s,
                    pin_factory=pin_factory,
                )
                self._devices.append(button)
                button.when_pressed = lambda n=name: self._pressed(n)
                button.when_held = lambda n=name: self._held(n)
                button.when_released = lambda n=name: self._released(n)
                self._buttons[name] = button
            rgb = (pins.led_red, pins.led_green, pins.led_blue)
            try:
                self._led = RGBLED(*rgb, active_high=pins.active_high, pin_factory=pin_factory)
                self._pwm = True
            except PinPWMUnsupported:  # the native factory: full on or off, amber is yellow
                self._led = RGBLED(
                    *rgb, active_high=pins.active_high, pwm=False, pin_factory=pin_factory
                )
                self._pwm = False
            self._devices.append(self._led)
            self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
            self._devices.append(self._buzzer)
        except BaseException:
            self.close()
            raise

    # -- buttons (called on gpiozero's threads) -------------------------------

    def _pressed(self, name: str) -> None:
        with self._lock:
            self._presses[name] = _Press(since=self._clock())

    def _held(self, name: str) -> None:
        with self._lock:
            press = self._presses[name]
            if press.since is None or press.long_sent:
                return
            press.long_sent = True
        self._publish(name, self._bindings[name][1])

    def _released(self, name: str) -> None:
        with self._lock:
            press, self._presses[name] = self._presses[name], _Press()
            if press.since is None or press.long_sent:
                return
            length = self._clock() - press.since
            if length < self._bounce_s:
                self._health = replace(self._health, bounces=self._health.bounces + 1)
                return
        # A release that beat gpiozero's hold thread still counts as the long press.
        short, long = self._bindings[name]
        self._publish(name, long if length >= self._long_press_s else short)

    def _publish(self, name: str, command: Command | None) -> None:
        with self._lock:
            self._health = replace(self._health, presses=self._health.presses + 1)
        if command is None:
            return
        try:
            self._on_command(dict(command))
        except Exception as e:
            log.exception("button %s: publishing %r failed", name, command)
            with self._lock:
                self._health = replace(
                    self._health,
                    callback_errors=self._health.callback_errors + 1,
                    last_error=f"button {name}: {type(e).__name__}: {e}",
                )
        else:
            with self._lock:
                self._health = replace(self._health, commands=self._health.commands + 1)

    # -- LED and buzzer ---------------------------------------------------------

    def show(self, status: str) -> None:
        """Light the LED (and beep) for ``status``, one of :data:`STATUSES`.

        Showing the status already shown does nothing, so a retained state that
        arrives again does not beep again. After :meth:`close` it does nothing.

        >>> from controller.gpio.factory import make_pin_factory
        >>> panel = Panel(PanelPins(), pin_factory=make_pin_factory("mock"), on_command=print)
        >>> panel.show("party")
        Traceback (most recent call last):
        ...
        ValueError: unknown status 'party' (expected one of ready, misread, revoke, alert, \
offline, off)
        >>> panel.close()
        """
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r} (expected one of {', '.join(STATUSES)})")
        with self._lock:
            if self._closed or status == self._health.status:
                return
            self._health = replace(self._health, status=status)
            led, buzzer = self._led, self._buzzer
            buzzer.off()
            if status == "ready":
                led.color = _GREEN
            elif status == "alert":
                led.color = self._color(_AMBER)
            elif status == "off":
                led.off()
            else:
                on = {"misread": _AMBER, "revoke": _RED, "offline": _BLUE}[status]
                blink = _BLINK_S[status]
                led.blink(on_time=blink, off_time=blink, on_color=self._color(on), background=True)
                beeps = {"misread": 1, "revoke": 3}.get(status)
                if beeps:
                    buzzer.beep(on_time=_BEEP_S, off_time=_BEEP_S, n=beeps, background=True)

    def _color(self, color: tuple[float, float, float]) -> tuple[float, float, float]:
        return color if self._pwm else tuple(1.0 if c else 0.0 for c in color)  # type: ignore[return-value]

    @property
    def status(self) -> str:
        """The status last shown (``"off"`` before the first)."""
        return self._health.status

    @property
    def led_color(self) -> tuple[float, float, float]:
        """The LED's colour right now (red, green, blue; 0-1); a blink shows its phase."""
        return tuple(float(c) for c in self._led.value)  # type: ignore[return-value]

    def health(self) -> PanelHealth:
        return self._health

    def close(self) -> None:
        """Switch everything off and release every pin; calling it again does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            devices, self._devices = self._devices, []
        for device in reversed(devices):
            try:
                device.close()
            except Exception:  # closing must release the rest whatever one does
                log.exception("closing %r failed", device)

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def status_for(state: Mapping[str, Any]) -> str:
    """The LED status for a retained game state (``game/state``'s body).

    Reads three keys, each optional:

    * ``verdicts``: a list of ``{"kind": str, "event": int, ...}``, numbered like
      the game's events (0-based); a verdict of kind ``"revoke"`` whose ``event``
      is the last event (``events - 1``) gives ``"revoke"``;
    * ``alerts``: the open alerts, a list of ``{"id": ..., "kind": str, ...}``;
      any kind in :data:`MISREAD_KINDS` gives ``"misread"``, any other ``"alert"``;
    * ``events``: an int, the number of game events so far.

    A revoke just flagged wins over alerts; otherwise ``"ready"``. A key of the
    wrong shape raises ``ValueError`` naming it.

    >>> status_for({"events": 12, "verdicts": [{"kind": "revoke", "event": 11}], "alerts": []})
    'revoke'
    >>> status_for({"events": 13, "verdicts": [{"kind": "revoke", "event": 11}]})
    'ready'
    >>> status_for({"events": 3, "alerts": [{"id": "a1", "kind": "duplicate-card"}]})
    'misread'
    >>> status_for({"events": 3, "alerts": [{"id": "a2", "kind": "shown-hand-differs"}]})
    'alert'
    >>> status_for({"events": "3"})
    Traceback (most recent call last):
    ...
    ValueError: state.events: expected an int, got '3'
    """
    events = state.get("events", 0)
    if type(events) is not int:
        raise ValueError(f"state.events: expected an int, got {events!r}")
    for i, verdict in enumerate(_objects(state, "verdicts")):
        kind, event = verdict.get("kind"), verdict.get("event")
        if event is not None and type(event) is not int:
            raise ValueError(f"state.verdicts[{i}].event: expected an int, got {event!r}")
        if kind == "revoke" and event == events - 1:
            return "revoke"
    kinds = []
    for i, alert in enumerate(_objects(state, "alerts")):
        kind = alert.get("kind")
        if not isinstance(kind, str):
            raise ValueError(f"state.alerts[{i}].kind: expected a string, got {kind!r}")
        kinds.append(kind)
    if any(kind in MISREAD_KINDS for kind in kinds):
        return "misread"
    return "alert" if kinds else "ready"


def _objects(state: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    items = state.get(key) or []
    if not isinstance(items, list):
        raise ValueError(f"state.{key}: expected a list, got {type(items).__name__}")
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ValueError(f"state.{key}[{i}]: expected an object, got {item!r}")
    return items
