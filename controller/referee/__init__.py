"""The referee service (``kiebitz referee``): table observations and commands in,
game events and the retained table state out, every input kept in a log."""

from controller.referee.service import Referee, setup_from_json, update_events
from controller.referee.store import InputLog, StoreError

__all__ = ["InputLog", "Referee", "StoreError", "setup_from_json", "update_events"]
