"""The table service: the camera's observations out, the referee's state in.

:class:`TableService` is given its parts (a service is given its bus, its pins
and its clock):

* frames from a :class:`~vision.sources.FrameSource` through a
  :class:`~vision.watch.TableWatcher` (or pre-recorded observation bodies),
  each settled observation published on ``kiebitz/v1/<table>/table/observation``;
* the retained ``game/state`` of its table, shown on the peg board
  (:class:`~controller.board.link.BoardLink`) and the GPIO panel
  (:class:`~controller.gpio.panel.Panel`);
* the panel's button presses published on ``table/command``;
* with a camera, the referee's ``game/event``: a new game or a new match (from the
  panel, the web view, anywhere) may bring another pack, and the camera forgets
  what it learnt of the old one (:meth:`~vision.watch.TableWatcher.new_game`);
* trouble (a rejected message, calibration, an unreadable frame, a state the
  board cannot show) published as an ``error`` event on ``table/event``, never
  raised out of a handler.

The bus is built by the caller with the retained last will, from
:func:`status_will`, so that the broker says ``offline`` when the service dies::

    status = Stamper(f"{table}/table-status")
    bus = open_bus(url, f"{table}-table", will=status_will(table, status))
    service = TableService(table, bus, status_stamper=status, ...)

>>> from controller.bus.bus import MemoryBroker, MemoryBus
>>> broker = MemoryBroker()
>>> service = TableService("t1", MemoryBus(broker, "t1-table"),
...                        observations=[{"kind": "placed", "card": "5H", "zone": "play.0",
...                                       "zone_kind": "play", "seat": 0, "from_zone": None,
...                                       "t": 1.5, "confidence": 0.93}])
>>> service.start()
>>> service.step(), service.step()
(True, False)
>>> service.health()["observations"]
1
>>> service.close()
>>> sorted(broker.retained())
['kiebitz/v1/t1/status/table']
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict
from functools import partial
from typing import TYPE_CHECKING, Any

from controller.bus.bus import Bus
from controller.bus.dispatch import Dispatcher, Publisher
from controller.bus.envelope import Envelope, PayloadError, Stamper, encode
from controller.bus.topics import (
    COMMAND,
    EVENT,
    OBSERVATION,
    STATE,
    TABLE_EVENT,
    check_table_id,
    topic,
)
from controller.bus.topics import status_topic as _status_topic
from controller.kept_file import KeptFileWatch
from controller.stopping import obey_ctrl_c
from controller.table.board_view import board_state
from controller.table.observations import observation_body
from controller.table.outbox import Outbox, OutboxError

if TYPE_CHECKING:
    from controller.board.link import BoardLink
    from controller.board.model import BoardState
    from controller.gpio.panel import Panel
    from vision.layout import TableLayout
    from vision.sources import FrameSource
    from vision.watch import TableWatcher

__all__ = ["WILL_DETAIL", "LatencyHook", "PanelFactory", "TableService", "status_will"]

log = logging.getLogger("kiebitz.table")

#: Frames in a row the source cannot give that are each said (an error event and a
#: log line); the rest are counted, and their number said when one reads again.
SKIPS_SAID = 3

LatencyHook = Callable[[str, float], None]
CommandCallback = Callable[[dict[str, Any]], None]
PanelFactory = Callable[[CommandCallback], "Panel"]


#: The detail of an offline status that is a last will (:func:`status_will`).
WILL_DETAIL = "connection lost"

#: A status's detail is at most this long (the status schema's ``maxLength``): a
#: board's error naming a long port three times made the status unsendable, and
#: the service died at start (the shipped config's ``/dev/serial/by-id/…`` port,
#: unplugged)
DETAIL_MAX = 200


def status_will(table: str, stamper: Stamper, component: str = "table") -> tuple[str, bytes]:
    """The retained last will (topic, payload) for the bus: ``offline`` on ``status/<component>``.

    >>> topic_, payload = status_will("t1", Stamper("t1/table", clock=lambda: 1.0))
    >>> topic_, b'"state":"offline"' in payload
    ('kiebitz/v1/t1/status/table', True)
    """
    # the will is stamped when the service starts, and published by the broker when
    # the connection is lost, at a time nobody stamps: it says what it is, so that
    # `kiebitz status` gives no age for it (a clean stop says offline afresh)
    body = {"state": "offline", "component": component, "detail": WILL_DETAIL}
    return _status_topic(table, component), encode(stamper.stamp("status", body))


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, a cut one ending in "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _make_panel(panel: Panel | PanelFactory, on_command: CommandCallback) -> Panel:
    """A ready Panel as it is; a factory called with the service's command callback."""
    if hasattr(panel, "show"):
        return panel  # type: ignore[return-value]
    return panel(on_command)


class TableService:
    """One table's service: see the module's docstring. ``start``, ``step``/``run``, ``close``.

    ``observations`` (pre-recorded observation bodies, each published as it
    comes) is an alternative to ``source`` + ``watcher``. ``panel`` is a
    :class:`Panel`, or a function from the command callback to a Panel (so its
    presses publish on ``table/command``); a ready Panel's presses go wherever its
    own ``on_command`` sends them (wire it to :meth:`send_command`).
    ``board_tracks`` is how many tracks of the board the game fills (at most the
    board layout's). ``clock`` (monotonic seconds) times the latency hook;
    ``stamper`` stamps the observations and commands the service sends (default
    ``<table>/<component>``), ``status_stamper`` its status and error messages
    (``<table>/<component>-status``; give it to :func:`status_will`).
    """

    def __init__(
        self,
        table: str,
        bus: Bus,
        *,
        source: FrameSource | None = None,
        watcher: TableWatcher | None = None,
        layout: TableLayout | None = None,
        observations: Iterable[Mapping[str, Any]] | None = None,
        board: BoardLink | None = None,
        board_tracks: int = 2,
        panel: Panel | PanelFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
        component: str = "table",
        stamper: Stamper | None = None,
        status_stamper: Stamper | None = None,
        outbox: Outbox | None = None,
        recorded_as: str | None = None,
        pace: float = 0.0,
    ) -> None:
        self.table = check_table_id(table)
        if observations is not None and source is not None:
            raise ValueError("give either a source (with a watcher) or observations, not both")
        if source is not None and watcher is None:
            raise ValueError("a source needs a watcher to turn its frames into observations")
        if board_tracks < 1:
            raise ValueError(f"board_tracks must be >= 1, not {board_tracks}")
        self.bus = bus
        self.component = component
        self.clock = clock
        self.watcher = watcher
        self.layout = layout if layout is not None else getattr(watcher, "layout", None)
        self.board = board
        self.tracks = min(board_tracks, board.layout.tracks) if board is not None else board_tracks
        self.game_hole: int | None = board.layout.game if board is not None else None
        self.latency_hook: LatencyHook | None = None
        self.outbox = outbox
        sender = f"{table}/{component}"
        self.stamper = stamper or Stamper(
            sender, start_seq=outbox.next_seq(sender) if outbox is not None else 1
        )
        self.publisher: Publisher = (
            Publisher(bus, self.stamper)
            if outbox is None
            else _KeptPublisher(bus, self.stamper, outbox, on_trouble=self._error)
        )
        # Status and error messages are a sender of their own, so that the referee sees
        # the observation and command stream's seqs without gaps and can put it in order.
        self.status_stamper = status_stamper or Stamper(f"{table}/{component}-status")
        self._status_publisher = Publisher(bus, self.status_stamper)
        self.dispatcher = Dispatcher(bus, on_error=self._rejected)
        self._observations: Iterator[Mapping[str, Any]] | None = (
            iter(observations) if observations is not None else None
        )
        # a recorded file under an outbox: started again, the service goes on after the
        # lines it sent (the outbox keeps the count with each message)
        self._recorded_as = recorded_as if outbox is not None and observations is not None else None
        self._recorded_lines = 0
        self._pace = pace  # seconds between recorded observations (0: as fast as sent)
        if self._recorded_as is not None and outbox is not None:
            done = outbox.progress(self._recorded_as)
            for _ in range(done):
                if next(self._observations, None) is None:  # type: ignore[arg-type]
                    break
                self._recorded_lines += 1
        self._source = self._wrap(source) if source is not None else None
        self._live = source is not None and self._is_live(source)
        gate = getattr(watcher, "gate", None)
        if source is not None and gate is not None:
            from vision.sources import ImageFolderSource

            # a folder's photographs are stills, each shown once: read a change at once
            gate.stills = isinstance(source, ImageFolderSource)
        self._lock = threading.Lock()
        self._closed = False
        self._started = False
        self._counts = {
            "frames": 0,
            "unreadable_frames": 0,
            "observations": 0,
            "states": 0,
            "board_states": 0,
            "commands": 0,
            "errors": 0,
        }
        self._calibration_error: str | None = None
        self._skipped = 0  # frames in a row the source could not give (SKIPS_SAID)
        self._connects_seen = 0  # the bus's connections when the status was last looked at
        self._online_since: float | None = None  # when start() said online (Unix time)
        self._calibrated_mm: float | None = None
        self._last_state: Mapping[str, Any] | None = None
        self._last_board: BoardState | None = None
        self._source_state: str | None = None
        self._parts_checked = 0.0
        self._parts_said = ""
        self._show = False
        self._sent = 0
        self.panel: Panel | None = None
        if panel is not None:
            self.panel = _make_panel(panel, self._command_from_panel)
        self.dispatcher.route(topic(table, STATE), "state", self._on_state)
        self.dispatcher.route(_status_topic(table, "referee"), "status", self._on_referee)
        if watcher is not None:
            self.dispatcher.route(topic(table, EVENT), "event", self._on_game_event)

    # -- life cycle -------------------------------------------------------------------

    @staticmethod
    def _is_live(source: Any) -> bool:
        from vision.sources import CameraSource, PiCameraSource, Reconnecting

        inner = source.source if isinstance(source, Reconnecting) else source
        return isinstance(inner, CameraSource | PiCameraSource)

    def _wrap(self, source: FrameSource) -> FrameSource:
        """Live cameras are reopened with back-off when they vanish (:class:`Reconnecting`)."""
        from vision.sources import Reconnecting

        if self._is_live(source) and not isinstance(source, Reconnecting):
            return Reconnecting(source, on_state=self._source_changed)
        return source

    def _source_changed(self, state: str, detail: str) -> None:
        self._source_state = state
        log.info("source %s: %s", state, detail)
        if state == "lost":
            self._error(f"source lost: {detail}")

    def start(self) -> None:
        """Open the source, start the board link and the bus, say ``online``."""
        if self._started:
            return
        self._started = True
        if self.board is not None:
            with contextlib.suppress(RuntimeError):  # started by the caller already
                self.board.start()
        self.bus.start()
        # Messages published before the connection is up may go out in another order.
        deadline = time.monotonic() + 5.0
        while not self.bus.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        self._online_since = time.time()
        online: dict[str, Any] = {
            "state": "online",
            "component": self.component,
            "since": self._online_since,
        }
        if self._parts():
            online["detail"] = self._parts_said = self._parts()
        self._send(_status_topic(self.table, self.component), "status", online, retain=True)
        self._connects_seen = self.bus.health().connects  # a later connect: said again
        if isinstance(self.publisher, _KeptPublisher):
            # what the broker never acknowledged before the last stop, oldest first,
            # before anything new; the referee drops a message it has by its id
            resent = self.publisher.resend()
            with self._lock:
                self._sent += resent
            if resent:
                log.info("%s: sent again %d message(s) kept in the outbox", self.table, resent)
        if self._source is not None:
            self._source.open()  # a live source reports trouble itself; a file raises SourceError

    def _parts(self) -> str:
        """How the board link and the camera stand, for the retained status's detail
        (``kiebitz status`` shows it): ``board synced; camera open``."""
        parts = []
        health = getattr(self.board, "health", None)  # a stand-in board may have none
        if health is not None:
            h = health()
            why = getattr(h, "last_error", None)
            # a board lost and being opened again says why (it said only "opening")
            lost = h.status in ("opening", "refused") and why
            parts.append(f"board {h.status}" + (f" ({_cut(str(why), 140)})" if lost else ""))
        if self._source is not None:
            parts.append(f"camera {self._source_state or 'open'}")
        return _cut("; ".join(parts), DETAIL_MAX)

    def _say_parts(self) -> None:
        """Publish the status again when the board's or the camera's state changed
        (checked at most every 2 s)."""
        now = time.monotonic()
        if now - self._parts_checked < 2.0:
            return
        self._parts_checked = now
        detail = self._parts()
        # connected again: the broker published the will (offline) when the link was
        # lost, or, restarted without persistence, has no status at all
        connects = self.bus.health().connects
        again = connects > self._connects_seen > 0
        self._connects_seen = connects
        if detail != self._parts_said or again:
            if detail != self._parts_said:
                # in the service's log too: a board unplugged and back left no line there
                healthy = "board opening (" not in detail and "board refused" not in detail
                log.log(logging.INFO if healthy else logging.WARNING, "status: %s", detail)
            self._parts_said = detail
            body: dict[str, Any] = {"state": "online", "component": self.component}
            if detail:
                body["detail"] = detail
            body["since"] = self._online_since
            self._send(_status_topic(self.table, self.component), "status", body, retain=True)

    def step(self) -> bool:
        """One frame (or one recorded observation); False at the end of a finite source."""
        if self._closed:
            return False
        self._say_parts()
        if self._observations is not None:
            return self._step_recorded()
        if self._source is None:
            return False
        return self._step_frame()

    def run(self, stop: threading.Event | None = None, *, headless: bool = True) -> None:
        """Step until the source ends or ``stop`` is set; ``headless=False`` shows the frames."""
        self.start()
        self._show = not headless
        while not (stop is not None and stop.is_set()):
            if not self.step():
                break
            obey_ctrl_c()  # one a native import swallowed (controller.stopping)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait (up to ``timeout`` s) until the broker acknowledged all the service sent.
        (A row the outbox could not forget, on a full card, stays: it is sent again at
        the next start and dropped there by its id.)"""
        deadline = time.monotonic() + timeout
        while True:
            health = self.bus.health()
            if isinstance(self.publisher, _KeptPublisher):
                self.publisher.forget_late()
            if health.published + health.refused >= self._sent:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)

    def close(self) -> None:
        """Close the source, the board link, the panel and the bus, in that order; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        parts: list[tuple[str, Any]] = [
            ("source", self._source),
            ("board", self.board),
            ("panel", self.panel),
            ("bus", self.bus),
            ("outbox", self.outbox),  # last: what the bus still acknowledged is forgotten
        ]
        for name, part in parts:
            if part is None:
                continue
            if name == "bus" and isinstance(self.publisher, _KeptPublisher):
                # what the outbox still keeps, on disk (trouble said while the bus is up)
                self.publisher.keep_file(now=True)
            if name == "bus" and self._online_since is not None:
                self._say_offline()
            try:
                part.close()
            except Exception:
                log.exception("closing the %s failed", name)
        if self._show:
            try:
                import cv2

                cv2.destroyAllWindows()
            except Exception:
                log.debug("no window to close", exc_info=True)

    def _say_offline(self) -> None:
        """A clean stop's retained ``offline``, stamped now; the bus's own goodbye
        (its will's payload, stamped at start) is then not sent over it."""
        try:
            body = {"state": "offline", "component": self.component, "detail": "stopped"}
            self._send(_status_topic(self.table, self.component), "status", body, retain=True)
        except Exception:
            log.exception("could not say offline")
            return
        if hasattr(self.bus, "will"):
            self.bus.will = None

    def __enter__(self) -> TableService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- observations out -------------------------------------------------------------

    def _step_recorded(self) -> bool:
        assert self._observations is not None
        try:
            body = next(self._observations)
        except StopIteration:
            return False
        except ValueError as exc:  # a bad line of a recorded file
            self._error(f"observations: {exc}")
            return True
        if self._pace > 0:
            time.sleep(self._pace)
        self._publish_observation(dict(body), recorded=True)
        return True

    def _step_frame(self) -> bool:
        from vision.errors import CalibrationError, SourceError

        assert self._source is not None and self.watcher is not None
        try:
            frame = self._source.read()
        except SourceError as exc:
            self._count("unreadable_frames")
            # a folder whose pictures were deleted gave a line for every frame, on the
            # bus and in the log: the first few are said, the rest counted, and how
            # many were skipped is said when a frame reads again
            self._skipped += 1
            if self._skipped <= SKIPS_SAID:
                more = (
                    " (the next ones are counted, not said)" if self._skipped == SKIPS_SAID else ""
                )
                self._error(f"frame skipped: {exc}{more}")
            return True
        if self._skipped:
            if self._skipped > SKIPS_SAID:
                self._error(f"{self._skipped} frames in a row could not be read")
            self._skipped = 0
        if frame is None:
            return self._live and not self._closed
        self._count("frames")
        watcher = self.watcher
        if self.layout is not None and watcher.recognizer.calibration is None:
            try:
                error = watcher.try_calibrate(frame.image)
            except CalibrationError as exc:
                reason = f"calibration: {exc}"
                if reason != self._calibration_error:  # once per reason, not once per frame
                    self._calibration_error = reason
                    self._error(f"frame {frame.index}: {reason}")
            else:
                self._calibrated_mm = error
                self._calibration_error = None
                log.info("calibrated on frame %d, error %.2f mm", frame.index, error or 0.0)
                cal = watcher.recognizer.calibration
                for trouble in cal.trouble() if cal is not None else []:
                    self._error(f"calibration: {trouble}")
        try:
            observations, flagged = watcher.process(
                frame.t, frame.image, frame.small, frame.small_colour
            )
        except Exception as exc:  # a frame the recogniser chokes on: skip it, keep going
            log.exception("frame %d could not be read", frame.index)
            self._count("unreadable_frames")
            self._error(f"frame {frame.index} skipped: {type(exc).__name__}: {exc}")
            return True
        for kind, note in watcher.take_notes():  # the camera moved (docs/vision.md)
            cal = watcher.recognizer.calibration
            if kind == "pack-index":  # the pack's index is larger than the layout says
                self._error(f"frame {frame.index}: {note}")
                continue
            if kind == "camera-lost":  # health() says so while it lasts
                self._calibration_error = note
            else:
                self._calibration_error = None
                self._calibrated_mm = cal.error_mm if cal is not None else None
            self._error(f"frame {frame.index}: {note}")
            if kind == "recalibrated" and cal is not None:
                for trouble in cal.trouble():
                    self._error(f"calibration: {trouble}")
        for reading in flagged:
            log.info("frame %d: doubtful reading %s", frame.index, reading.to_json())
        for obs in observations:
            self._publish_observation(observation_body(obs, self.layout))
        if self._show:
            self._display(frame.image)
        return True

    def _display(self, image: Any) -> None:
        try:
            import cv2

            shown = image
            cal = self.watcher.recognizer.calibration if self.watcher is not None else None
            if cal is not None and self.layout is not None:
                from vision.geometry import draw_layout

                shown = draw_layout(image, self.layout, cal)
            cv2.imshow(f"kiebitz {self.table}", shown)
            cv2.waitKey(1)
        except Exception:
            log.warning("cannot show frames here; going on headless", exc_info=True)
            self._show = False

    def _publish_observation(self, body: dict[str, Any], *, recorded: bool = False) -> None:
        try:
            if recorded and self._recorded_as is not None:
                assert isinstance(self.publisher, _KeptPublisher)
                self._recorded_lines += 1
                progress = (self._recorded_as, self._recorded_lines)
                self.publisher.send(
                    topic(self.table, OBSERVATION), "observation", body, progress=progress
                )
                with self._lock:
                    self._sent += 1
            else:
                self._send(topic(self.table, OBSERVATION), "observation", body)
        except PayloadError as exc:
            self._error(f"observation not sent: {exc}")
            return
        self._count("observations")
        self._hook("observation")

    # -- commands out -----------------------------------------------------------------

    def send_command(self, command: Mapping[str, Any]) -> Envelope:
        """Publish ``command`` (a command body) on ``table/command``; PayloadError if bad."""
        env = self._send(topic(self.table, COMMAND), "command", dict(command))
        self._count("commands")
        if command.get("command") == "new_game" and self.watcher is not None:
            # the pack may be another now: what the camera learnt of the old one goes
            self.watcher.new_game()
        return env

    def _send(
        self, topic_: str, kind: str, body: Mapping[str, Any], *, retain: bool = False
    ) -> Envelope:
        publisher = self.publisher if kind in ("observation", "command") else self._status_publisher
        env = publisher.send(topic_, kind, body, retain=retain)
        with self._lock:
            self._sent += 1
        return env

    def _command_from_panel(self, command: dict[str, Any]) -> None:
        self.send_command(command)

    # -- state in ---------------------------------------------------------------------

    def _foreign(self, topic_: str, env: Envelope) -> bool:
        """A message on this table's topic from another table's sender: refused, said."""
        if env.sender.partition("/")[0] == self.table:
            return False
        self._error(f"sender {env.sender} is not of table {self.table}", topic=topic_)
        return True

    def _on_state(self, topic_: str, env: Envelope) -> None:
        if self._foreign(topic_, env):
            return
        try:
            self._show_state(env.body)
        except Exception as exc:  # the last line of defence: a state never kills the service
            log.exception("showing the state from %s failed", env.sender)
            self._error(f"state: {type(exc).__name__}: {exc}", topic=topic_, sender=env.sender)

    def _show_state(self, state: Mapping[str, Any]) -> None:
        with self._lock:
            self._last_state = state
            self._counts["states"] += 1
            previous = self._last_board
        shown = board_state(state, tracks=self.tracks, game_hole=self.game_hole, previous=previous)
        with self._lock:
            self._last_board = shown
        if self.board is not None:
            try:
                self.board.set_state(shown)
            except ValueError as exc:  # StateError, ProtocolError: what the board cannot show
                self._error(f"board: {exc}", topic=topic(self.table, STATE))
            else:
                self._count("board_states")
                self._hook("board")
        if self.panel is not None:
            from controller.gpio.panel import status_for

            try:
                status = status_for(state)
            except ValueError as exc:
                self._error(f"panel: {exc}", topic=topic(self.table, STATE))
            else:
                self.panel.show(status)

    def _on_game_event(self, topic_: str, env: Envelope) -> None:
        """The referee's game events: a new game (``new_game`` read, from the panel, the
        web view or anywhere) or a new match may bring another pack to the table, so
        the camera forgets what it learnt of the old one (``TableWatcher.new_game``)."""
        if self.watcher is None or self._foreign(topic_, env):
            return
        body = env.body
        inner = body.get("event")
        new_game = isinstance(inner, dict) and inner.get("type") == "new_game"
        if body.get("type") == "new_match" or (body.get("type") == "event" and new_game):
            self.watcher.new_game()

    def _on_referee(self, topic_: str, env: Envelope) -> None:
        """The referee's retained status: while it is offline the panel says so."""
        if self._foreign(topic_, env) or self.panel is None:
            return
        if env.body.get("state") == "offline":
            self.panel.show("offline")
            return
        from controller.gpio.panel import status_for

        with self._lock:
            state = self._last_state
        try:
            self.panel.show(status_for(state) if state is not None else "ready")
        except ValueError as exc:
            self._error(f"panel: {exc}", topic=topic(self.table, STATE))

    # -- trouble ----------------------------------------------------------------------

    def _rejected(self, topic_: str, reason: str, sender: str | None) -> None:
        self._error(reason, topic=topic_, sender=sender)

    def _error(self, reason: str, **extra: Any) -> None:
        """Publish ``{"type": "error", "reason", "component", ...}`` on ``table/event``
        (a table writes no game topic: the broker's ACL, ``config/mosquitto``)."""
        self._count("errors")
        if "sender" in extra:  # a message the dispatcher rejected: say whose, and where
            log.warning(
                "%s: rejected a message on %s from %s: %s",
                self.table,
                extra.get("topic"),
                extra["sender"] or "?",
                reason,
            )
        else:
            log.warning("%s: %s", self.table, reason)
        body = {"type": "error", "reason": reason[:1000], "component": self.component, **extra}
        try:
            self._send(topic(self.table, TABLE_EVENT), "event", body)
        except Exception:
            log.exception("could not publish an error event")

    # -- health -----------------------------------------------------------------------

    def _count(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1

    def _hook(self, what: str) -> None:
        hook = self.latency_hook
        if hook is None:
            return
        try:
            hook(what, self.clock())
        except Exception:
            log.exception("the latency hook failed")

    def health(self) -> dict[str, Any]:
        """Counts, the last state seen, the board link's and the bus's health."""
        with self._lock:
            out: dict[str, Any] = dict(self._counts)
            out["last_state"] = self._last_state
            out["last_board_state"] = self._last_board
        out["table"] = self.table
        out["full_reads"] = self.watcher.full_reads if self.watcher is not None else 0
        out["region_reads"] = self.watcher.region_reads if self.watcher is not None else 0
        calibrated = self.watcher is not None and self.watcher.recognizer.calibration is not None
        out["calibrated"] = calibrated
        out["calibration_error_mm"] = self._calibrated_mm
        out["calibration_trouble"] = self._calibration_error
        # the camera found moved and the table calibrated afresh (docs/vision.md)
        out["recalibrations"] = self.watcher.recalibrations if self.watcher is not None else 0
        out["source"] = self._source_state
        out["board"] = self.board.health().summary() if self.board is not None else None
        out["panel"] = self.panel.health().status if self.panel is not None else None
        out["bus"] = asdict(self.bus.health())
        out["dispatch"] = asdict(self.dispatcher.stats())
        return out


# How often the outbox's file is looked for (a stat) as messages are sent, in seconds
KEEP_LOOK_S = 1.0


class _KeptPublisher(Publisher):
    """Keeps each message in the outbox before it is published; forgets it when the
    broker answers. A message the outbox cannot keep (a full card) is still sent,
    and the trouble reported: it is then only as safe as paho's memory."""

    def __init__(
        self, bus: Bus, stamper: Stamper, outbox: Outbox, on_trouble: Callable[[str], None]
    ) -> None:
        super().__init__(bus, stamper)
        self.outbox = outbox
        self.on_trouble = on_trouble
        self._order = threading.Lock()
        self._late: set[int] = set()  # rows acknowledged but not yet forgotten (a full card)
        # its own lock: _answered runs on paho's thread, which may hold paho's mutex that
        # a send holding _order waits for
        self._late_lock = threading.Lock()
        self._looked = -KEEP_LOOK_S  # when the outbox's file was last looked for
        self._watch = KeptFileWatch(outbox.keep_file, outbox.path, "the outbox", log, on_trouble)

    def keep_file(self, *, now: bool = False) -> None:
        """The outbox's file removed while in use (its folder cleaned by hand) is made
        again from the open copy (:meth:`Outbox.keep_file`), and said; looked for
        at most once a ``KEEP_LOOK_S`` (``now``: at once)."""
        t = time.monotonic()
        if not now and t - self._looked < KEEP_LOOK_S:
            return
        self._looked = t
        self._watch.look()

    def send(
        self,
        topic: str,
        kind: str,
        body: Mapping[str, Any],
        retain: bool = False,
        *,
        progress: tuple[str, int] | None = None,
    ) -> Envelope:
        if self._late:
            self.forget_late()
        self.keep_file()
        # stamped, kept and published as one step: a button's command (a gpiozero
        # thread) and an observation (the main loop) keep their order on disk too
        with self._order:
            env = self.stamper.stamp(kind, body)
            payload = encode(env)  # a bad body raises PayloadError before anything is kept
            try:
                row = self.outbox.put(
                    topic, payload, retain, self.stamper.sender, env.seq + 1, progress
                )
            except OutboxError as exc:
                self.on_trouble(f"{exc}: sent without keeping it")
                self.bus.publish(topic, payload, retain=retain, qos=1)
                return env
            self.bus.publish(
                topic, payload, retain=retain, qos=1, on_done=partial(self._answered, row)
            )
        return env

    def resend(self) -> int:
        """Publish every message still kept, oldest first; how many."""
        try:
            pending = self.outbox.pending()
        except OutboxError as exc:
            self.on_trouble(str(exc))
            return 0
        for item in pending:
            self.bus.publish(
                item.topic,
                item.payload,
                retain=item.retain,
                qos=1,
                on_done=partial(self._answered, item.row),
            )
        return len(pending)

    def _answered(self, row: int, accepted: bool) -> None:
        # Only what the broker accepted is forgotten. A refusal (an account or ACL
        # mistake, a broker out of quota) is reported by the bus and the message kept:
        # it is sent again at the next start, when the mistake may be mended.
        if not accepted:
            return
        try:
            self.outbox.done(row)
        except OutboxError as exc:
            log.warning("the outbox could not forget message %d yet: %s", row, exc)
            with self._late_lock:
                self._late.add(row)

    def forget_late(self) -> None:
        """Forget the rows the broker acknowledged while the card was full."""
        with self._late_lock:
            late, self._late = self._late, set()
        for row in sorted(late):
            try:
                self.outbox.done(row)
            except OutboxError:
                with self._late_lock:
                    self._late.add(row)
