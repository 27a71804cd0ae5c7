"""The table service: camera → observations on MQTT, ``game/state`` → peg board and GPIO panel.

* :mod:`controller.table.observations` — tracker observations and ``kiebitz vision
  watch`` lines as observation bodies (pure);
* :mod:`controller.table.board_view` — the referee's retained state as a
  :class:`~controller.board.model.BoardState` (pure);
* :mod:`controller.table.service` — :class:`TableService`, given its bus, source,
  board link, panel and clock.

See ``docs/services.md``.
"""
