"""Table layouts: the shipped ones load, broken ones name the file and key path."""

from __future__ import annotations

import itertools
import tomllib

import pytest

from vision.errors import LayoutError
from vision.layout import LAYOUT_DIR, load_layout, parse_layout

SHIPPED = sorted(LAYOUT_DIR.glob("*.toml"))

GOOD = """
[table]
name = "t"
game = "cribbage"
players = 2
width_mm = 900
depth_mm = 900
[markers]
dictionary = "DICT_4X4_50"
size_mm = 40
positions = { 0 = [30, 30], 1 = [870, 30], 2 = [870, 870], 3 = [30, 870] }
[[zones]]
name = "play.0"
kind = "play"
seat = 0
rect = [150, 180, 750, 330]
[[zones]]
name = "starter"
kind = "starter"
polygon = [[400, 400], [500, 400], [450, 500]]
"""


def test_every_shipped_layout_loads_and_its_zones_do_not_overlap():
    assert {p.stem for p in SHIPPED} >= {"cribbage-2", "cribbage-3", "cribbage-4", "skat-3"}
    for path in SHIPPED:
        layout = load_layout(path)
        seats = {z.seat for z in layout.zones if z.seat is not None}
        assert seats == set(range(layout.players)), path
        for a, b in itertools.permutations(layout.zones, 2):
            assert not any(b.contains(*p) for p in a.polygon), (path, a.name, b.name)
            assert not b.contains(*a.centre), (path, a.name, b.name)


def test_a_cribbage_play_rows_cards_are_carried_on_to_its_players_show_row():
    """The shipped cribbage layouts say where a play row's cards go in play: at the
    show each player lays the cards they played out in their show row (the watch holds
    the removal of a card taken up there while a hand is over that row: it may be
    carried there unread). No other zone's cards go on face up: the Skat layouts say
    so of their tricks (``then = []``: gathered face down to a pile), so that a trick's
    card read in the hand gathering it is not held as if it might be laid elsewhere."""
    for path in SHIPPED:
        layout = load_layout(path)
        for zone in layout.zones:
            if layout.game == "cribbage" and zone.kind == "play":
                assert zone.then == (f"show.{zone.seat}",), (path, zone.name)
            elif zone.kind == "trick":
                assert zone.then == (), (path, zone.name)
            else:
                assert zone.then is None, (path, zone.name)


def test_what_a_layout_says_of_where_cards_go_reaches_the_tracker(tmp_path):
    """Skat seed 132 (30 fps, indices in four corners): a trick's KC read in the hand
    gathering the trick was held ``LOST_HOLD_S`` as a card that may be laid in another
    zone, and removed 1.27 s after its spot was clear; the layout said nothing of
    where a trick's cards go. A zone's ``then = []`` says nowhere, which the watch
    gives the tracker (``Tracker.onward_zones``: zones a layout says nothing of go on
    nowhere once it says it of some); ``then`` left out everywhere says nothing, and
    every carried card is held as before."""
    from vision.recognize import Recognizer
    from vision.watch import TableWatcher

    skat = TableWatcher(Recognizer(), layout=load_layout(LAYOUT_DIR / "skat-3.toml"))
    assert skat.tracker.onward_zones is not None
    assert all(not then for then in skat.tracker.onward_zones.values())
    assert set(skat.tracker.onward_zones) == {z.name for z in skat.layout.zones}
    text = (LAYOUT_DIR / "skat-3.toml").read_text(encoding="utf-8")
    f = tmp_path / "t.toml"
    f.write_text(text.replace("then = []", ""), encoding="utf-8")
    silent = TableWatcher(Recognizer(), layout=load_layout(f))
    assert silent.tracker.onward_zones is None


def test_zone_lookup(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text(GOOD)
    layout = load_layout(f)
    assert layout.zone_at(200, 200).name == "play.0"
    assert layout.zone_at(450, 430).name == "starter"
    assert layout.zone_at(450, 499) is None or layout.zone_at(450, 499).name == "starter"
    assert layout.zone_at(100, 100) is None
    assert layout.markers[2] == (870.0, 870.0)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("players = 2", "players = 9", "table.players: expected 2 to 6"),
        ("rect = [150, 180, 750, 330]", "rect = [150, 180, 100, 330]", "zones[0].rect: x1 and y1"),
        ('kind = "play"', 'kind = "dance"', "zones[0].kind: expected one of"),
        ("seat = 0", "seat = 5", "zones[0].seat: expected a seat 0..1"),
        ('"DICT_4X4_50"', '"DICT_9X9"', "markers.dictionary"),
        (", 3 = [30, 870] }", " }", "markers.positions: need at least 4 markers"),
        ("[450, 500]]", "[450, 5000]]", "zones[1]: point 2 (450, 5000) lies off the table"),
        (
            "width_mm = 900",
            "width_mm = -1",
            "table.width_mm: must be a finite number above 0 and at most 10000 (mm), got -1",
        ),
        # TOML writes nan and inf: nan was taken and reported as a zone off the table,
        # inf and 1e300 were taken
        ("width_mm = 900", "width_mm = nan", "table.width_mm: must be a finite number above 0"),
        ("width_mm = 900", "width_mm = inf", "table.width_mm: must be a finite number above 0"),
        ("depth_mm = 900", "depth_mm = inf", "table.depth_mm: must be a finite number above 0"),
        ("width_mm = 900", "width_mm = 1e300", "table.width_mm: must be a finite number above 0"),
        ("width_mm = 900", "width_mm = 10001", "and at most 10000 (mm), got 10001"),
        ("width_mm = 900", 'width_mm = "900"', "table.width_mm: expected a number, got '900'"),
        # size_mm = nan: 'run' said the markers gave no usable homography, played
        # nothing and exited 0
        ("size_mm = 40", "size_mm = nan", "markers.size_mm: must be a finite number above 0"),
        ("size_mm = 40", "size_mm = 0", "markers.size_mm: must be a finite number above 0"),
        ("size_mm = 40", "size_mm = -inf", "markers.size_mm: must be a finite number above 0"),
        # DICT_4X4_50 has ids 0 to 49: marker 99 is never seen, the calibration never works
        (
            "3 = [30, 870]",
            "99 = [30, 870]",
            "markers.positions.99: not a marker of DICT_4X4_50 (ids 0 to 49)",
        ),
        (
            '"DICT_4X4_50"',
            '"DICT_6X6_250"',
            None,  # ids up to 249 there: the same layout loads
        ),
        ("3 = [30, 870]", "3 = [30, 870], 03 = [30, 870]", "markers.positions.03: marker 3 is"),
        # '²' is a digit to str.isdigit() and a ValueError (a traceback) to int()
        ("3 = [30, 870]", '"3²" = [30, 870]', "markers.positions.3²: marker ids are whole"),
        (
            "3 = [30, 870]",
            "3 = [1e300, 870]",
            "markers.positions.3: expected [x, y] in millimetres, got [1e+300, 870]: "
            "each a finite number from -10000 to 10000",
        ),
        ("[150, 180, 750, 330]", "[150, 180, inf, 330]", "zones[0].rect: expected [x, y]"),
        ("[450, 500]]", "[450, nan]]", "zones[1].polygon[2]: expected [x, y] in millimetres"),
        ("players = 2", "players = 2.0", "table.players: expected 2 to 6, got 2.0"),
        ("seat = 0", "seat = 0.0", "zones[0].seat: expected a seat 0..1, got 0.0"),
        ('name = "starter"', 'name = "play.0"', "zones[1].name: duplicate zone name"),
        ("seat = 0", "seat = 0\ncolour = 3", "zones[0].colour: unknown key"),
        # where a zone's cards are carried on to in play (a play row's to the show row)
        ("seat = 0", 'seat = 0\nthen = ["starter"]', None),
        ("seat = 0", "seat = 0\nthen = []", None),  # on to no zone face up
        ("seat = 0", 'seat = 0\nthen = ["show.0"]', "zones[0].then[0]: expected the name of"),
        ("seat = 0", 'seat = 0\nthen = ["play.0"]', "zones[0].then[0]: expected the name of"),
        ("seat = 0", 'seat = 0\nthen = "starter"', "zones[0].then: expected a list of zone"),
        # TOML writes nan: a marker there broke the markers' spread test (a traceback)
        (
            "1 = [870, 30], 2 = [870, 870], 3 = [30, 870]",
            "1 = [nan, 30], 2 = [nan, 870], 3 = [nan, 870]",
            "markers.positions.1: expected [x, y] in millimetres, got [nan, 30]",
        ),
        # four markers at one point were taken; the calibration said 55 mm, status 0
        (
            "1 = [870, 30], 2 = [870, 870], 3 = [30, 870]",
            "1 = [30, 30], 2 = [30, 30], 3 = [30, 30]",
            "markers.positions: markers 0 and 1 lie nearer than their size (40 mm)",
        ),
        (
            "1 = [870, 30], 2 = [870, 870], 3 = [30, 870]",
            "1 = [300, 30], 2 = [600, 45], 3 = [870, 30]",
            "markers.positions: the markers lie on one line",
        ),
    ],
)
def test_broken_layouts_name_the_file_and_key(tmp_path, old, new, message):
    assert old in GOOD
    f = tmp_path / "broken.toml"
    f.write_text(GOOD.replace(old, new, 1))
    if message is None:
        load_layout(f)
        return
    with pytest.raises(LayoutError) as info:
        load_layout(f)
    assert str(info.value).startswith(str(f))
    assert message in str(info.value)


def test_unreadable_and_invalid_toml(tmp_path):
    with pytest.raises(LayoutError, match="cannot read"):
        load_layout(tmp_path / "missing.toml")
    f = tmp_path / "bad.toml"
    f.write_text("[table\n")
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(f)
    f.write_bytes(b"\xff\xfe[table]\n")  # another encoding: was a UnicodeDecodeError
    with pytest.raises(LayoutError, match=r"bad\.toml: not UTF-8 text \(byte 0\)"):
        load_layout(f)


def test_a_utf8_byte_order_mark_is_skipped(tmp_path):
    # Windows Notepad writes one: it was "not valid TOML: Invalid statement (at line 1,
    # column 1)"
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))
    assert load_layout(f).markers[2] == (870.0, 870.0)
    f.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf" + GOOD.encode("utf-8"))  # one, not two
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(f)


def test_a_layout_names_its_pack_or_gets_its_games():
    skat = load_layout(LAYOUT_DIR / "skat-3.toml")
    assert skat.deck.name == "skat-32" and "2" not in skat.deck.ranks
    assert load_layout(LAYOUT_DIR / "cribbage-2.toml").deck.name == "french-52"
    text = (LAYOUT_DIR / "cribbage-2.toml").read_text(encoding="utf-8")
    assert parse_layout({**tomllib.loads(text), "deck": {"name": "frog-36"}}).deck.ranks == (
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "A",
    )
    german = parse_layout({**tomllib.loads(text), "deck": {"name": "skat-32-four-colour"}}).deck
    assert german.four_colour and german.ranks == skat.deck.ranks
    with pytest.raises(LayoutError, match=r"deck\.name: expected one of french-52"):
        parse_layout({**tomllib.loads(text), "deck": {"name": "tarot-78"}}, "t.toml")
    with pytest.raises(LayoutError, match=r"deck\.style: unknown key"):
        parse_layout({**tomllib.loads(text), "deck": {"name": "skat-32", "style": "x"}})


def test_a_layout_gives_its_packs_index_size():
    # a "jumbo index" pack (docs/vision.md "Packs drawn by other hands"): the game's own
    # pack with the index size given, or a named one's
    text = (LAYOUT_DIR / "cribbage-2.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert parse_layout(data).deck.index_mm == 8.5
    jumbo = parse_layout({**data, "deck": {"index_mm": 15}}).deck
    assert (jumbo.name, jumbo.index_mm) == ("french-52", 15.0)
    skat = parse_layout({**data, "deck": {"name": "skat-32", "index_mm": 13.5}}).deck
    assert (skat.name, skat.index_mm) == ("skat-32", 13.5)
    for bad, why in ((40, "is 5 to 25 mm"), ("big", "expected a number"), (0, "above 0")):
        with pytest.raises(LayoutError, match=rf"t\.toml: deck\.index_mm: .*{why}"):
            parse_layout({**data, "deck": {"index_mm": bad}}, "t.toml")


def test_a_shipped_layout_is_found_by_its_name_as_the_config_names_it(tmp_path, monkeypatch):
    # `config check` took `layout = "cribbage-2"`; `--table cribbage-2` was "cannot read"
    monkeypatch.chdir(tmp_path)
    assert load_layout("cribbage-2") == load_layout(LAYOUT_DIR / "cribbage-2.toml")
    with pytest.raises(LayoutError, match=r"cribbage-9: no such file, nor a shipped layout \(cri"):
        load_layout("cribbage-9")
    (tmp_path / "cribbage-2").write_text("not toml [")  # a file of that name is the file
    with pytest.raises(LayoutError, match="cribbage-2"):
        load_layout("cribbage-2")


def test_a_pack_named_on_the_command_line_keeps_the_layouts_index_size():
    from vision.decks import find_deck
    from vision.recognize import Recognizer
    from vision.watch import TableWatcher

    data = tomllib.loads((LAYOUT_DIR / "cribbage-2.toml").read_text(encoding="utf-8"))
    layout = parse_layout({**data, "deck": {"index_mm": 15}})
    named = TableWatcher(Recognizer(deck=find_deck("frog-36")), layout=layout).recognizer.deck
    assert named is not None and (named.name, named.index_mm) == ("frog-36", 15.0)
    own = TableWatcher(Recognizer(), layout=layout).recognizer
    assert own.deck is not None and own.deck.index_mm == 15.0 and own.index_k == 15.0 / 8.5


def test_a_pack_read_larger_than_its_layout_says_is_told_once():
    """Seeds 143 and 145 (a jumbo index, no [deck] index_mm): every card's readings
    were refused as outsize and nothing was placed, without a word to the installer.
    Sure readings of four cards refused at one ratio are told once, with the size."""
    from vision.recognize import Recognizer
    from vision.watch import TableWatcher

    watcher = TableWatcher(Recognizer(), layout=load_layout(LAYOUT_DIR / "cribbage-2.toml"))
    watcher.recognizer.outsize_read = [("5H", 1.6), ("3C", 1.62), ("QS", 3.5)]
    watcher._pack_larger()
    assert watcher.take_notes() == []  # two cards at a jumbo's ratio (3.5: print)
    watcher.recognizer.outsize_read = [("5H", 1.6), ("2D", 1.58), ("KD", 1.64)]
    watcher._pack_larger()
    ((kind, words),) = watcher.take_notes()
    assert kind == "pack-index" and "[deck] index_mm = 13.7" in words, words  # 1.61 x 8.5
    assert "the indices of 4 cards read 1.6 times" in words
    watcher.recognizer.outsize_read = [("9S", 1.6), ("8S", 1.6)]
    watcher._pack_larger()
    assert watcher.take_notes() == []  # said once
