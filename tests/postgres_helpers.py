"""A private PostgreSQL server for the tests: Debian's ``postgresql`` binaries,
``initdb`` into a temporary folder, a free port on 127.0.0.1, never the system's
cluster. As root (CI) the server runs as the ``postgres`` account, which the Debian
package makes, because PostgreSQL refuses to run as root.

A missing PostgreSQL fails the test that needs it (``make test`` installs it).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from controller.bus.broker import free_port


def find_pg_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(versions[0]).parent if versions else None


class Postgres:
    """One server; :meth:`database` makes a fresh database and returns its URL."""

    def __init__(self) -> None:
        bin_dir = find_pg_bin()
        if bin_dir is None:
            pytest.fail("PostgreSQL is not installed (make test installs Debian's postgresql)")
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="kiebitz-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.user = "kiebitz"
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail("running as root needs the postgres account (Debian's postgresql)")
            shutil.chown(self.dir, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8")
        self.start()
        self._admin_url = f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self._as, str(self.bin / tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=self.dir)
        if done.returncode != 0:
            pytest.fail(f"{tool} failed ({done.returncode}): {done.stderr.strip()[-500:]}")

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-o", opts, "-w", "start"
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self._admin_url, autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{name}"

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
