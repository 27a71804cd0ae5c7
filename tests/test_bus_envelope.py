"""The envelope codec: round trips, one clear error per bad payload, and fuzzing."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.bus.envelope import (
    KINDS,
    MAX_DEPTH,
    MAX_PAYLOAD,
    Envelope,
    PayloadError,
    Stamper,
    decode,
    encode,
    load_schema,
)

OBSERVATION = {
    "kind": "placed",
    "card": "10H",
    "zone": "play.0",
    "zone_kind": "play",
    "seat": 0,
    "from_zone": None,
    "t": 12.5,
    "confidence": 0.97,
    "frames": 4,
    "position_mm": [120.0, 88.5],
}
GOOD_BODIES: dict[str, dict[str, Any]] = {
    "observation": OBSERVATION,
    "command": {"command": "replace", "event": 12, "old": "QS", "new": "QC", "seat": 2},
    "event": {"type": "points_pegged", "seat": 1, "points": 2, "reason": "fifteen"},
    "state": {"game": "cribbage", "scores": [12, 30], "turn": 1},
    "status": {"state": "online", "component": "referee", "detail": "v0.1"},
    "error": {"reason": "body.card: bad", "topic": "kiebitz/v1/t1/table/observation"},
}


def stamper() -> Stamper:
    return Stamper("t1/table", clock=lambda: 1700000000.5, ids=lambda: "a" * 32)


def raw(kind: str, body: Any, /, **envelope: Any) -> bytes:
    data = {"schema": 1, "id": "b" * 32, "sender": "t1/x", "seq": 1, "ts": 1.0, "kind": kind}
    data["body"] = body
    data.update(envelope)
    return json.dumps(data).encode()


@pytest.mark.parametrize("kind", KINDS)
def test_round_trip_each_kind(kind: str) -> None:
    env = stamper().stamp(kind, GOOD_BODIES[kind])
    data = encode(env)
    assert data == json.dumps(env.to_json(), separators=(",", ":")).encode()  # compact
    assert decode(data, kind=kind) == env
    assert decode(data) == env


def test_stamper_counts_and_uses_clock_and_ids() -> None:
    ids = iter(["1" * 32, "2" * 32])
    times = iter([5.0, 6.0])
    s = Stamper("t1/referee", clock=lambda: next(times), ids=lambda: next(ids), start_seq=7)
    a = s.stamp("event", {"type": "x"})
    b = s.stamp("event", {"type": "y"})
    assert (a.seq, a.id, a.ts, b.seq, b.id, b.ts) == (7, "1" * 32, 5.0, 8, "2" * 32, 6.0)
    assert a.sender == "t1/referee" and a.schema == 1
    default = Stamper("t1/referee").stamp("event", {"type": "x"})
    assert len(default.id) == 32 and int(default.id, 16) >= 0


def test_unicode_survives() -> None:
    env = stamper().stamp("event", {"type": "note", "text": "Kiebitz 🂡 Grand ouvert"})
    data = encode(env)
    assert "🂡".encode() in data
    assert decode(data).body["text"] == "Kiebitz 🂡 Grand ouvert"


@pytest.mark.parametrize(
    ("kind", "body", "message"),
    [
        ("observation", {**OBSERVATION, "card": "ZZ"}, "body.card: 'ZZ' does not match"),
        ("observation", {**OBSERVATION, "card": "1H"}, "body.card: '1H' does not match"),
        ("observation", {**OBSERVATION, "seat": 8}, "body.seat: 8 is greater than"),
        ("observation", {**OBSERVATION, "confidence": 1.5}, "body.confidence: 1.5 is greater"),
        ("observation", {**OBSERVATION, "t": -1}, "body.t: -1 is less than"),
        ("observation", {**OBSERVATION, "zone_kind": "table"}, "body.zone_kind: 'table'"),
        ("observation", {**OBSERVATION, "extra": 1}, "body: Additional properties"),
        ("observation", {**OBSERVATION, "position_mm": [1, "x"]}, "body.position_mm[1]: 'x'"),
        ("observation", {k: v for k, v in OBSERVATION.items() if k != "t"}, "body: 't' is a"),
        ("command", {"command": "cheat"}, "body.command: 'cheat' is not one of"),
        # no command at all: it was "'old' is a required property" (the replace branch)
        ("command", {"seat": 1}, "body: 'command' is a required property"),
        ("command", {"command": "undo", "event": -1}, "body.event: -1 is less than"),
        ("command", {"command": "new_game", "players": 7}, "body.players: 7 is greater"),
        ("command", {"command": "replace", "old": "QS"}, "body: 'new' is a required"),
        ("command", {"command": "contract", "hand": "yes"}, "body.hand: 'yes' is not of type"),
        ("command", {"command": "penalty", "reason": "x" * 201}, "body.reason: "),
        ("event", {"seat": 1}, "body: 'type' is a required property"),
        ("event", {"type": "x", **{f"k{i}": i for i in range(200)}}, "body: "),
        ("state", {"scores": []}, "body: 'game' is a required property"),
        ("status", {"state": "asleep", "component": "x"}, "body.state: 'asleep' is not one"),
        ("error", {"reason": "r"}, "body: 'topic' is a required property"),
    ],
)
def test_bad_bodies_name_the_path(kind: str, body: Any, message: str) -> None:
    with pytest.raises(PayloadError) as info:
        decode(raw(kind, body), kind=kind)
    assert str(info.value).startswith(message), str(info.value)
    env = Envelope(1, "c" * 32, "t1/x", 1, 1.0, kind, body)
    with pytest.raises(PayloadError):
        encode(env)  # the sender is stopped too


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"\xff\xfe", "envelope: not UTF-8 at byte 0"),
        (b"", "envelope: not JSON"),
        (b"{", "envelope: not JSON"),
        (b'"x"', "envelope: 'x' is not of type 'object'"),
        (b'{"a": NaN}', "envelope: NaN is not allowed"),
        (b'{"a": -Infinity}', "envelope: -Infinity is not allowed"),
        (b'{"a": 1e999}', "envelope: number 1e999 is out of range"),
        (b'{"a": 1, "a": 2}', "envelope: duplicate key 'a'"),
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "envelope: nested 33 deep"),
        (b" " * (MAX_PAYLOAD + 1), "envelope: payload of 65537 bytes is over 65536"),
        (b'{"a": ' + b"1" * 5000 + b"}", "envelope: not JSON: a number too long to read"),
        (raw("event", {"type": "x"}, schema=2), "schema: 1 was expected"),
        (raw("event", {"type": "x"}, seq=0), "seq: 0 is less than the minimum of 1"),
        (raw("event", {"type": "x"}, seq=True), "seq: True is not of type 'integer'"),
        (raw("event", {"type": "x"}, id="xyz"), "id: 'xyz' does not match"),
        (raw("event", {"type": "x"}, sender="referee"), "sender: 'referee' does not match"),
        (raw("event", {"type": "x"}, kind="gossip"), "kind: 'gossip' is not one of"),
        (raw("event", {"type": "x"}, extra=1), "envelope: Additional properties"),
        (raw("event", ["type"]), "body: ['type'] is not of type 'object'"),
    ],
)
def test_bad_payloads_say_what_and_where(payload: bytes, message: str) -> None:
    with pytest.raises(PayloadError) as info:
        decode(payload)
    assert str(info.value).startswith(message), str(info.value)


def test_strings_with_brackets_are_not_nesting() -> None:
    env = stamper().stamp("event", {"type": "x", "text": "[{" * 100 + '\\"'})
    assert decode(encode(env)).body["text"].startswith("[{[{")


def test_nesting_up_to_the_limit_is_fine() -> None:
    inner: Any = "leaf"
    for _ in range(MAX_DEPTH - 2):  # envelope and body take two levels
        inner = [inner]
    env = stamper().stamp("event", {"type": "deep", "v": inner})
    assert decode(encode(env)) == env


def test_wrong_kind_is_named() -> None:
    data = encode(stamper().stamp("event", {"type": "x"}))
    with pytest.raises(PayloadError, match="kind: expected 'command', got 'event'"):
        decode(data, kind="command")


def test_long_values_are_cut_in_messages() -> None:
    with pytest.raises(PayloadError) as info:
        decode(raw("observation", {**OBSERVATION, "card": "Q" * 60000}))
    assert len(str(info.value)) <= 300


def test_schemas_are_package_data_and_draft_2020_12() -> None:
    for kind in (*KINDS, "envelope"):
        assert load_schema(kind)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# --------------------------------------------------------------------------- fuzz


def only_payload_errors(payload: bytes) -> None:
    try:
        env = decode(payload)
    except PayloadError:
        return
    assert decode(encode(env)) == env  # whatever is accepted re-encodes to the same


@given(st.binary(max_size=2000))
def test_fuzz_random_bytes(payload: bytes) -> None:
    only_payload_errors(payload)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=50),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=40,
)


@given(json_values)
def test_fuzz_random_json(value: Any) -> None:
    only_payload_errors(json.dumps(value).encode())


@given(st.sampled_from(KINDS), json_values, st.integers(), st.sampled_from(["t1/x", "t2/y", 5]))
def test_fuzz_envelopes_with_random_bodies(kind: str, body: Any, seq: int, sender: Any) -> None:
    only_payload_errors(raw(kind, body, seq=seq, sender=sender))
    if isinstance(body, dict):
        only_payload_errors(raw(kind, {**GOOD_BODIES[kind], **body}, seq=seq, sender=sender))


@given(st.integers(min_value=1, max_value=5000), st.sampled_from(["[", '{"a":', '[{"b":']))
def test_fuzz_deep_nesting(depth: int, opener: str) -> None:
    closer = {"[": "]", '{"a":': "}", '[{"b":': "}]"}[opener]
    only_payload_errors((opener * depth).encode())  # unclosed
    only_payload_errors((opener * depth + "1" + closer * depth).encode())
    nested = (opener * depth + "1" + closer * depth).encode()
    only_payload_errors(raw("event", {"type": "x"}).replace(b'"x"', b'"x", "v": ' + nested))


@given(st.integers(min_value=0, max_value=200_000), st.characters())
def test_fuzz_huge_strings(size: int, char: str) -> None:
    text = char * size
    only_payload_errors(raw("event", {"type": "x", "text": text}) if char.isprintable() else b"")
    only_payload_errors(json.dumps({"sender": text}).encode())


def test_every_example_in_the_doc_decodes() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "mqtt.md").read_text()
    examples = re.findall(r"```json\n(.*?)\n```", doc, re.DOTALL)
    kinds = [decode(example.encode()).kind for example in examples]
    assert set(kinds) == set(KINDS)
