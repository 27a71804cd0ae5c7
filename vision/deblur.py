"""Pictures smeared by motion: which way and how far, and the smear undone.

A phone that moves while it takes a picture (a shaking hand, a photo taken in
passing) draws every point as a short line: the picture is the sharp one
convolved with that line (a motion blur). The thin strokes of a rank fade first
and the index is no longer read: the real deals (indices about 40 px) smeared
7 px along the rows (:func:`vision.synth.smeared`) read 95 of 138 cards, at 30
degrees 84.

Which way: a smear softens edges across its direction only. Over the picture's
strongest edges, an edge's sharpness measured along one direction (the
directional derivative over the grey range round it, as :func:`vision.recognize.
sharpness` measures it along the gradient) falls by about the smear's length
along the smear and not at all across it. A picture whose softest direction is
under ``RATIO`` times its sharpest is smeared about the softest (the real
photographs as taken: 0.82 to 0.92 for the deals and single cards, down to 0.56
for a few pinochle photos, which are read unsmeared as well and keep the surer
reading; smeared 3 px: 0.65, 7 px: 0.35). A direction with no edge over the bar
at all (a long smear in dim light) is the softest. The direction is the mean of
the directions softer than halfway, weighed by how much softer: a long smear's
neighbouring directions are nearly as soft as its own.

How far (Yitzhaky and Kopeika's way): along the smear, the derivative of a
smeared edge is a box as long as the smear, so the derivative's autocorrelation
falls from 1 to below zero over about the smear's length and is least just after.
The length is where it is least, looked for soon after it first crosses zero
(within a third of the crossing's lag and three more: a long smear crosses well
before its length).

Undoing it: a Wiener filter with a line of that length and direction, noise to
signal ``NSR``; the picture is mirrored at its borders first, so that the
filter's wrap-around does not ring there. A length off by one costs either way
(the real deals smeared 7 px: 123 cards at 6, 132 at 7, 130 at 8; smeared 11 px
on a slant: 99, 104, 82), and the measure runs a pixel long on some slants (7 px
at 30 degrees measured 8), so the recogniser reads the picture unsmeared at the
length found and one less, and keeps the surer reading
(:meth:`vision.recognize.Recognizer.read_any_scale`).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

ANGLES = tuple(range(0, 180, 15))  # directions tried, degrees (x right, y down)
RATIO = 0.7  # softest direction's sharpness under this times the sharpest: smeared
MIN_LENGTH = 3  # px: shorter smears are left to sharpening
MAX_LENGTH = 25  # px: the longest smear looked for
NSR = 0.01  # the Wiener filter's noise-to-signal ratio
TOP = 0.995  # the strongest edges: above this percentile of a direction's derivative
SPAN = 1024  # the length is measured over at most this square at the picture's middle
SAMPLE_PIXELS = 400_000  # directions are judged on about this many pixels at most


def _gray(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)


def directional_sharpness(
    image: NDArray[np.uint8], angles: tuple[int, ...] = ANGLES
) -> NDArray[np.float64]:
    """For each direction (degrees), the median over the strongest edges of the
    derivative along it over the grey range in the 7 x 7 round each pixel: about 0.5
    for a step between two pixels, 0.5 / w for an edge spread over w pixels that
    way. Zeros where the picture has no edge to speak of."""
    gray = _gray(image)
    if min(gray.shape) < 8:
        return np.zeros(len(angles))
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3) * (1.0 / 8)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3) * (1.0 / 8)
    square = np.ones((7, 7), np.uint8)
    spread = cv2.subtract(cv2.dilate(gray, square), cv2.erode(gray, square))
    step = int(np.ceil(np.sqrt(gray.size / SAMPLE_PIXELS)))
    if step > 1:  # a sample of the pixels, every step-th each way, judges as well
        gx, gy, spread = gx[::step, ::step], gy[::step, ::step], spread[::step, ::step]
    room = np.maximum(spread, 1).astype(np.float32)
    out = np.zeros(len(angles))
    for i, angle in enumerate(angles):
        a = np.deg2rad(angle)
        g = np.abs(gx * np.float32(np.cos(a)) + gy * np.float32(np.sin(a))).ravel()
        at = int(TOP * (g.size - 1))
        bar = float(np.partition(g, at)[at])
        if bar < 4.0:
            continue
        top = g >= bar
        out[i] = float(np.median(g[top] / room.ravel()[top]))
    return out


def _autocorrelation(gray: NDArray[np.uint8], angle: float, lags: int) -> NDArray[np.float64]:
    """The autocorrelation of the grey picture's derivative along ``angle``, at lags
    1 to ``lags`` pixels along it: the middle ``SPAN`` square turned so that the
    direction runs along x, its borders (where the turn brought nothing) left out."""
    h, w = gray.shape
    side = min(h, w, SPAN)
    y0, x0 = (h - side) // 2, (w - side) // 2
    square = gray[y0 : y0 + side, x0 : x0 + side].astype(np.float32)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    turned = cv2.warpAffine(square, turn, (side, side), flags=cv2.INTER_LINEAR)
    m = int(np.ceil(side * 0.15))  # a square turned 45 degrees still fills the middle 70 %
    inner = turned[m : side - m, m : side - m]
    d = np.diff(inner, axis=1)
    d -= d.mean()
    power = float((d * d).mean())
    if power <= 0.0 or d.shape[1] <= 2 * lags:
        return np.zeros(lags)
    return np.array([float((d[:, :-k] * d[:, k:]).mean()) / power for k in range(1, lags + 1)])


def smear(image: NDArray[np.uint8]) -> tuple[float, int] | None:
    """The direction (degrees, x right and y down, 0 to 180) and the length in pixels
    of a picture's motion blur; None if its edges are as sharp every way (a sharp
    picture, or one out of focus, which is soft every way alike) or the smear is
    shorter than ``MIN_LENGTH`` or not measured within ``MAX_LENGTH``."""
    gray = _gray(image)
    sharp = directional_sharpness(gray)
    if sharp.max() <= 0.0:
        return None
    # a direction without an edge over the bar, where others have them, is the
    # softest of all (a long smear in dim light leaves none across it)
    i = int(np.argmin(sharp))
    if sharp[i] >= RATIO * sharp.max():
        return None
    # between the directions tried: the mean of the directions softer than halfway
    # between the softest and the sharpest, each weighed by how much softer (on
    # doubled angles: a direction and its opposite are one). A short smear's
    # softest direction stands alone; a long one's neighbours are nearly as soft,
    # and the least of them is a matter of noise.
    half = 0.5 * (sharp[i] + sharp.max())
    weight = np.clip(half - sharp, 0.0, None)
    doubled = np.deg2rad(2.0 * np.asarray(ANGLES, np.float64))
    mean = np.arctan2(
        float((weight * np.sin(doubled)).sum()), float((weight * np.cos(doubled)).sum())
    )
    angle = round(float(np.rad2deg(mean)) / 2, 6) % 180.0
    r = _autocorrelation(gray, angle, MAX_LENGTH + 3)
    below = np.flatnonzero(r <= 0.0)
    if below.size == 0:
        return None
    first = int(below[0])  # r's index k is the lag k + 1
    # the least soon after the crossing: a long smear crosses well before its length
    # (at 23 px about 18 px), a short one just before it; further on lie the
    # picture's own repeats (a small picture's, mostly)
    window = r[first : first + 3 + first // 3]
    length = first + 1 + int(np.argmin(window))
    if length < MIN_LENGTH or length > MAX_LENGTH:
        return None
    return float(angle), length


def line_kernel(angle: float, length: int) -> NDArray[np.float32]:
    """A motion blur's kernel: a line ``length`` pixels long through the middle of
    an odd square, at ``angle`` degrees (x right, y down), summing to 1."""
    side = length + 2 + (length % 2 == 0)
    kernel = np.zeros((side, side), np.float32)
    kernel[side // 2, (side - length) // 2 : (side - length) // 2 + length] = 1.0
    # turned about the middle, as the length was measured (cv2's angle turns the
    # other way round in x right, y down)
    turn = cv2.getRotationMatrix2D(((side - 1) / 2, (side - 1) / 2), -angle, 1.0)
    kernel = np.asarray(
        cv2.warpAffine(kernel, turn, (side, side), flags=cv2.INTER_LINEAR), np.float32
    )
    total = float(kernel.sum())
    return kernel / total if total > 0 else kernel


def unsmeared(image: NDArray[np.uint8], angle: float, length: int) -> NDArray[np.uint8]:
    """``image`` with a motion blur of ``length`` pixels at ``angle`` degrees undone
    (a Wiener filter, noise to signal ``NSR``; the picture mirrored at its borders
    first, to a size the Fourier transform takes quickly, each colour in turn in
    single precision)."""
    kernel = line_kernel(angle, length)
    k = kernel.shape[0]
    pad = 2 * k
    h, w = image.shape[:2]
    big_h = cv2.getOptimalDFTSize(h + 2 * pad)
    big_w = cv2.getOptimalDFTSize(w + 2 * pad)
    psf = np.zeros((big_h, big_w), np.float32)
    psf[:k, :k] = kernel
    psf = np.roll(psf, (-(k // 2), -(k // 2)), (0, 1))
    spectrum = cv2.dft(psf, flags=cv2.DFT_COMPLEX_OUTPUT)
    re, im = spectrum[..., 0], spectrum[..., 1]
    power = re * re + im * im + np.float32(NSR)
    wiener = np.dstack([re / power, -im / power])  # conj(H) / (|H|^2 + NSR)
    del spectrum, re, im, power, psf
    planes = [image] if image.ndim == 2 else [image[..., c] for c in range(image.shape[2])]
    out = np.empty(image.shape, np.uint8)
    for c, plane in enumerate(planes):
        src = cv2.copyMakeBorder(
            np.ascontiguousarray(plane),
            pad,
            big_h - h - pad,
            pad,
            big_w - w - pad,
            cv2.BORDER_REFLECT,
        ).astype(np.float32)
        sharp = cv2.idft(
            cv2.mulSpectrums(cv2.dft(src, flags=cv2.DFT_COMPLEX_OUTPUT), wiener, 0),
            flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT,
        )[pad : pad + h, pad : pad + w]
        done = np.clip(np.rint(sharp), 0, 255).astype(np.uint8)
        if image.ndim == 2:
            out[:] = done
        else:
            out[..., c] = done
    return out
