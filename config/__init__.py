"""Kiebitz's shipped configuration (``kiebitz_config``): table layouts (``tables/``),
board layouts (``boards/``), the demo's videos (``videos/``), broker and systemd
files. Data only: read with :func:`controller.resources.shipped`."""
