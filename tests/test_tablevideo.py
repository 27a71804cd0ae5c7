"""Synthetic videos of play: they read back frame-exact, and the live loop run over the
bundled videos reports every card that was laid, in its zone, and nothing that was not."""

from __future__ import annotations

import io
import itertools
import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.scenarios import VIDEOS, Scenario, cribbage_deal, judge, skat_deal
from vision.faces import BACKS, photo_faces, render_back
from vision.layout import LAYOUT_DIR, load_layout
from vision.model import DEFAULT_MODEL
from vision.recognize import Recognizer
from vision.sources import VideoFileSource
from vision.tablevideo import Action, _Table, pace, render_video, rested
from vision.watch import TableWatcher, watch

VIDEO_DIR = Path(__file__).resolve().parent.parent / "config" / "videos"


def test_short_script_reads_back_frame_exact(tmp_path: Path) -> None:
    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    steps = [
        [Action(0, "place", "QH", 300.0, 260.0, 3.0, 0)],
        [Action(0, "place", "9C", 420.0, 640.0, 180.0, 1)],
        [Action(0, "move", "QH", 300.0, 135.0, 0.0, 0)],
    ]
    actions = pace(steps, start_s=0.5, still_s=1.0)
    info = render_video(layout, actions, tmp_path / "short.mp4", fps=5.0, tail_s=1.0)
    # the table and its margin at 2.74 px/mm, rounded up to whole macroblocks
    assert info.size == (2688, 2688)
    assert info.frames == int((actions[-1].t + 0.6 + 1.0) * 5.0) + 1
    source = VideoFileSource(info.path)
    source.open()
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    assert len(frames) == info.frames
    assert all(f.image.shape == (2688, 2688, 3) for f in frames)
    assert frames[5].t == pytest.approx(1.0)


def test_a_cameras_wider_frame_has_the_table_in_its_middle(tmp_path: Path) -> None:
    """A 16:9 camera sees felt either side of the table (the hidden videos of issue
    11 are 3840 x 2160 at 2.36 px/mm): the table lies in the frame's middle, and the
    live loop calibrates on it and places a card laid there in its zone. A frame
    smaller than the table is refused, saying both sizes."""
    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    actions = pace([[Action(0, "place", "QH", 300.0, 260.0, 3.0, 0)]], start_s=0.5, still_s=1.0)
    info = render_video(
        layout,
        actions,
        tmp_path / "wide.mp4",
        px_per_mm=2.36,
        fps=5.0,
        tail_s=1.0,
        frame=(3200, 2176),
    )
    assert info.size == (3200, 2176)
    # the table's middle is the frame's: marker 0 lies 45 mm in from the table's south-west
    # corner, the table (900 mm square) (3200 / 2.36 - 900) / 2 mm from the frame's left
    from vision.geometry import detect_markers

    source = VideoFileSource(info.path)
    source.open()
    first = source.read()
    source.close()
    assert first is not None
    centre = detect_markers(first.image, layout.dictionary)[0].mean(axis=0)
    mx, my = (3200 / 2.36 - 900) / 2, (2176 / 2.36 - 900) / 2
    assert centre == pytest.approx([(45 + mx) * 2.36, (900 + my - 45) * 2.36], abs=2)
    out = io.StringIO()
    watch(str(info.path), table=str(LAYOUT_DIR / "cribbage-2.toml"), out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    placed = [o for o in lines if o.get("kind") == "placed"]
    assert [(o["card"], o["zone"]) for o in placed] == [("QH", "play.0")]
    # the card's place in table millimetres, though the table lies 466 mm from the left
    assert placed[0]["position_mm"] == pytest.approx([300.0, 260.0], abs=5)
    with pytest.raises(ValueError, match=r"2000x1500 frame at 2.36 px/mm is 847 x 636 mm"):
        render_video(layout, actions, tmp_path / "never.mp4", px_per_mm=2.36, frame=(2000, 1500))


def test_a_player_leaning_in_shades_the_table_but_hides_no_card() -> None:
    """``lean``: the north player's head and shoulders shade a broad patch of the
    table beside the arm as they reach (a lamp to the north-west), and still shade a
    card near their edge after the arm has left the picture, until they lean back.
    The shadow dims the card but hides nothing: the card lies clear when the hand
    has left, as without it (the latency is counted from then)."""
    from vision.tablevideo import script_frames

    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    actions = pace([[Action(0, "place", "9C", 420.0, 800.0, 180.0, 1)]], start_s=0.5, still_s=1.0)
    runs = {}
    for lean in (False, True):
        cleared: list[float] = []
        frames = list(
            script_frames(
                layout, actions, px_per_mm=1.0, fps=10.0, tail_s=0.5, lean=lean, cleared=cleared
            )
        )
        runs[lean] = ([(t, img) for t, img, _ in frames], cleared)
    (plain, clear_plain), (leant, clear_leant) = runs[False], runs[True]
    assert clear_leant == clear_plain
    land = next(
        i for i, ((_, a), (_, b)) in enumerate(zip(plain, leant, strict=True)) if (a != b).any()
    )
    # beside the arm, between the north edge and the card, the felt is darker
    diff = plain[land + 3][1].astype(int) - leant[land + 3][1].astype(int)
    assert diff.mean() > 1 and diff.max() >= 20
    assert (diff >= -1).all()  # a shadow darkens only
    # the card is clear, the arm gone, and the shadow still on the card's spot
    at = next(i for i, (t, _) in enumerate(plain) if t >= clear_plain[0])
    x, y = 420 + 40, 900 + 40 - 800  # the card's middle: 40 mm of margin at 1 px/mm
    spot = (slice(y - 40, y + 40), slice(x - 30, x + 30))
    assert (plain[at][1][spot].astype(int) - leant[at][1][spot].astype(int)).mean() > 3
    assert (plain[-1][1] == leant[-1][1]).all()  # gone with the player


def test_overlapping_gestures_are_refused() -> None:
    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    actions = [
        Action(1.0, "place", "QH", 300.0, 260.0, 0.0, 0),
        Action(1.5, "place", "9C", 420.0, 640.0, 180.0, 1),
    ]
    with pytest.raises(ValueError, match="before the one at 1 s has ended"):
        render_video(layout, actions, "/tmp/never.mp4")


def test_bad_action_names_the_field() -> None:
    with pytest.raises(ValueError, match="action kind"):
        Action(1.0, "flip", "QH", 0.0, 0.0)


def test_scenarios_are_legal_deals_with_their_truth() -> None:
    crib = cribbage_deal()
    assert crib.truth["verdicts"] == []
    assert len(crib.truth["plays"]) == 8 and sum(crib.truth["scores"]) > 0
    skat = skat_deal()
    assert skat.truth["dealer"] == 2 and len(skat.truth["plays"]) == 30
    revoke = skat.truth["revoke"]
    assert 4 <= revoke["trick"] <= 7
    assert [(v["kind"], v["seat"], v["trick"]) for v in skat.truth["verdicts"]] == [
        ("revoke", revoke["seat"], revoke["trick"])
    ]
    json.dumps(crib.to_json()), json.dumps(skat.to_json())


@pytest.mark.parametrize("players", [3, 4])
def test_a_deal_for_three_or_four_lays_every_card_in_its_zone_the_right_way_up(players) -> None:
    """The live check's cribbage for three or four (``bench/live.py --players``): a
    legal five-card deal, every card laid or moved where its truth says, in its
    zone, turned to its player (a side seat's rows along the table's side), each
    player's row left to right as he sees it; and every card taken off the table at
    the end."""
    for seed in range(20):
        s = cribbage_deal(seed, dealer=seed % players, overlap=23.0, players=players)
        assert s.layout == f"cribbage-{players}.toml" and s.truth["verdicts"] == []
        assert len(s.truth["plays"]) == 4 * players and s.truth["players"] == players
        layout = s.load_layout()
        laid = [a for a in s.actions if a.kind != "remove"]
        expected = [e for e in s.truth["expected"] if e["kind"] != "removed"]
        assert len(laid) == len(expected) == 1 + 8 * players + 4
        for a, e in zip(laid, expected, strict=True):
            zone = layout.zone_at(a.x_mm, a.y_mm)
            assert a.card == e["card"] and zone is not None and zone.name == e["zone"]
            if zone.seat is not None:  # upright for its player: 0 south, 1 west, ...
                turned = {0: 0.0, 1: -90.0, 2: 180.0, 3: 90.0}[zone.seat]
                assert abs((a.angle_deg - turned + 180) % 360 - 180) <= 5
        for seat in range(players):  # left to right as he sees it
            row = [
                a
                for a in laid
                if a.kind == "place" and layout.zone_at(a.x_mm, a.y_mm).name == f"play.{seat}"
            ]
            way = {0: (1, 0), 1: (0, -1), 2: (-1, 0), 3: (0, 1)}[seat]
            steps = [
                (b.x_mm - a.x_mm) * way[0] + (b.y_mm - a.y_mm) * way[1]
                for a, b in itertools.pairwise(row)
            ]
            assert steps and all(d > 10 for d in steps), (seat, steps)
        removed = [e["card"] for e in s.truth["expected"] if e["kind"] == "removed"]
        assert sorted(removed) == sorted(e["card"] for e in expected if e["kind"] == "placed")
    with pytest.raises(ValueError, match="players 5"):
        cribbage_deal(1, players=5)


@pytest.mark.parametrize("players", [2, 3])
def test_a_hurried_deal_lays_the_same_cards_further_askew_in_the_same_zones(players) -> None:
    """``askew`` (``bench/live.py --askew``) scales each card's offset and turn from
    the same draws: at 1 the deal is the one it always was; at 3 the cards lie up
    to three times as far turned (the crib's 3 degrees, a row's 4, the starter's 5),
    every one still in its zone; a scale below 0 is refused."""
    for seed in range(6):
        plain = cribbage_deal(seed, dealer=seed % players, overlap=23.0, players=players)
        same = cribbage_deal(seed, dealer=seed % players, overlap=23.0, players=players, askew=1)
        hurried = cribbage_deal(seed, dealer=seed % players, overlap=23.0, players=players, askew=3)
        assert plain.actions == same.actions and plain.truth == hurried.truth
        layout = hurried.load_layout()
        turns = []
        for a, b in zip(plain.actions, hurried.actions, strict=True):
            assert (a.t, a.kind, a.card, a.seat) == (b.t, b.kind, b.card, b.seat)
            if a.kind == "remove":
                assert (a.x_mm, a.y_mm, a.angle_deg) == (b.x_mm, b.y_mm, b.angle_deg)
                continue
            zone = layout.zone_at(b.x_mm, b.y_mm)
            assert zone is not None and zone.name == layout.zone_at(a.x_mm, a.y_mm).name
            turns.append(abs((b.angle_deg - a.angle_deg + 180) % 360 - 180))
        assert 4 < max(turns) <= (3 - 1) * 5 + 1e-9  # twice a draw more: 5 degrees at most
    skat = skat_deal(3, revoke=False, askew=3)
    assert skat.truth == skat_deal(3, revoke=False).truth
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="askew"):
            cribbage_deal(1, askew=bad)
        with pytest.raises(ValueError, match="askew"):
            skat_deal(1, askew=bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deal_with_its_face_down_cards_lays_the_pack_and_the_crib_face_down(players) -> None:
    """``backs`` (``bench/live.py --face-down``): the pack lies at the starter's spot
    before the starter is turned onto it, each player's discards lie face down in the
    crib zone (seed 000 THE DEAL: two each for two, one each for three and four, and
    three-hand's card from the pack), the dealer picks them up before he lays the
    crib out face up, and takes the pack with the crib; the truth is the deal's, and
    every face-up action is the one it was, in its order."""
    for seed in range(4):
        dealer = seed % players
        plain = cribbage_deal(seed, dealer=dealer, overlap=23.0, players=players)
        s = cribbage_deal(seed, dealer=dealer, overlap=23.0, players=players, backs=True)
        assert s.truth == plain.truth
        layout = s.load_layout()
        up = [(a.kind, a.card, a.x_mm, a.y_mm) for a in s.actions if a.face_up]
        assert up == [(a.kind, a.card, a.x_mm, a.y_mm) for a in plain.actions]
        down = [a for a in s.actions if not a.face_up]
        crib = [c for sh in s.truth["shows"] if sh["crib"] for c in sh["cards"]]
        laid = [a for a in down if a.kind == "place" and a.card != "pack"]
        assert sorted(a.card for a in laid) == sorted(crib)
        assert all(layout.zone_at(a.x_mm, a.y_mm).name == "crib" for a in laid)
        starter = next(a for a in s.actions if a.card == s.truth["starter"])
        pack = [a for a in down if a.card == "pack"]
        assert [a.kind for a in pack] == ["place", "remove"]
        assert pack[0].t < starter.t and (pack[0].x_mm, pack[0].y_mm) == (
            starter.x_mm,
            starter.y_mm,
        )
        assert pack[1].t == max(a.t for a in s.actions)  # with the crib, at the end
        for card in crib:  # face down, picked up, then laid face up
            kinds = [(a.kind, a.face_up) for a in s.actions if a.card == card]
            assert kinds[:3] == [("place", False), ("remove", False), ("place", True)]


def test_a_packs_back_is_drawn_as_it_is_printed() -> None:
    """The backs a table's face-down cards show (``render_video(back=...)``): the
    lattice has no paper to print on; the ornament and the club's back are ink on
    white paper; an unknown design names the ones there are."""
    grey = {d: cv2.cvtColor(render_back(d).image, cv2.COLOR_BGR2GRAY) for d in BACKS}
    inner = {d: g[30:-30, 30:-30] for d, g in grey.items()}
    assert (inner["lattice"] > 200).mean() < 0.01
    for design in ("ornate", "advert"):
        paper, ink = (inner[design] > 200).mean(), (inner[design] < 120).mean()
        assert paper > 0.5 and ink > 0.03, (design, paper, ink)
    with pytest.raises(ValueError, match="lattice, ornate, advert"):
        render_back("tartan")


def _observe(video: Path, scenario: Scenario) -> tuple[list[dict[str, object]], float]:
    out = io.StringIO()
    started = time.perf_counter()
    watch(str(video), table=str(LAYOUT_DIR / scenario.layout), out=out)
    elapsed = time.perf_counter() - started
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return [o for o in lines if "kind" in o], elapsed


@pytest.mark.parametrize("name", sorted(VIDEOS))
def test_watch_sees_every_card_of_the_bundled_video(name: str) -> None:
    video = VIDEO_DIR / name
    assert video.is_file(), f"{video} missing: run python -m controller.scenarios render"
    scenario = VIDEOS[name]()
    shipped = json.loads(video.with_suffix(".json").read_text(encoding="utf-8"))
    assert shipped["truth"] == scenario.truth, "the bundled video is stale: render it again"
    capture = cv2.VideoCapture(str(video))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == shipped["video"]["frames"]
    capture.release()
    observed, elapsed = _observe(video, scenario)
    print(f"{name}: {elapsed:.1f} s to watch {shipped['video']['frames']} frames")
    expected = scenario.truth["expected"]
    laid = {e["card"]: e["zone"] for e in expected if e["kind"] == "placed"}
    placed = [(o["card"], o["zone"]) for o in observed if o["kind"] == "placed"]
    # every face-up card placed exactly once, in its zone; nothing placed that was not laid
    assert sorted(placed) == sorted(laid.items())
    moves = [(e["card"], e["from_zone"], e["zone"]) for e in expected if e["kind"] == "moved"]
    moved = [(o["card"], o["from_zone"], o["zone"]) for o in observed if o["kind"] == "moved"]
    assert moved == moves
    removed = [o["card"] for o in observed if o["kind"] == "removed"]
    assert len(removed) == len(set(removed)) and set(removed) <= set(laid)


@pytest.mark.slow
def test_live_check_rows_laid_over_each_other_shadows_and_worn_cards(tmp_path: Path) -> None:
    """Issue 11's live check, shortened (bench/live.py runs whole deals): the play rows
    laid as players lay them, each card over the one before with a strip of it
    showing, every card of one pack's design, hands casting moving shadows, a
    quarter of the cards on greyer tinted paper, at the recommended mounting over a
    club table (2.36 px/mm) and 10 fps, through the mp4 codec and `watch --table`.
    Every card placed once in its zone, every move and removal seen, nothing false,
    each placing and move at most 0.5 s after its card lies still in plain sight."""
    from dataclasses import replace

    from controller.scenarios import judge

    scenario = cribbage_deal(seed=9, dealer=1, overlap=20.0)
    actions, expected = list(scenario.actions), scenario.truth["expected"]
    # the starter, the play, the non-dealer's show; then he takes his cards away
    keep = list(range(13))
    shown = {actions[i].card for i in range(9, 13)}
    last = actions[12].t
    taken = [i for i, a in enumerate(actions) if a.kind == "remove" and a.card in shown]
    assert len(taken) == 4 and all(expected[i]["kind"] == "removed" for i in taken)
    script = [actions[i] for i in keep] + [replace(actions[i], t=last + 3.5) for i in taken]
    truth = [expected[i] for i in keep + taken]
    cleared: list[float] = []
    video = tmp_path / "live.mp4"
    render_video(
        scenario.load_layout(),
        script,
        video,
        px_per_mm=2.36,
        fps=10.0,
        seed=9,
        shadow=True,
        worn=0.25,
        one_pack=True,
        cleared=cleared,
    )
    assert len(cleared) == len(script) and all(c == c for c in cleared)  # no NaN
    observed, _ = _observe(video, scenario)
    verdict = judge(truth, observed, cleared)
    assert verdict["missed"] == [] and verdict["false"] == [], verdict
    assert verdict["early"] == [], verdict  # nothing settled under a hand or its shadow
    assert verdict["latency_s"]["placed"]["max"] <= 0.5, verdict
    assert verdict["latency_s"]["moved"]["max"] <= 0.5, verdict
    assert verdict["latency_s"]["removed"]["max"] <= 1.0, verdict


SINGLE = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards" / "bidly" / "single"


def test_a_card_under_a_player_leaning_back_is_placed_as_soon_as_the_hand_has_left(
    tmp_path: Path,
) -> None:
    """The first two cards of the live check's Skat seed 81 at 5 fps, the players
    leaning in: the 7D laid in ``trick.1`` lies in the broad shadow of its player's
    head and shoulders, which moves off it a frame after the hand has left. That is a
    change of light, not motion over the card (``MotionGate(shade=…)``): the card is
    placed two frames (0.4 s) after it lay clear, not three (0.6 s, over the issue's
    0.5 s), and nothing is placed while the hand or its own shadow touches it."""
    scenario = skat_deal(81, revoke=False)
    layout = load_layout(LAYOUT_DIR / scenario.layout)
    actions = scenario.actions[:2]
    video, cleared = tmp_path / "lean.mp4", []
    render_video(
        layout,
        actions,
        video,
        px_per_mm=2.36,
        fps=5.0,
        tail_s=1.5,
        seed=81,
        shadow=True,
        lean=True,
        cleared=cleared,
    )
    out = io.StringIO()
    watch(str(video), table=str(LAYOUT_DIR / scenario.layout), out=out)
    observed = [e for e in map(json.loads, out.getvalue().splitlines()) if "kind" in e]
    verdict = judge(list(scenario.truth["expected"][:2]), observed, cleared)
    assert verdict["matched"] == 2 and not verdict["false"] and not verdict["early"], verdict
    assert verdict["latency_s"]["placed"]["max"] <= 0.4, verdict


def test_a_card_under_an_arm_resting_still_is_covered_not_removed(tmp_path: Path) -> None:
    """A player lays a card beyond one already placed and rests the hand there for
    two seconds, the arm lying still over the first card: nothing moves over it, and
    it is not read, but it is covered, not gone (``MotionGate.arm_near``; before, a
    7C was removed under the arm and placed again when it left). The card laid under
    the resting hand is placed once the hand has left, as every card."""
    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    steps = [
        [Action(0, "place", "7C", 450.0, 300.0, 0.0, 0)],
        [Action(0, "place", "KH", 450.0, 420.0, 0.0, 0, rest_s=2.0)],
    ]
    actions = pace(steps, start_s=0.5, still_s=1.0)
    assert actions[1].t - actions[0].t == pytest.approx(0.6 + 1.0 + 0.7)
    video, cleared = tmp_path / "rest.mp4", []
    render_video(
        layout, actions, video, px_per_mm=2.36, fps=10.0, tail_s=2.0, shadow=True, cleared=cleared
    )
    assert cleared[1] >= actions[1].t + 2.0  # the hand rested over both cards
    scenario = Scenario("cribbage-2.toml", tuple(actions), {})
    observed, _ = _observe(video, scenario)
    truth = [
        {"kind": "placed", "card": "7C", "zone": "play.0"},
        {"kind": "placed", "card": "KH", "zone": "starter"},
    ]
    verdict = judge(truth, observed, cleared)
    assert verdict["missed"] == [] and verdict["false"] == [], verdict
    assert verdict["early"] == [] and verdict["late"] == [], verdict


class _Unread(Recognizer):
    """A recogniser that cannot read one card between two times (the test's clock,
    ``now``): a card carried under a lamp's glare or across a hard shadow's edge,
    unread in the hand and under it until the hand has left it."""

    card = ""
    now = 0.0
    blind = (float("inf"), float("inf"))

    def _drop(self, dets):  # type: ignore[no-untyped-def]
        if self.blind[0] <= self.now < self.blind[1]:
            return [d for d in dets if d.card != self.card]
        return dets

    def detect_indices(self, image):  # type: ignore[no-untyped-def]
        return self._drop(super().detect_indices(image))

    def detect_regions(self, image, rois, **kw):  # type: ignore[no-untyped-def]
        return self._drop(super().detect_regions(image, rois, **kw))


@pytest.mark.parametrize("then", [True, False])
def test_a_card_carried_unread_to_the_show_row_is_moved_not_removed_and_placed(
    tmp_path: Path, then: bool
) -> None:
    """A player takes a card from the play row and lays it in the show row, the hand
    resting there 1.5 s, the card read neither in the hand nor under it (the lamp
    probes' seed 112: a QH so carried was removed from the play row 0.7 s after it
    went and placed in the show row 1.1 s later, two events for one move). The
    layout says a play row's cards are carried on to the show row (``then``): with a
    hand over that row, the card may be in it, and its removal waits (vision.watch
    CARRY_GRACE_S, vision.tracker CARRY_S). A layout that does not say so: a removal
    and a placing, as before."""
    from dataclasses import replace

    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    if not then:
        layout = replace(layout, zones=tuple(replace(z, then=None) for z in layout.zones))
    steps = [
        [Action(0, "place", "QH", 450.0, 260.0, 0.0, 0)],
        [Action(0, "move", "QH", 450.0, 135.0, 0.0, 0, rest_s=1.5)],
    ]
    actions = pace(steps, start_s=0.5, still_s=1.5)
    video, cleared = tmp_path / "carry.mp4", []
    render_video(
        layout, actions, video, px_per_mm=2.36, fps=10.0, tail_s=2.0, shadow=True, cleared=cleared
    )
    rec = _Unread(DEFAULT_MODEL)
    rec.card, rec.blind = "QH", (cleared[0] + 1.0, cleared[1])  # placed by then
    watcher = TableWatcher(rec, layout=layout)
    source = VideoFileSource(video)
    source.open()
    observed = []
    while (frame := source.read()) is not None:
        if rec.calibration is None:
            watcher.try_calibrate(frame.image)
        rec.now = frame.t
        observed += [o.to_json() for o in watcher.process(frame.t, frame.image, frame.small)[0]]
    source.close()
    truth = [
        {"kind": "placed", "card": "QH", "zone": "play.0"},
        {"kind": "moved", "card": "QH", "zone": "show.0", "from_zone": "play.0"},
    ]
    verdict = judge(truth, observed, cleared)
    if then:
        assert verdict["missed"] == [] and verdict["false"] == [], verdict
        assert verdict["late"] == [] and verdict["early"] == [], verdict
    else:
        assert [(o["kind"], o["zone"]) for o in observed] == [
            ("placed", "play.0"),
            ("removed", None),
            ("placed", "show.0"),
        ]


def test_a_rest_shifts_what_follows_and_is_a_time() -> None:
    steps = [[Action(0, "place", "QH", 300.0, 260.0)], [Action(0, "place", "KH", 330.0, 260.0)]]
    actions = pace(steps, start_s=0.5, still_s=1.0)
    resting = rested(actions, 1.5)
    assert [a.rest_s for a in resting] == [1.5, 1.5]
    assert resting[1].t - resting[0].t == pytest.approx(actions[1].t - actions[0].t + 1.5)
    assert [a.rest_s for a in rested(actions, 1.5, every=2)] == [1.5, 0.0]
    with pytest.raises(ValueError, match="rest"):
        Action(1.0, "place", "QH", 300.0, 260.0, rest_s=-1.0)
    with pytest.raises(ValueError, match="rest_s"):
        rested(actions, float("nan"))


def test_a_video_drawn_from_photographed_faces_is_read(tmp_path: Path) -> None:
    """``photos``: the 52 flattened photographs of a real pack's faces (``bidly/single``),
    drawn in place of rendered ones (``bench/live.py --photos``). Three cards laid and
    one moved are read from them, each where it lies; a folder short of a pack is
    refused with its name and count. (Without ../shared the test fails: CI has it.)"""
    assert SINGLE.is_dir(), f"{SINGLE} is missing: put ../shared beside the clone"
    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    # the faces drawn are the photographs' own, not rendered ones
    photos = {f.code: f for f in photo_faces(SINGLE)}
    table = _Table(layout, 2.36, 40.0, 9, photos=SINGLE)
    assert np.array_equal(table.face("QH").image, photos["QH"].image)
    assert not np.array_equal(_Table(layout, 2.36, 40.0, 9).face("QH").image, photos["QH"].image)
    steps = [
        [Action(0, "place", "QH", 300.0, 260.0, 3.0, 0)],
        [Action(0, "place", "7S", 420.0, 640.0, 180.0, 1)],
        [Action(0, "place", "10D", 330.0, 262.0, -2.0, 0)],
        [Action(0, "move", "QH", 300.0, 135.0, 0.0, 0)],
    ]
    actions = pace(steps, start_s=0.5, still_s=1.0)
    video = tmp_path / "photos.mp4"
    render_video(layout, actions, video, px_per_mm=2.36, fps=5.0, tail_s=1.5, photos=SINGLE)
    out = io.StringIO()
    watch(str(video), table=str(LAYOUT_DIR / "cribbage-2.toml"), out=out)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    got = [(e["kind"], e["card"], e["zone"]) for e in events if "kind" in e]
    assert got == [
        ("placed", "QH", "play.0"),
        ("placed", "7S", "play.1"),
        ("placed", "10D", "play.0"),
        ("moved", "QH", "show.0"),
    ], got
    with pytest.raises(ValueError, match="nowhere: no such folder of card photographs"):
        render_video(layout, actions, tmp_path / "never.mp4", photos=tmp_path / "nowhere")
    few = tmp_path / "few"
    few.mkdir()
    for name in ("Qh.jpg", "7s.jpg"):
        (few / name).write_bytes((SINGLE / name).read_bytes())
    with pytest.raises(
        ValueError, match="few: no photograph of AS, 2S, 3S, 4S, 5S, 6S and 44 more"
    ):
        render_video(layout, actions, tmp_path / "never.mp4", photos=few)
    # a pack of 52 files, one of them no card of the pack: which card is missing
    (few / "Qh.jpg").unlink()
    for path in SINGLE.glob("*.jpg"):
        (few / path.name).write_bytes(path.read_bytes())
    (few / "Qh.jpg").rename(few / "joker.jpg")
    with pytest.raises(ValueError, match=r"few: no photograph of QH \(<rank><suit>.jpg"):
        render_video(layout, actions, tmp_path / "never.mp4", photos=few)


def test_a_table_whose_markers_are_never_seen_is_said_once_per_reason(tmp_path) -> None:
    """`vision watch --table` said the same calibration warning for every frame (a
    camera that never sees the markers: ten lines a second); now once, and again only
    when the reason changes, as the table service says it."""
    video = tmp_path / "cloth.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (320, 240))
    for i in range(30):
        writer.write(np.full((240, 320, 3), (40, 90 + i % 3, 40), np.uint8))
    writer.release()
    out = io.StringIO()
    watch(str(video), table=str(LAYOUT_DIR / "cribbage-2.toml"), out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 1, lines
    assert lines[0]["warning"].startswith("frame 0: need 4 of the layout's markers, found 0")
    assert lines[0]["warning"].endswith("; said again only when it changes")


def test_a_packs_pips_lie_clear_of_its_indices() -> None:
    """A printer lays a number card's pips clear of its indices. The one-pack drawing
    of seed 62's 10H had its top pip run into the index's heart (one blob of ink), and
    the live check missed that card at both corners: a fault of the drawing, not of
    the reading. Such a drawing is made again; the rest of the pack stays as drawn."""
    import zlib

    from vision.faces import render_face
    from vision.tablevideo import _indices_clear

    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    table = _Table(layout, 2.36, 40.0, 62, one_pack=True)
    k = table._style("8S", 0)[1]

    def first(card: str):
        rng = np.random.default_rng([62, zlib.crc32(card.encode()), k])
        return render_face(card, rng, pack=np.random.default_rng([62, 0, k]))

    assert not _indices_clear(first("10H"))
    assert _indices_clear(table.face("10H"))
    assert not np.array_equal(table.face("10H").image, first("10H").image)
    for card in ("9H", "10C", "7S"):  # clear at the first drawing: as they were
        assert _indices_clear(first(card))
        assert np.array_equal(table.face(card).image, first(card).image)
