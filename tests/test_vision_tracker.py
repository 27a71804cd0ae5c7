"""The tracker: sightings per frame to placed / moved / removed observations."""

from __future__ import annotations

import pytest

from vision.tracker import Sighting, Tracker

FPS = 30


def frames(seconds: float, start: float = 0.0):
    n = round(seconds * FPS)
    return [start + i / FPS for i in range(n)]


def run(tracker, times, sightings, occluded=None):
    events = []
    for t in times:
        events.extend(tracker.update(t, sightings, occluded))
    return events


def qh(zone="play.0", x=400.0, y=250.0, conf=0.95):
    return Sighting("QH", conf, x, y, zone)


def test_placed_once_after_the_stable_time_not_before():
    tr = Tracker(stable_s=0.3)
    assert run(tr, frames(0.25), [qh()]) == []
    events = run(tr, frames(1.0, 0.25), [qh()])
    assert [(e.kind, e.card, e.zone) for e in events] == [("placed", "QH", "play.0")]
    assert (
        events[0].t >= 0.3 and events[0].frames >= 9 and events[0].confidence == pytest.approx(0.95)
    )
    assert tr.placed == {"QH": "play.0"}


def test_a_card_in_a_passing_hand_produces_nothing():
    tr = Tracker(stable_s=0.3)
    t = frames(3.0)
    events = []
    for i, ti in enumerate(t):
        # the card flickers into view in 8 of every 30 frames, at moving positions
        seen = [qh(x=100 + 10 * i)] if i % 30 < 8 else []
        events += tr.update(ti, seen)
    assert events == [] and tr.placed == {}


def test_a_hand_over_a_placed_card_does_not_remove_it():
    tr = Tracker(stable_s=0.3, absent_s=1.0)
    run(tr, frames(1.0), [qh()])
    covered = run(tr, frames(3.0, 1.0), [], occluded=lambda x, y: True)
    assert covered == [] and tr.placed == {"QH": "play.0"}
    assert run(tr, frames(0.5, 4.0), [qh()]) == []  # seen again: still the same card


def test_a_card_taken_away_is_removed_after_the_absence_time():
    tr = Tracker(stable_s=0.3, absent_s=1.0)
    run(tr, frames(1.0), [qh()])
    assert run(tr, frames(0.9, 1.0), []) == []
    events = run(tr, frames(0.5, 1.9), [])
    assert [(e.kind, e.card, e.from_zone) for e in events] == [("removed", "QH", "play.0")]
    assert tr.placed == {}


def test_dropped_frames_are_bridged():
    tr = Tracker(stable_s=0.3, absent_s=1.0, gap_s=0.25)
    events = []
    for i, t in enumerate(frames(2.0)):
        events += tr.update(t, [qh()] if i % 4 else [])  # every fourth frame missed
    assert [e.kind for e in events] == ["placed"]


def test_a_card_moved_between_zones_is_one_move():
    tr = Tracker(stable_s=0.3, absent_s=1.0)
    run(tr, frames(1.0), [qh()])
    events = run(tr, frames(0.3, 1.0), [])  # picked up: gone for a moment
    events += run(tr, frames(1.0, 1.3), [qh(zone="show.0", y=120.0)])
    assert [(e.kind, e.from_zone, e.zone) for e in events] == [("moved", "play.0", "show.0")]


def test_low_confidence_sightings_do_not_place_cards():
    tr = Tracker(min_confidence=0.5)
    assert run(tr, frames(2.0), [qh(conf=0.3)]) == []


def test_the_best_of_two_sightings_of_one_card_is_used():
    tr = Tracker()
    events = run(tr, frames(1.0), [qh(conf=0.6, zone="crib"), qh(conf=0.9)])
    assert [(e.kind, e.zone) for e in events] == [("placed", "play.0")]


def test_times_must_be_positive():
    with pytest.raises(ValueError):
        Tracker(stable_s=0)
