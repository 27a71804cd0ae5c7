# Two commands on a fresh machine:
#   make demo   - create .venv, install Kiebitz, run the main job on embedded defaults
#   make test   - create .venv with the dev extras, install the system packages the
#                 suite needs, run lint, type checks and the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Debian packages the test suite and the demo need: the fonts the synthetic card
# faces are drawn with (DejaVu for the bundled videos and the bench's sets; Liberation
# and FreeFont for training; the URW base 35 faces for the bench's set of fonts
# training never meets), and Mosquitto (tests and `kiebitz run` start a private
# broker on a free port; the system one on 1883 is never used), openssl (the broker
# security tests make a CA and a server certificate), PostgreSQL (the records'
# tests run a private server: initdb into a temporary folder, a free port; the
# system cluster is never used), Chromium (the web view's tests drive it headless with
# Playwright). Installed only when missing, `apt-get update` first.
APT_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-freefont-ttf \
	fonts-urw-base35 mosquitto openssl postgresql chromium

.PHONY: demo test lint typecheck unit bench system-deps bench-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

system-deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The vision bench's other packs (`bench/vision.py --only decks`): KDE's SVG card
# decks, and rsvg-convert to draw them; the bench alone needs them. Debian 12 calls
# the decks' package kdegames-card-data-kf5, Debian 13 kdegames-card-data.
bench-deps:
	@if [ ! -d /usr/share/carddecks ] || ! command -v rsvg-convert >/dev/null; then \
	  apt-get update -qq; \
	  decks=kdegames-card-data; apt-cache show $$decks >/dev/null 2>&1 || decks=kdegames-card-data-kf5; \
	  echo "installing Debian packages: $$decks librsvg2-bin"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$decks librsvg2-bin; \
	fi

demo: $(VENV)/.installed system-deps
	$(BIN)/kiebitz demo

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy --strict rules

unit: $(VENV)/.installed-dev system-deps
	$(BIN)/python -m pytest -n 2

test: lint typecheck unit

bench: $(VENV)/.installed system-deps bench-deps
	$(BIN)/python bench/cribbage.py
	$(BIN)/python bench/tricks.py
	$(BIN)/python bench/board.py
	$(BIN)/python bench/vision.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
