"""The one exception tree of the vision package.

Every leaf also inherits the fitting builtin: a frame source that cannot be
opened is an ``OSError``, a broken table layout or model file a ``ValueError``.
Messages name the device, file or key path that was wrong.
"""

from __future__ import annotations


class VisionError(Exception):
    """Base class of everything the vision package raises."""


class SourceError(VisionError, OSError):
    """A camera, video file or image folder that cannot be opened or read."""


class LayoutError(VisionError, ValueError):
    """A table layout file that is missing, unreadable or wrong (file and key path named)."""


class CalibrationError(VisionError, ValueError):
    """The table markers were not found, or do not give a usable homography."""


class ModelError(VisionError, ValueError):
    """A missing or corrupt recognition model file."""
