"""The panel on gpiozero's MockFactory: presses publish commands, states light the LED.

Presses and releases run on the test's thread (MockPin calls back at once); the
long press comes from gpiozero's hold thread, so those tests wait on a condition
with a timeout. Press lengths come from a fake clock, never from wall time.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from controller.gpio.errors import ConfigError, GpioUnavailableError
from controller.gpio.factory import detect_pin_factory_name, make_pin_factory
from controller.gpio.panel import Panel, status_for
from controller.gpio.pins import GpioConfig, PanelPins

WAIT_S = 10.0  # a bound for a loaded machine, not a measurement


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Commands:
    """The on_command callback: records what it gets; tests wait on it."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self._cond = threading.Condition()

    def __call__(self, command: dict[str, Any]) -> None:
        with self._cond:
            self.got.append(command)
            self._cond.notify_all()

    def wait_for(self, n: int) -> None:
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.got) >= n, WAIT_S)
        assert ok, f"expected {n} command(s) within {WAIT_S} s, got {self.got}"


def eventually(predicate: Callable[[], bool], what: str) -> None:
    done = threading.Event()
    for _ in range(int(WAIT_S / 0.01)):
        if predicate():
            return
        done.wait(0.01)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def commands() -> Commands:
    return Commands()


@pytest.fixture
def make_panel(
    factory: MockFactory, clock: Clock, commands: Commands
) -> Iterator[Callable[..., Panel]]:
    made: list[Panel] = []

    def make(pins: PanelPins | None = None, **kwargs: Any) -> Panel:
        kwargs.setdefault("clock", clock)
        panel = Panel(pins or PanelPins(), pin_factory=factory, on_command=commands, **kwargs)
        made.append(panel)
        return panel

    yield make
    for panel in made:
        panel.close()


def press(factory: MockFactory, pin: int, clock: Clock, seconds: float) -> None:
    factory.pin(pin).drive_low()
    clock.advance(seconds)
    factory.pin(pin).drive_high()


# -- buttons -------------------------------------------------------------------


def test_short_press_of_undo_publishes_undo_once(make_panel, factory, clock, commands):
    panel = make_panel()
    press(factory, 5, clock, 0.2)
    assert commands.got == [{"command": "undo"}]
    assert panel.health().commands == 1


def test_short_press_of_confirm_publishes_confirm(make_panel, factory, clock, commands):
    make_panel()
    press(factory, 6, clock, 0.2)
    assert commands.got == [{"command": "confirm"}]


def test_a_bouncing_contact_publishes_one_command(make_panel, factory, clock, commands):
    panel = make_panel(bounce_s=0.05)
    pin = factory.pin(5)
    for _ in range(4):  # the contact chatters as it closes ...
        press(factory, 5, clock, 0.002)
        clock.advance(0.002)
    pin.drive_low()  # ... then stays closed
    clock.advance(0.3)
    pin.drive_high()
    for _ in range(3):  # and chatters as it opens
        clock.advance(0.002)
        press(factory, 5, clock, 0.002)
    assert commands.got == [{"command": "undo"}]
    assert panel.health().bounces == 7


def test_each_press_publishes_afresh(make_panel, factory, clock, commands):
    make_panel()
    press(factory, 5, clock, 0.2)
    commands.got[0]["command"] = "tampered"
    clock.advance(1)
    press(factory, 5, clock, 0.2)
    assert commands.got[1] == {"command": "undo"}


def test_long_press_of_confirm_gives_next_deal_not_confirm(make_panel, factory, commands):
    panel = make_panel(long_press_s=0.2, clock=Clock())
    factory.pin(6).drive_low()
    commands.wait_for(1)  # from the hold thread, while still held
    factory.pin(6).drive_high()
    assert commands.got == [{"command": "next_deal"}]
    assert panel.health().presses == 1


def test_a_release_that_beats_the_hold_thread_is_still_a_long_press(
    make_panel, factory, clock, commands
):
    make_panel(long_press_s=5.0)
    press(factory, 5, clock, 6.0)
    assert commands.got == [{"command": "dismiss"}]


def test_new_game_short_press_does_nothing(make_panel, factory, clock, commands):
    panel = make_panel()
    press(factory, 13, clock, 0.3)
    assert commands.got == []
    assert (panel.health().presses, panel.health().commands) == (1, 0)


def test_new_game_long_press_gives_new_game(make_panel, factory, commands):
    make_panel(long_press_s=0.2, clock=Clock())
    factory.pin(13).drive_low()
    commands.wait_for(1)
    factory.pin(13).drive_high()
    assert commands.got == [{"command": "new_game"}]


def test_bindings_replace_a_buttons_commands(make_panel, factory, clock, commands):
    make_panel(bindings={"undo": (None, {"command": "go"})})
    press(factory, 5, clock, 0.2)
    press(factory, 6, clock, 0.2)
    assert commands.got == [{"command": "confirm"}]
    with pytest.raises(ValueError, match=r"bindings\.redo: no such button"):
        make_panel(bindings={"redo": (None, None)})


def test_a_failing_callback_is_counted_and_the_panel_goes_on(factory, clock):
    calls = []

    def publish(command: dict[str, Any]) -> None:
        calls.append(command)
        if len(calls) == 1:
            raise ConnectionError("broker away")

    with Panel(PanelPins(), pin_factory=factory, on_command=publish, clock=clock) as panel:
        press(factory, 5, clock, 0.2)
        press(factory, 6, clock, 0.2)
        health = panel.health()
    assert calls == [{"command": "undo"}, {"command": "confirm"}]
    assert (health.commands, health.callback_errors) == (1, 1)
    assert health.last_error == "button undo: ConnectionError: broker away"


def test_buttons_wired_to_3v3_with_pull_down(make_panel, factory, clock, commands):
    make_panel(PanelPins(pull_up=False))
    pin = factory.pin(5)
    pin.drive_high()
    clock.advance(0.2)
    pin.drive_low()
    assert commands.got == [{"command": "undo"}]


# -- LED and buzzer ---------------------------------------------------------------


def highs(pin: Any) -> int:
    """How often a mock pin went from off to on."""
    states = [bool(s.state) for s in pin.states]
    return sum(1 for a, b in itertools.pairwise(states) if b and not a)


def test_revoke_blinks_red_and_beeps_three_times(make_panel, factory):
    panel = make_panel()
    red, green, blue, buzzer = (factory.pin(n) for n in (17, 27, 22, 19))
    panel.show("revoke")
    assert panel.status == "revoke"
    eventually(lambda: highs(red) >= 2, "the red pin blinking")
    eventually(lambda: len(buzzer.states) >= 7, "three beeps")
    assert highs(buzzer) == 3
    assert highs(green) == 0 and highs(blue) == 0
    assert not buzzer.states[-1].state


def test_misread_blinks_amber_and_beeps_once(make_panel, factory):
    panel = make_panel()
    red, green, buzzer = factory.pin(17), factory.pin(27), factory.pin(19)
    panel.show("misread")
    eventually(lambda: highs(red) >= 2 and highs(green) >= 2, "red and green blinking")
    eventually(lambda: len(buzzer.states) >= 3, "one beep")
    assert {s.state for s in green.states} == {0, 0.5}  # half green: amber
    assert highs(buzzer) == 1


def test_ready_is_steady_green_and_silent(make_panel, factory):
    panel = make_panel()
    panel.show("revoke")
    panel.show("ready")
    assert panel.led_color == (0.0, 1.0, 0.0)
    assert factory.pin(27).state == 1 and factory.pin(17).state == 0
    assert not factory.pin(19).state


def test_a_common_anode_led_is_driven_low(make_panel, factory):
    panel = make_panel(PanelPins(active_high=False))
    panel.show("ready")
    assert (factory.pin(17).state, factory.pin(27).state, factory.pin(22).state) == (1, 0, 1)


def test_without_pwm_amber_is_red_and_green(clock, commands):
    plain = MockFactory()  # MockPin: no PWM, like the native factory
    try:
        with Panel(PanelPins(), pin_factory=plain, on_command=commands, clock=clock) as panel:
            panel.show("alert")
            assert panel.led_color == (1.0, 1.0, 0.0)
    finally:
        plain.close()


def test_an_unknown_status_is_refused(make_panel):
    panel = make_panel()
    with pytest.raises(ValueError, match="unknown status 'won'"):
        panel.show("won")
    assert panel.status == "off"


def test_close_releases_every_pin_and_is_idempotent(factory, clock, commands):
    panel = Panel(PanelPins(), pin_factory=factory, on_command=commands, clock=clock)
    panel.show("offline")
    panel.close()
    panel.close()
    panel.show("revoke")  # a state that arrives during shutdown
    for pin in (5, 6, 13, 19, 17, 27, 22):
        Button(pin, pin_factory=factory).close()  # GPIOPinInUse if still held


# -- status_for ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "status"),
    [
        ({"game": "skat", "events": 0, "verdicts": [], "alerts": []}, "ready"),
        ({"game": "skat"}, "ready"),
        ({"events": 31, "verdicts": [{"kind": "revoke", "event": 30, "seat": 2}]}, "revoke"),
        ({"events": 32, "verdicts": [{"kind": "revoke", "event": 30, "seat": 2}]}, "ready"),
        ({"events": 31, "verdicts": [{"kind": "led-out-of-turn", "event": 30}]}, "ready"),
        (
            {
                "events": 31,
                "verdicts": [{"kind": "revoke", "event": 30}],
                "alerts": [{"id": "a1", "kind": "misread"}],
            },
            "revoke",
        ),
        ({"events": 5, "alerts": [{"id": "a1", "kind": "missing-card"}]}, "misread"),
        ({"events": 5, "alerts": [{"id": "a1", "kind": "unknown-card"}]}, "misread"),
        ({"events": 5, "alerts": [{"id": "a1", "kind": "not-in-pack"}]}, "misread"),
        (
            {
                "events": 5,
                "alerts": [{"id": "a1", "kind": "shown-hand"}, {"id": "a2", "kind": "misread"}],
            },
            "misread",
        ),
        ({"events": 5, "alerts": [{"id": "a1", "kind": "shown-hand"}]}, "alert"),
    ],
)
def test_status_for(state, status):
    assert status_for(state) == status


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"alerts": {"kind": "misread"}}, r"state\.alerts: expected a list"),
        ({"alerts": [{"id": "a1"}]}, r"state\.alerts\[0\]\.kind: expected a string"),
        ({"verdicts": ["revoke"]}, r"state\.verdicts\[0\]: expected an object"),
        ({"verdicts": [{"kind": "revoke", "event": "3"}]}, r"state\.verdicts\[0\]\.event"),
    ],
)
def test_status_for_names_a_malformed_key(state, message):
    with pytest.raises(ValueError, match=message):
        status_for(state)


# -- config ----------------------------------------------------------------------------


def test_default_pins_are_distinct_header_gpios():
    pins = PanelPins()
    numbers = [pins.undo, pins.confirm, pins.new_game, pins.buzzer]
    numbers += [pins.led_red, pins.led_green, pins.led_blue]
    assert len(set(numbers)) == 7 and all(2 <= n <= 27 for n in numbers)
    assert PanelPins.from_config({}) == pins


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"undo": 40}, "gpio.undo: expected a BCM pin 2-27, got 40"),
        ({"buzzer": 1}, "gpio.buzzer: expected a BCM pin 2-27, got 1"),
        ({"led_red": "17"}, "gpio.led_red: expected a BCM pin 2-27, got '17'"),
        ({"led_red": True}, "gpio.led_red: expected a BCM pin 2-27, got True"),
        ({"new_game": 6}, "gpio.new_game: pin 6 is already gpio.confirm"),
        ({"active_high": 1}, "gpio.active_high: expected true or false, got 1"),
        ({"buzer": 19}, "gpio.buzer: unknown key"),
        ({"pin_factory": "lgpio"}, "gpio.pin_factory: unknown key"),
    ],
)
def test_pin_config_errors_name_the_key(mapping, message):
    with pytest.raises(ConfigError) as caught:
        PanelPins.from_config(mapping)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_config_errors_carry_the_whole_key_path():
    with pytest.raises(ConfigError, match=r"^table\.gpio\.undo: expected a BCM pin"):
        GpioConfig.from_config({"undo": 99}, where="table.gpio")
    with pytest.raises(ConfigError, match=r"^gpio: expected a table, got list"):
        GpioConfig.from_config([5, 6])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"pin_factory": 3}, "gpio.pin_factory: expected a name, got 3"),
        ({"long_press_s": 0}, "gpio.long_press_s: expected seconds 0.1-10, got 0"),
        ({"bounce_s": -0.1}, "gpio.bounce_s: expected seconds 0-0.5, got -0.1"),
        ({"bounce_s": 0.3, "long_press_s": 0.2}, "gpio.long_press_s: must be longer"),
    ],
)
def test_gpio_settings_errors_name_the_key(mapping, message):
    with pytest.raises(ConfigError) as caught:
        GpioConfig.from_config(mapping)
    assert str(caught.value).startswith(message)


def test_gpio_config_reads_pins_and_settings():
    config = GpioConfig.from_config({"pin_factory": "lgpio", "bounce_s": 0.02, "buzzer": 12})
    assert (config.pin_factory, config.bounce_s, config.long_press_s) == ("lgpio", 0.02, 1.0)
    assert config.pins == PanelPins(buzzer=12)


# -- pin factories --------------------------------------------------------------------


def test_mock_factory_has_pwm_pins():
    mock = make_pin_factory("mock")
    try:
        assert isinstance(mock, MockFactory)
        pin = mock.pin(17)
        pin.function = "output"
        pin.frequency = 100  # PinPWMUnsupported on a plain MockPin
        assert pin.frequency == 100
    finally:
        mock.close()


@pytest.mark.parametrize(
    ("name", "module", "package", "apt"),
    [
        ("lgpio", "lgpio", "lgpio", "python3-lgpio"),
        ("rpigpio", "RPi", "RPi.GPIO", "python3-rpi.gpio"),
    ],
)
def test_a_missing_backend_says_what_to_install(monkeypatch, name, module, package, apt):
    monkeypatch.setitem(sys.modules, module, None)  # import fails, installed or not
    monkeypatch.delitem(sys.modules, f"gpiozero.pins.{name}", raising=False)
    with pytest.raises(ConfigError) as caught:
        make_pin_factory(name)
    message = str(caught.value)
    assert message.startswith(f"gpio.pin_factory: {name} needs the {package} package")
    assert "pip install 'kiebitz[pi]'" in message and f"apt install {apt}" in message
    assert "\n" not in message


def test_an_unknown_factory_is_a_config_error():
    with pytest.raises(ConfigError, match=r"unknown pin factory 'pigpio'"):
        make_pin_factory("pigpio")


def test_auto_off_a_pi_says_so(monkeypatch):
    monkeypatch.setattr("controller.gpio.factory.detect_pin_factory_name", lambda: None)
    with pytest.raises(GpioUnavailableError, match="found no Raspberry Pi"):
        make_pin_factory("auto")


@pytest.mark.parametrize(
    ("model", "name"),
    [
        (b"Raspberry Pi 5 Model B Rev 1.0\x00", "lgpio"),
        (b"Raspberry Pi Compute Module 5 Rev 1.0\x00", "lgpio"),
        (b"Raspberry Pi 500 Rev 1.0\x00", "lgpio"),
        (b"Raspberry Pi 4 Model B Rev 1.5\x00", "rpigpio"),
        (b"Raspberry Pi 3 Model B Plus Rev 1.3\x00", "rpigpio"),
        (b"Raspberry Pi Zero 2 W Rev 1.0\x00", "rpigpio"),
        (b"Radxa ROCK 5B\x00", None),
    ],
)
def test_detect_from_the_device_tree(tmp_path: Path, model, name):
    (tmp_path / "model").write_bytes(model)
    assert detect_pin_factory_name(tmp_path / "model", tmp_path / "missing") == name


@pytest.mark.parametrize(
    ("cpuinfo", "name"),
    [
        ("Revision\t: d04170\nSerial\t: 1\nModel\t: Raspberry Pi 5 Model B Rev 1.0\n", "lgpio"),
        ("Revision\t: c03115\nModel\t: Raspberry Pi 4 Model B Rev 1.5\n", "rpigpio"),
        ("Hardware\t: BCM2835\nRevision\t: c04170\n", "lgpio"),
        ("Hardware\t: BCM2835\nRevision\t: a02082\n", "rpigpio"),
        ("Hardware\t: BCM2835\nRevision\t: 000e\n", "rpigpio"),
        ("processor\t: 0\nvendor_id\t: GenuineIntel\n", None),
        ("Hardware\t: Rockchip\nRevision\t: 0000\n", None),
    ],
)
def test_detect_from_cpuinfo(tmp_path: Path, cpuinfo, name):
    (tmp_path / "cpuinfo").write_text(cpuinfo)
    assert detect_pin_factory_name(tmp_path / "missing", tmp_path / "cpuinfo") == name
