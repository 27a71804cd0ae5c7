"""The recorder: every match a table plays, kept (``kiebitz recorder``, ``kiebitz records``).

* :mod:`~controller.recorder.store`: the database (SQLite or PostgreSQL, migrated);
* :mod:`~controller.recorder.service`: :class:`Recorder`, the referee's game events
  and states off the bus into the store;
* :mod:`~controller.recorder.replay`: a stored match through the engine again;
* :mod:`~controller.recorder.exports`: JSON, ISS records, the Skat score pad and the
  Seeger-Fabian list, the cribbage match log, CSV.
"""

from controller.recorder.store import MatchRecord, MatchRow, RecordsError, RecordStore

__all__ = ["MatchRecord", "MatchRow", "RecordStore", "RecordsError"]
