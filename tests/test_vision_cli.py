"""The vision command line: calibrate, and the error paths of identify, eval and watch."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.geometry import render_marker_sheet
from vision.layout import LAYOUT_DIR, load_layout

TABLE = str(LAYOUT_DIR / "cribbage-2.toml")


@pytest.fixture
def table_photo(tmp_path):
    """The cribbage table's marker sheet seen from a slightly tilted camera."""
    sheet = cv2.cvtColor(render_marker_sheet(load_layout(TABLE), 1.2), cv2.COLOR_GRAY2BGR)
    h, w = sheet.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[250, 40], [1030, 60], [1150, 690], [120, 670]])
    frame = cv2.warpPerspective(
        sheet, cv2.getPerspectiveTransform(src, dst), (1280, 720), borderValue=(70, 90, 110)
    )
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), frame)
    return path


def test_calibrate_finds_the_markers_and_draws_the_zones(table_photo, tmp_path, capsys):
    out = tmp_path / "zones.png"
    assert main(["calibrate", str(table_photo), "--table", TABLE, str(out)]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["markers"] == [0, 1, 2, 3] and 0.0 < report["error_mm"] < 2.0
    assert set(report["marker_errors_mm"]) == {"0", "1", "2", "3"}
    assert report["left_out"] == [] and report["warnings"] == [] and captured.err == ""
    drawn = cv2.imread(str(out))
    assert drawn.shape == (720, 1280, 3)
    assert (drawn != cv2.imread(str(table_photo))).any()


def test_calibrate_names_a_marker_turned_the_wrong_way(tmp_path, capsys):
    layout = load_layout(TABLE)
    sheet = cv2.cvtColor(render_marker_sheet(layout, 1.2), cv2.COLOR_GRAY2BGR)
    side = round(layout.marker_size_mm * 1.2)
    x, y = layout.markers[3]
    c0, r0 = round(x * 1.2 - side / 2), round((layout.depth_mm - y) * 1.2 - side / 2)
    sheet[r0 : r0 + side, c0 : c0 + side] = np.rot90(sheet[r0 : r0 + side, c0 : c0 + side]).copy()
    photo = tmp_path / "turned.png"
    cv2.imwrite(str(photo), sheet)
    assert main(["calibrate", str(photo), "--table", TABLE, str(tmp_path / "z.png")]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["left_out"] == [3] and report["error_mm"] > 30
    (warning,) = report["warnings"]
    assert warning.startswith("marker 3 is ") and warning in captured.err


def test_calibrate_without_markers_exits_2_naming_them(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    assert main(["calibrate", str(blank), "--table", TABLE, str(tmp_path / "o.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing ids 0, 1, 2, 3" in err[0]


def test_calibrate_with_a_broken_layout_names_file_and_key(table_photo, tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(TABLE).read_text().replace("players = 2", "players = 12"))
    assert main(["calibrate", str(table_photo), "--table", str(bad), str(tmp_path / "o.png")]) == 2
    err = capsys.readouterr().err
    assert "bad.toml: table.players" in err


def test_identify_says_aside_when_it_found_no_card(tmp_path, capsys):
    blank = tmp_path / "cloth.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), (40, 110, 60), np.uint8))
    assert main(["vision", "identify", str(blank)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == f"no card found in {blank}"
    assert main(["vision", "identify", "--json", str(blank)]) == 0
    out, err = capsys.readouterr()
    assert '"cards": []' in out and err == ""
    # the same cloth in a dark room: read brightened, and still nothing on it
    dark = tmp_path / "night.png"
    noise = np.random.default_rng(3).integers(0, 4, (480, 640, 3))
    cv2.imwrite(str(dark), (np.array([10, 28, 15]) + noise).astype(np.uint8))
    assert main(["vision", "identify", "--json", str(dark)]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["brightened"] > 3.0 and said["cards"] == []


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_picture_cut_short_is_an_error_not_a_partial_reading(tmp_path, capsys, suffix):
    from vision.synth import make_scene

    whole = tmp_path / f"table{suffix}"
    cv2.imwrite(str(whole), make_scene(np.random.default_rng(5), size=(640, 480)).image)
    data = whole.read_bytes()
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes(data[: int(len(data) * 0.7)])
    assert main(["vision", "identify", str(whole)]) == 0
    capsys.readouterr()
    assert main(["vision", "identify", str(cut)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    kind = {".jpg": "JPEG", ".png": "PNG"}[suffix]
    assert f"cannot read image {cut}: the {kind} is cut short" in err
    # the folder source reports it and goes on with the next picture
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "0.png").write_bytes(
        (tmp_path / "table.png").read_bytes() if suffix == ".png" else data
    )
    (folder / f"1{suffix}").write_bytes(cut.read_bytes())
    (folder / f"2{suffix}").write_bytes(data)
    assert main(["vision", "watch", str(folder)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    errors = [line["error"] for line in lines if "error" in line]
    assert len(errors) == 1 and "cut short" in errors[0] and f"1{suffix}" in errors[0]
    # the picture alone is the whole input: status 2, as identify says it (it was said
    # on stdout with status 0, as if read)
    assert main(["vision", "watch", str(cut)]) == 2
    out, err = capsys.readouterr()
    assert "cut short" in json.loads(out)["error"]
    assert err.startswith("kiebitz: error: ") and len(err.strip().splitlines()) == 1
    # and a folder none of whose pictures reads
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("0", "1"):
        (bad / f"{name}{suffix}").write_bytes(cut.read_bytes())
    assert main(["vision", "watch", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2
    assert err.strip() == f"kiebitz: error: none of the 2 pictures in {bad} could be read"


def test_a_jpeg_damaged_inside_is_named_damaged_in_one_line(tmp_path, capfd):
    # a stretch of zeros inside the scan (a failing card) and a stretch lost (a bad
    # copy): OpenCV printed "Corrupt JPEG data" on the console, decoded the rest as
    # garbage and the reading went on with status 0 (a real deal photo: 11 cards,
    # 2 of them false)
    from vision.synth import make_scene

    whole = tmp_path / "table.jpg"
    cv2.imwrite(str(whole), make_scene(np.random.default_rng(5), size=(640, 480)).image)
    data = whole.read_bytes()
    n = len(data)
    zeroed = bytearray(data)
    zeroed[n // 2 : n // 2 + 400] = bytes(400)
    for name, damaged in (
        ("zeroed", bytes(zeroed)),
        ("lost", data[: n // 2] + data[n // 2 + 300 :]),
    ):
        path = tmp_path / f"{name}.jpg"
        path.write_bytes(damaged)
        assert main(["vision", "identify", str(path)]) == 2
        out, err = capfd.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1, err
        assert f"cannot read image {path}: the JPEG is damaged: corrupt JPEG data" in err
    # a writer's few bytes of padding before the end marker leave it whole
    padded = tmp_path / "padded.jpg"
    padded.write_bytes(data[:-2] + b"\x00\x00" + data[-2:])
    assert main(["vision", "identify", "--json", str(padded)]) == 0
    got = capfd.readouterr().out
    assert main(["vision", "identify", "--json", str(whole)]) == 0
    assert json.loads(got)["cards"] == json.loads(capfd.readouterr().out)["cards"] != []


def test_a_picture_opencv_cannot_decode_is_one_line_without_its_warning(tmp_path, capfd):
    # a TIFF of 32-bit float samples: OpenCV printed "[ WARN:0@0.008] global
    # grfmt_tiff.cpp:811 ... can not handle images with 32-bit samples" above ours
    tiff = tmp_path / "f32.tiff"
    cv2.imwrite(str(tiff), np.random.default_rng(1).random((40, 60, 3)).astype(np.float32))
    assert main(["vision", "identify", str(tiff)]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err == f"kiebitz: error: cannot read image {tiff}: not a readable image\n"


def test_a_png_with_a_damaged_byte_is_named_damaged_in_one_line(tmp_path, capfd):
    # a byte flipped in the compressed pixels: libpng printed "bad adaptive filter
    # value" on the console beside our own line; the chunk's checksum says it first
    from vision.synth import make_scene

    whole = tmp_path / "table.png"
    cv2.imwrite(str(whole), make_scene(np.random.default_rng(5), size=(640, 480)).image)
    data = bytearray(whole.read_bytes())
    data[len(data) // 3] ^= 0xFF  # inside an IDAT chunk (the first starts at byte 33)
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(bytes(data))
    assert main(["vision", "identify", str(damaged)]) == 2
    out, err = capfd.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert f"cannot read image {damaged}: the PNG is damaged: its IDAT chunk at byte" in err
    assert err.strip().endswith("fails its checksum")
    # a chunk whose length runs past the file's end (its IEND kept at the end)
    data = bytearray(whole.read_bytes())
    data[33:37] = (len(data) * 2).to_bytes(4, "big")
    damaged.write_bytes(bytes(data))
    assert main(["vision", "identify", str(damaged)]) == 2
    err = capfd.readouterr().err
    assert "its IDAT chunk at byte 33 runs past the file's end" in err
    # the whole picture still reads
    assert main(["vision", "identify", str(whole)]) == 0
    # an ancillary chunk (a tEXt comment) with a wrong checksum: libpng warns and
    # decodes the picture, and so does the reader
    data = whole.read_bytes()
    comment = b"tEXtComment\x00x"
    bad = len(comment[4:]).to_bytes(4, "big") + comment + b"\x00\x00\x00\x00"
    commented = tmp_path / "commented.png"
    commented.write_bytes(data[:33] + bad + data[33:])  # after the IHDR (8 + 25 bytes)
    assert main(["vision", "identify", str(commented)]) == 0


def test_a_phones_heic_picture_is_named_for_what_it_is(tmp_path, capfd):
    # an iPhone's default format: OpenCV does not decode HEIF, and "not a readable
    # image" left the member guessing; the file's ftyp box says what it is
    heic = tmp_path / "IMG_0001.HEIC"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64))
    assert main(["vision", "identify", str(heic)]) == 2
    out, err = capfd.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert f"cannot read image {heic}: it is a picture in the HEIC format" in err
    assert "save or export it as JPEG or PNG" in err
    # a brand found among the compatible ones
    heif = tmp_path / "still.heif"
    heif.write_bytes(b"\x00\x00\x00\x14ftypXXXX\x00\x00\x00\x00mif1" + bytes(64))
    assert main(["vision", "identify", str(heif)]) == 2
    assert "in the HEIF format" in capfd.readouterr().err
    # another file that is no picture at all is still just that
    other = tmp_path / "notes.jpg"
    other.write_bytes(b"\x00\x00\x00\x18ftypisom" + bytes(64))
    assert main(["vision", "identify", str(other)]) == 2
    assert "not a readable image" in capfd.readouterr().err


def _bomb_png(side: int) -> bytes:
    """A whole, valid PNG of ``side`` x ``side`` black grey pixels, compressed row by
    row (a few hundred kilobytes on disc)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    packer = zlib.compressobj(9)
    row = bytes(side + 1)  # filter byte 0 and the row
    body = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def test_a_picture_too_large_to_decode_is_refused_before_decoding(tmp_path, capsys):
    """A 16,000 x 16,000 PNG of blank pixels is 256 megapixels and some 250 kB on
    disc: decoded, 768 MB (a 30,000-pixel one took 8.9 GB and 45 s, and read "no
    card"). Its header's size is refused before decoding: status 2, one line."""
    import struct

    from vision.images import MAX_DECODE_PIXELS, _size

    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_bomb_png(16_000))
    assert bomb.stat().st_size < 1_000_000 and MAX_DECODE_PIXELS < 16_000**2
    assert main(["vision", "identify", str(bomb)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert f"cannot read image {bomb}: it is 16,000 x 16,000 pixels, more than 250" in err
    # the sizes the headers give, for the three formats read so
    for ext in (".png", ".jpg", ".bmp"):
        ok, buf = cv2.imencode(ext, np.zeros((37, 53, 3), np.uint8))
        assert ok and _size(buf.tobytes()) == (53, 37), ext
    # an OS/2 BMP's core header gives its size in 16 bits
    core = b"BM" + struct.pack("<IHHI", 26 + 40 * 30 * 3, 0, 0, 26)
    assert _size(core + struct.pack("<IHHHH", 12, 40, 30, 1, 24)) == (40, 30)


def test_a_phones_jpeg_with_more_after_its_picture_is_read_whole(tmp_path, capfd):
    """A Pixel's motion photo carries its video after the picture's end marker, a
    Samsung's photo a trailer (``SEFH`` … ``SEFT``): both were "cut short (no end
    marker)", status 2. The picture's own end marker is found; what follows is not
    read. A picture cut short before its end is still cut short with a video after."""
    import struct

    from vision.synth import make_scene

    whole = tmp_path / "table.jpg"
    cv2.imwrite(str(whole), make_scene(np.random.default_rng(5), size=(640, 480)).image)
    data = whole.read_bytes()
    assert main(["vision", "identify", "--json", str(whole)]) == 0
    cards = json.loads(capfd.readouterr().out)["cards"]
    assert cards != []
    video = struct.pack(">I", 24) + b"ftypmp42\x00\x00\x00\x00isommp42" + bytes(range(256)) * 8
    trailer = b"\x00\x00Image_UTC_Data1700000000000SEFH" + bytes(40) + b"\x3c\x00\x00\x00SEFT"
    for name, after in (("PXL_0001.MP.jpg", video), ("20261204_120000.jpg", trailer)):
        phone = tmp_path / name
        phone.write_bytes(data + after)
        assert main(["vision", "identify", "--json", str(phone)]) == 0, name
        out, err = capfd.readouterr()
        assert json.loads(out)["cards"] == cards and err == "", name
    cut = tmp_path / "cut.MP.jpg"
    cut.write_bytes(data[: len(data) // 2] + video)
    assert main(["vision", "identify", str(cut)]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err.strip() == (
        f"kiebitz: error: cannot read image {cut}: the JPEG is cut short (no end marker): "
        f"{len(cut.read_bytes()):,} bytes"
    )


def _tiff(width: int, height: int, order: str = "<") -> bytes:
    """A classic TIFF's header and first directory saying ``width`` x ``height``
    (ImageWidth as SHORT, ImageLength as LONG), and nothing more."""
    import struct

    start = b"II*\x00" if order == "<" else b"MM\x00*"
    entries = [(256, 3, 1, width << 16 if order == ">" else width), (257, 4, 1, height)]
    body = struct.pack(order + "H", len(entries))
    body += b"".join(struct.pack(order + "HHII", *entry) for entry in entries)
    return start + struct.pack(order + "I", 8) + body + bytes(4)


def test_a_tiff_webp_or_gif_too_large_to_decode_is_refused_before_decoding(tmp_path, capfd):
    """A 30,000 x 30,000 TIFF of one blank page, 64 kB on disc (group 4): OpenCV
    decoded it in 40 s and 5.3 GB to read "no card" with status 0; only a PNG's,
    a JPEG's and a BMP's header were looked at. Now TIFF, WebP and GIF too."""
    from PIL import Image

    from vision.images import _size

    bomb = tmp_path / "scan.tiff"  # 256 megapixels in 16 kB
    Image.new("1", (16_000, 16_000), 1).save(bomb, compression="group4")
    assert main(["vision", "identify", str(bomb)]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err.strip() == (
        f"kiebitz: error: cannot read image {bomb}: it is 16,000 x 16,000 pixels, "
        "more than 250 megapixels"
    )
    assert _size(_tiff(30_000, 30_000)) == (30_000, 30_000)
    assert _size(_tiff(53, 37, ">")) == (53, 37)  # a big-endian one, SHORT left-justified
    # the sizes the headers give, as OpenCV and Pillow write them
    picture = np.random.default_rng(2).integers(0, 255, (37, 53, 3)).astype(np.uint8)
    for ext in (".tiff", ".webp", ".gif"):
        ok, buf = cv2.imencode(ext, picture)
        assert ok and _size(buf.tobytes()) == (53, 37), ext
    pil = Image.fromarray(picture)
    for form, options in (
        ("WEBP", {"lossless": True}),  # VP8L
        ("WEBP", {"exif": Image.Exif()}),  # VP8X
        ("TIFF", {"big_tiff": True}),
        ("GIF", {}),
    ):
        written = tmp_path / f"p.{form.lower()}"
        pil.save(written, format=form, **options)
        assert _size(written.read_bytes()) == (53, 37), (form, options)
    # a WebP at its format's largest, 16,383 x 16,383, is 268 megapixels (a lossless
    # one's header: 14 bits of each side less one)
    bits = (16_382 | 16_382 << 14).to_bytes(4, "little")
    body = b"VP8L" + (5 + 64).to_bytes(4, "little") + b"\x2f" + bits + bytes(64)
    big = tmp_path / "big.webp"
    big.write_bytes(b"RIFF" + (4 + len(body)).to_bytes(4, "little") + b"WEBP" + body)
    assert main(["vision", "identify", str(big)]) == 2
    assert "it is 16,383 x 16,383 pixels" in capfd.readouterr().err


def test_a_webp_tiff_or_gif_cut_short_is_one_line(tmp_path, capfd):
    """A WebP cut short was "not a readable image"; its RIFF header says how long it
    is. A TIFF or GIF cut short printed OpenCV's log (``[ERROR:0@0.016] global
    grfmt_tiff.cpp:117 TIFF_Error TIFFFillStrip: Read error …``) above our line."""
    from vision.synth import make_scene

    image = make_scene(np.random.default_rng(5), size=(640, 480)).image
    for ext in (".webp", ".tiff", ".gif"):
        ok, buf = cv2.imencode(ext, image)
        assert ok, ext
        data = buf.tobytes()
        cut = tmp_path / f"cut{ext}"
        cut.write_bytes(data[: len(data) * 2 // 3])
        assert main(["vision", "identify", str(cut)]) == 2
        out, err = capfd.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1, (ext, err)
        if ext == ".webp":
            assert f"the WebP is cut short: {len(data) * 2 // 3:,} of {len(data):,} bytes" in err
        else:
            assert err.strip() == f"kiebitz: error: cannot read image {cut}: not a readable image"


def test_a_picture_piped_in_on_stdin_is_read(tmp_path, monkeypatch, capfd):
    """``-`` was a file name: "cannot read image -: no such file". It is standard
    input, as for the other commands that read a file; a terminal there is refused
    rather than waited on."""
    import io

    from vision.synth import make_scene

    whole = tmp_path / "table.jpg"
    cv2.imwrite(str(whole), make_scene(np.random.default_rng(5), size=(640, 480)).image)
    data = whole.read_bytes()
    assert main(["vision", "identify", "--json", str(whole)]) == 0
    cards = json.loads(capfd.readouterr().out)["cards"]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["vision", "identify", "--json", "-"]) == 0
    said = json.loads(capfd.readouterr().out)
    assert said["image"] == "-" and said["cards"] == cards != []
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data[: len(data) // 2])))
    assert main(["vision", "identify", "-"]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err.startswith(
        "kiebitz: error: cannot read image from standard input: the JPEG is cut short"
    )
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["vision", "identify", "-"]) == 2
    assert capfd.readouterr().err.strip().endswith("from standard input: it is empty")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal())
    assert main(["vision", "identify", "-"]) == 2
    assert "standard input: it is a terminal" in capfd.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["vision", "identify", "/no/such.png"], "cannot read image /no/such.png: no such file"),
        (
            ["vision", "identify", "{png}", "--model", "/no/model.onnx"],
            "model file not found: /no/model.onnx",
        ),
        (["vision", "annotate", "{text}", "{here}/o.png"], "not a readable image"),
        (["vision", "annotate", "{png}", "{here}/o.xyz"], "the picture is PNG or JPEG"),
        (["vision", "annotate", "{png}", "{here}/no/o.png"], "no folder"),
        (["vision", "eval", "{here}", "--model", "/no/model.onnx"], "model file not found"),
        (
            ["vision", "identify", "{png}", "--model", "{here}"],
            "model file {here} is a folder, not an ONNX file",  # was "not found"
        ),
        (
            ["vision", "watch", "/no/such/video.mp4", "--model", "/no/model.onnx"],
            "model file not found",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, argv, message):
    text = tmp_path / "notes.txt"
    text.write_text("not a picture")
    png = tmp_path / "grey.png"
    cv2.imwrite(str(png), np.full((40, 60, 3), 128, np.uint8))
    names = {"{here}": tmp_path, "{text}": text, "{png}": png}
    for key, value in names.items():
        argv = [a.replace(key, str(value)) for a in argv]
        message = message.replace(key, str(value))
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (b"file,cards\nx.png,ZZ 10H\n", "labels.csv: line 2: 'ZZ' is not a card"),
        (b"file,cards\nx\xe9.png,10H\n", "labels.csv is not UTF-8 text (line 2, byte 12)"),
        (
            b"file,cards\n" + b"x.png,10H\n" * 3001 + b"\xe9.png,10H\n",  # past a read's chunk
            "labels.csv is not UTF-8 text (line 3003, byte 30021)",
        ),
        (b"file,cards\nx.png,10H,QS\n", "labels.csv: line 2: more cells than columns"),
        (b"", "labels.csv is empty: it needs the columns file and cards"),
        (
            b"file;cards\nx.png;10H\n",  # a spreadsheet set to part cells by semicolons
            "needs the columns file and cards, parted by commas (its header: 'file;cards')",
        ),
        (b"file,cards,cards\nx.png,10H,\n", "labels.csv: the column 'cards' is named twice"),
        (b"file,cards\nx.png\n", "labels.csv: line 2: no cards cell"),
        (b"file,cards\n,10H\n", "labels.csv: line 2: no file name"),
        (b"file,labels\nx.png,10H\n", "labels.csv: needs the columns file and cards"),
        # a NUL in a name was a traceback (open() refuses it); a quote left open took
        # every row after it for one file's cards, without a word
        (b"file,cards\n\x00x.png,10H\n", "labels.csv: line 2: the file name has a NUL byte"),
        (
            b'file,cards\nx.png,10H\ny.png,"10H\nz.png,QS\n',
            "labels.csv is not readable CSV (line 3): unexpected end of data",
        ),
        (
            b"file,cards\n" + b"".join(b"x%d.png,1S\n" % i for i in range(7)),
            "line 6: '1S' is not a card (as 10H, TH, Q\u2660; a rank alone: A?); and 2 more",
        ),
    ],
)
def test_faulty_labels_are_named_by_line_before_any_image_is_read(
    tmp_path, capsys, labels, message
):
    # a typo in a label would count as a card missed, and a label file in another
    # encoding or cut short was a traceback
    (tmp_path / "labels.csv").write_bytes(labels)
    cv2.imwrite(str(tmp_path / "x.png"), np.full((40, 60, 3), 128, np.uint8))
    assert main(["vision", "eval", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def test_eval_with_an_image_it_cannot_read_or_none_at_all_is_not_a_whole_answer(tmp_path, capsys):
    # the totals left an unreadable image out and said status 0; a file labelled
    # twice counted twice; a label file naming no image (or a subset matching none)
    # gave "total: 0 images" and status 0
    cv2.imwrite(str(tmp_path / "x.png"), np.full((40, 60, 3), 128, np.uint8))
    labels = tmp_path / "labels.csv"
    labels.write_text("file,cards\nx.png,2H\nmissing.png,3H\n")
    assert main(["vision", "eval", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].startswith("total: 1 images")
    assert "cannot read image" in err and "missing.png: no such file" in err
    assert err.strip().splitlines()[-1] == (
        "kiebitz: error: 1 labelled image(s) could not be read; the totals leave them out"
    )
    labels.write_text("file,cards\nx.png,2H\nx.png,2H\n")
    assert main(["vision", "eval", str(tmp_path)]) == 2
    assert "line 3: 'x.png' is labelled again (first on line 2)" in capsys.readouterr().err
    labels.write_text("file,cards\n")
    assert main(["vision", "eval", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{labels}: no labelled image to read" in err
    labels.write_text("file,cards\nx.png,2H\n")
    assert main(["vision", "eval", str(tmp_path), "--subset", "zzz"]) == 2
    assert "no labelled image under 'zzz' to read" in capsys.readouterr().err
    assert main(["vision", "eval", str(tmp_path)]) == 0
    # nothing read in a grey picture: its precision 1.000, and the totals' the same
    # (they said 0/0 = 0.0000)
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "x.png: recall 0/1 = 0.000, precision 1.000; missed 2H",
        "total: 1 images, recall 0/1 = 0.0000, precision 0/0 = 1.0000",
    ]


def test_labels_in_any_card_notation_are_read_in_the_recognisers(tmp_path):
    from vision.evaluate import read_labels

    (tmp_path / "labels.csv").write_text("file,cards\na.png,TH q\u2660 10c t? a?\nb.png,\n")
    want = [("a.png", ["10H", "QS", "10C", "10?", "A?"]), ("b.png", [])]
    assert read_labels(tmp_path) == want
    # a spreadsheet's UTF-8 starts with a byte-order mark: the header is still "file"
    (tmp_path / "labels.csv").write_bytes(b"\xef\xbb\xbffile,cards\n a.png ,qs\n")
    assert read_labels(tmp_path) == [("a.png", ["QS"])]


@pytest.mark.parametrize("command", ["watch", "demo"])
def test_ctrl_c_keeps_what_was_printed_and_says_one_line(command):
    import signal
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parent.parent
    video = root / "config" / "videos" / "skat-revoke.mp4"
    assert video.is_file(), f"{video} missing: run python -m controller.scenarios render"
    table = str(root / "config" / "tables" / "skat-3.toml")
    args = ["vision", "watch", str(video), "--table", table] if command == "watch" else ["demo"]
    child = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    first = child.stdout.readline()  # the first line: it is at work
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    rest, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err.strip() == "kiebitz: interrupted"
    if command == "watch":  # every line printed is whole
        assert json.loads(first)["status"] == "calibrated"
        assert all(json.loads(line) for line in rest.splitlines() if line.strip())
    else:  # the demo stops; it does not go on to the next video or judge a half-played one
        assert first.startswith("Kiebitz demo:") and "Checked against" not in rest


def test_a_video_cut_short_plays_to_the_cut_and_then_is_an_error(tmp_path, capsys):
    """An AVI (its frame count in the header, its index at the end) cut in half:
    OpenCV plays the frames before the cut and stops as if the video had ended.
    The source says it ends short of its header's count, once, then reads as
    ended; `watch` prints the error and stops with status 2."""
    from vision.errors import SourceError
    from vision.sources import VideoFileSource

    whole = tmp_path / "play.avi"
    writer = cv2.VideoWriter(str(whole), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for i in range(30):
        frame = np.full((240, 320, 3), 60, np.uint8)
        cv2.putText(frame, str(i), (100, 120), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
        writer.write(frame)
    writer.release()
    cut = tmp_path / "cut.avi"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 2])

    source = VideoFileSource(whole)
    source.open()
    assert sum(1 for _ in iter(source.read, None)) == 30  # whole: ends without a word
    source = VideoFileSource(cut)
    source.open()
    played = 0
    with pytest.raises(SourceError, match=r"ends at frame \d+ of the 30 its header gives"):
        while source.read() is not None:
            played += 1
    assert 5 < played < 30
    assert source.read() is None  # said once, then ended
    source.close()

    assert main(["vision", "watch", str(whole)]) == 0
    capsys.readouterr()
    assert main(["vision", "watch", str(cut)]) == 2
    out, err = capsys.readouterr()
    assert "cut short" in err and len(err.strip().splitlines()) == 1
    assert json.loads(out.splitlines()[-1])["error"].endswith("cut short")


def test_a_device_or_a_stream_without_end_is_refused_after_a_bound(tmp_path, monkeypatch, capfd):
    """``identify /dev/zero`` (or ``- < /dev/zero``) read until memory ran out; a
    picture file is read to at most ``MAX_FILE_BYTES`` and one more byte."""
    import io

    from vision import images

    assert main(["vision", "identify", "/dev/zero"]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err == (
        "kiebitz: error: cannot read image /dev/zero: it is more than 256 MiB, "
        "larger than any picture read\n"
    )
    monkeypatch.setattr(images, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(2000))
    assert main(["vision", "identify", str(big)]) == 2
    assert "it is more than 0 MiB" in capfd.readouterr().err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(bytes(2000))))
    assert main(["vision", "identify", "-"]) == 2
    assert capfd.readouterr().err.startswith(
        "kiebitz: error: cannot read image from standard input: it is more than"
    )
