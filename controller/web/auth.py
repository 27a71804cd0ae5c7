"""Operators of the web view: a file of names and Argon2 password hashes.

One operator a line, ``name:hash`` (the hash as argon2-cffi writes it, PHC form,
``$argon2id$…``); blank lines and ``#`` comments are skipped. ``kiebitz web passwd
FILE NAME`` adds or changes one (the password read from the terminal or standard
input), so no password is ever written in clear. Spectators need no account.

>>> users = Users({})
>>> users.set("anna", "pegging-at-121")
>>> users.verify("anna", "pegging-at-121"), users.verify("anna", "wrong"), users.verify("ben", "x")
(True, False, False)
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from vision.files import read_capped

__all__ = ["NAME", "Throttle", "Users", "UsersError", "new_token"]

_log = logging.getLogger("kiebitz.web")
NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
#: The largest operators' file read (a line an operator: some 100 bytes each).
MAX_USERS_BYTES = 1 << 20
_HASHER = PasswordHasher()
# verified against when the name is unknown, so an unknown name takes as long as a
# wrong password (no telling which names exist by the time an answer takes)
_DUMMY = _HASHER.hash(secrets.token_hex(16))


class UsersError(ValueError):
    """The operators' file cannot be read, or a line of it is not ``name:hash``."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


class Throttle:
    """Failed logins per client: after ``limit`` failures within ``window`` seconds the
    client waits out the window (guessing is slow, and each guess costs an Argon2
    hash: a flood of them would starve the pages).

    >>> t = Throttle(limit=2, window=60, clock=lambda: 0.0)
    >>> t.failed("1.2.3.4"); t.allowed("1.2.3.4")
    True
    >>> t.failed("1.2.3.4"); t.allowed("1.2.3.4"), t.allowed("5.6.7.8")
    (False, True)
    """

    def __init__(
        self, *, limit: int = 10, window: float = 300.0, clock: Callable[[], float] = time.time
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, list[float]] = {}

    def _recent(self, who: str) -> list[float]:
        now = self.clock()
        times = [t for t in self._failures.get(who, []) if now - t < self.window]
        if times:
            self._failures[who] = times
        else:
            self._failures.pop(who, None)
        return times

    def allowed(self, who: str) -> bool:
        return len(self._recent(who)) < self.limit

    def failed(self, who: str) -> None:
        self._failures.setdefault(who, []).append(self.clock())
        if len(self._failures) > 10_000:  # many clients: forget the oldest
            self._failures.pop(next(iter(self._failures)))


class Users:
    """The operators: name → Argon2 hash."""

    def __init__(self, hashes: Mapping[str, str], path: Path | None = None) -> None:
        self.hashes = dict(hashes)
        self.path = path
        self._seen = _stamp(path) if path is not None else None

    @classmethod
    def load(cls, path: str | Path) -> Users:
        """The operators in ``path``; none where it is not there yet (``web-passwd``
        makes it, and :meth:`known` and :meth:`verify` read it when it appears)."""
        p = Path(path)
        seen = _stamp(p)  # before the read: a change while it reads is read again
        users = cls(cls._read(p), p)
        users._seen = seen
        return users

    def refresh(self) -> None:
        """Read the file again where it changed since it was last read: an operator
        added, a password changed or an operator removed by ``web-passwd`` (or an
        editor) while the web view runs counts at once, with no restart. A file
        changed into one that does not read keeps the operators last read, and the
        problem is logged once."""
        if self.path is None:
            return
        stamp = _stamp(self.path)
        if stamp == self._seen:
            return
        self._seen = stamp
        try:
            self.hashes = self._read(self.path)
        except UsersError as exc:
            _log.warning("%s; the operators read before stand", exc)

    def known(self, name: str) -> bool:
        """Whether ``name`` is an operator now (the file read again where it changed)."""
        self.refresh()
        return name in self.hashes

    @staticmethod
    def _read(p: Path) -> dict[str, str]:
        try:
            # a device (/dev/zero) was read for ever, a named pipe waited for ever
            data = read_capped(p, MAX_USERS_BYTES + 1)
            if len(data) > MAX_USERS_BYTES:
                raise UsersError(
                    f"{p}: more than {MAX_USERS_BYTES:,} bytes: no operators' file, not read"
                )
            text = data.decode("utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise UsersError(f"{p}: cannot read the operators: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise UsersError(f"{p}: cannot read the operators: {exc}") from exc
        hashes: dict[str, str] = {}
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, hashed = line.partition(":")
            if not sep or not NAME.fullmatch(name) or not hashed.startswith("$argon2"):
                raise UsersError(f"{p}:{n}: expected name:$argon2id$… (an operator a line)")
            hashes[name] = hashed
        return hashes

    def set(self, name: str, password: str) -> None:
        if not NAME.fullmatch(name):
            shown = repr(name) if len(name) <= 40 else repr(name[:40])[:-1] + "…'"
            raise UsersError(f"operator name {shown}: 1 to 32 of A-Z a-z 0-9 _ . -")
        if len(password) < 8:
            raise UsersError("a password of at least 8 characters")
        self.hashes[name] = _HASHER.hash(password)

    def save(self) -> None:
        if self.path is None:
            raise UsersError("these operators have no file")
        lines = ["# Kiebitz web view operators: name:argon2 hash (kiebitz web passwd)"]
        lines += [f"{n}:{h}" for n, h in sorted(self.hashes.items())]
        if not self.path.parent.is_dir():  # the error named the temporary file
            raise UsersError(f"{self.path}: no folder {str(self.path.parent)!r}")
        tmp = self.path.with_suffix(self.path.suffix + ".new")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.chmod(0o600)
        tmp.replace(self.path)
        self._seen = _stamp(self.path)

    def verify(self, name: str, password: str) -> bool:
        self.refresh()
        hashed = self.hashes.get(name)
        try:
            return _HASHER.verify(hashed or _DUMMY, password) and hashed is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What tells a changed file: its inode (a file replaced, as :meth:`Users.save`
    replaces it), modification time, size, and change time (a ``chown`` or
    ``chmod`` that makes a file the view could not read readable); None where it
    is not there."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size, st.st_ctime_ns)
