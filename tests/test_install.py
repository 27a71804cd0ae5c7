"""A non-editable install works outside the source tree (issue 12).

The wheel is built from this tree, installed into a fresh virtual environment, and
its commands are run from an empty folder: the firmware, the shipped configuration
(layouts, the demo's videos) and the card model must all come from the wheel. The
fresh environment borrows the test environment's third-party packages through a
``.pth`` line (installing NumPy and OpenCV again would only test the network);
Kiebitz itself, installed there in editable mode, is not visible to it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "cards" / "bidly" / "single"


def test_the_package_list_names_every_package_of_the_tree():
    # pyproject lists the packages by hand (mapped folders cannot be found): none missed
    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(REPO).parts)
        for top in ("analysis", "controller", "rules", "vision")
        for p in (REPO / top).rglob("__init__.py")
    }
    assert found <= listed
    assert {"pegboard", "pegboard_emu", "kiebitz_firmware", "kiebitz_config"} <= listed


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel of this tree installed; returns its bin folder."""
    root = tmp_path_factory.mktemp("install")
    wheels = root / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(REPO)],
        check=True, cwd=root, timeout=600,
    )  # fmt: skip
    (wheel,) = wheels.glob("kiebitz-*.whl")
    env = root / "venv"
    venv.create(env, with_pip=True)  # ensurepip: offline
    bin_dir = env / "bin"
    site = Path(
        subprocess.run(
            [str(bin_dir / "python"), "-c",
             "import sysconfig; print(sysconfig.get_path('purelib'))"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    (site / "borrowed.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--force-reinstall", str(wheel)],
        check=True, cwd=root, timeout=600,
    )  # fmt: skip
    return bin_dir


def run(
    bin_dir: Path, cwd: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "kiebitz"), *args],
        capture_output=True, text=True, cwd=cwd, timeout=timeout, check=False,
    )  # fmt: skip


@pytest.mark.slow
def test_the_wheel_runs_outside_the_source_tree(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run(
        [str(installed / "python"), "-c",
         "import controller, pegboard, vision, kiebitz_config; "
         "print(controller.__file__, pegboard.__file__, vision.__file__, kiebitz_config.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    ).stdout.split()  # fmt: skip
    for path in where:  # every one from the fresh environment, none from the tree
        assert str(installed.parent) in path and str(REPO) not in path, path

    done = run(installed, tmp_path, "board", "check")
    assert done.returncode == 0, done.stderr
    assert "two-player-121" in done.stdout

    done = run(
        installed, tmp_path, "board", "flash", "--dry-run", "--stage", str(tmp_path / "pico")
    )
    assert done.returncode == 0, done.stderr
    staged = {p.name for p in (tmp_path / "pico").rglob("*.py")}
    assert {"main.py", "board_config.py", "frame.py", "app.py"} <= staged

    done = run(installed, tmp_path, "board", "emulate", "--duration", "1", "--quiet")
    assert done.returncode == 0 and done.stdout.startswith("port: "), done.stderr

    photos = sorted(DATA.glob("*.jpg"))
    assert photos, f"{DATA} is missing: put ../shared beside the clone"
    photo = photos[0]
    done = run(installed, tmp_path, "vision", "identify", str(photo))
    assert done.returncode == 0, done.stderr
    assert photo.stem.upper() in done.stdout.upper()

    done = run(installed, tmp_path, "demo", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(tmp_path.iterdir())  # it ran here, in an empty folder …
    assert not (REPO / "tmp").exists()  # … and wrote nothing into the tree


def test_the_firmware_files_are_the_trees_own(installed: Path) -> None:
    # the host and the Pico run the same codec: the wheel's pegboard is the tree's
    site = next(installed.parent.glob("lib/python*/site-packages"))
    for path in (REPO / "firmware" / "pegboard").glob("*.py"):
        assert (site / "pegboard" / path.name).read_bytes() == path.read_bytes(), path.name
    assert (site / "kiebitz_firmware" / "main.py").is_file()
    ast.parse((site / "kiebitz_firmware" / "main.py").read_text())


def test_the_pi_dependency_check_asks_for_every_requirement_by_platform():
    # the script's own logic; its answer needs the package index (docs/install.md)
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "pi_deps", REPO / "scripts" / "pi_dependencies.py"
    )
    assert spec is not None and spec.loader is not None
    pi = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pi)
    reqs = pi.requirements()
    assert "numpy>=1.26" in reqs and "lgpio>=0.2" in reqs and "RPi.GPIO>=0.7" in reqs
    assert all(";" not in r for r in reqs)  # markers dropped: they are written for the Pi
    tags = pi.platforms((2, 36))
    assert tags[0] == "manylinux_2_36_aarch64" and "manylinux_2_17_aarch64" in tags
    assert "manylinux_2_37_aarch64" not in tags and tags[-1] == "linux_aarch64"
    assert pi.name_of("RPi.GPIO>=0.7") == "rpi-gpio" and "rpi-gpio" in pi.DEBIAN
    assert {pi.name_of(r) for r in reqs} >= {"numpy", "opencv-python-headless", "paho-mqtt"}
