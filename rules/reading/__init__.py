"""The referee's reading of the table: observations and commands into game events.

Pure code over the rules engine (standard library only), tested from recorded
observation lines without a broker; the referee service (``controller/referee``)
runs it for each table. See :mod:`rules.reading.table`.
"""

from rules.reading.inputs import Alert, Command, TableObservation, parse_input
from rules.reading.table import Applied, Contract, TableReading, TableSetup, Update

__all__ = [
    "Alert",
    "Applied",
    "Command",
    "Contract",
    "TableObservation",
    "TableReading",
    "TableSetup",
    "Update",
    "parse_input",
]
