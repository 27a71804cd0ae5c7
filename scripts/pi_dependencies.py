"""Does every runtime dependency install on Raspberry Pi OS? Asks pip, by platform.

    .venv/bin/python scripts/pi_dependencies.py [--python 3.11 3.13] [--json]

For each Python of Raspberry Pi OS (Debian 12 "bookworm": Python 3.11, glibc 2.36;
Debian 13 "trixie": Python 3.13, glibc 2.41) and each requirement of
``pyproject.toml`` (``dependencies`` and the ``pi`` extra, markers dropped: they
are written for the Pi), pip resolves the requirement with its dependencies for
64-bit ARM, wheels only (``pip install --dry-run --only-binary=:all: --platform
…``): nothing is built or installed, only the package index's metadata is read.

A requirement with no aarch64 wheel is named with the Debian package that
provides it instead (``DEBIAN``), if there is one; ``picamera2`` is always
apt's (``python3-picamera2``, in a venv made with ``--system-site-packages``:
docs/install.md). Exit status 0 when every requirement has a wheel or a Debian
package, 1 otherwise. Needs the package index (the network).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Raspberry Pi OS releases: Python, glibc.
RELEASES = {"3.11": ("Debian 12 bookworm", (2, 36)), "3.13": ("Debian 13 trixie", (2, 41))}
#: Requirements Debian packages for the Pi when PyPI has no aarch64 wheel.
DEBIAN = {
    "rpi-gpio": "python3-rpi.gpio (or pip builds its sdist: gcc, python3-dev)",
    "lgpio": "python3-lgpio",
    "picamera2": "python3-picamera2",
    "opencv-python-headless": "python3-opencv",
    "numpy": "python3-numpy",
}


def requirements() -> list[str]:
    """The runtime requirements and the ``pi`` extra, markers dropped."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [*project["dependencies"], *project["optional-dependencies"]["pi"]]
    return [r.split(";")[0].strip() for r in reqs]


def platforms(glibc: tuple[int, int]) -> list[str]:
    """Every manylinux tag a system with this glibc takes, newest first."""
    major, minor = glibc
    tags = [f"manylinux_{major}_{m}_aarch64" for m in range(minor, 16, -1)]
    return [*tags, "manylinux2014_aarch64", "linux_aarch64"]


def name_of(requirement: str) -> str:
    return (
        re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0]
        .lower()
        .replace("_", "-")
        .replace(".", "-")
    )


def resolve(requirement: str, python: str) -> tuple[bool, list[tuple[str, str, str]], str]:
    """(resolved, [(name, version, wheel file)], pip's complaint) for one requirement."""
    _, glibc = RELEASES[python]
    abi = "cp" + python.replace(".", "")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [
            sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
            "--quiet", "--report", str(report), "--target", str(Path(tmp) / "t"),
            "--only-binary=:all:", "--python-version", python, "--implementation", "cp",
            "--abi", abi, "--abi", "abi3", "--abi", "none",
            *(a for tag in platforms(glibc) for a in ("--platform", tag)),
            requirement,
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            lines = [ln for ln in done.stderr.splitlines() if ln.startswith("ERROR")]
            return False, [], (lines[-1] if lines else done.stderr.strip()[-200:])
        items = json.loads(report.read_text())["install"]
        return True, [
            (i["metadata"]["name"], i["metadata"]["version"],
             i["download_info"]["url"].rsplit("/", 1)[-1])
            for i in items
        ], ""  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", nargs="+", default=list(RELEASES), choices=list(RELEASES))
    ap.add_argument("--json", action="store_true", help="one JSON object a requirement")
    args = ap.parse_args()
    status = 0
    for python in args.python:
        release, glibc = RELEASES[python]
        if not args.json:
            print(f"## {release}: Python {python}, glibc {glibc[0]}.{glibc[1]}, aarch64\n")
            print("| requirement | result | wheels (with its dependencies) |")
            print("|---|---|---|")
        for req in requirements():
            ok, wheels, why = resolve(req, python)
            debian = DEBIAN.get(name_of(req))
            if not ok and debian is None:
                status = 1
            if args.json:
                print(
                    json.dumps(
                        {
                            "python": python,
                            "requirement": req,
                            "wheel": ok,
                            "wheels": wheels,
                            "debian": debian,
                            "error": why,
                        }
                    )
                )
                continue
            if ok:
                files = ", ".join(f"{w}" for _, _, w in wheels)
                print(f"| `{req}` | wheel | {files} |")
            else:
                verdict = (
                    f"no wheel: apt `{debian}`" if debian else "**no wheel, no Debian package**"
                )
                print(f"| `{req}` | {verdict} | {why} |")
        if not args.json:
            print()
    return status


if __name__ == "__main__":
    sys.exit(main())
