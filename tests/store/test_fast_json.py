"""``store.fast_json``: orjson where it reads back as the standard library would, the standard
library where it would not (the stored records and an action's answer go through it)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from store import fast_json
from store.records import PlainJSONTranscoder

VALUES: list[Any] = [
    {"type": "CountersAdded", "data": {"target": {"player": "P1"}, "kind": "rad", "amount": 1}},
    {"name": "Jötun Grunt — «ñ» 漢字 \U0001f600", "tabs": 'a\tb\nc\u0001\u001f"\\', "line": "\u2028\u2029"},
    [1, -2, 0, 2**53 - 1, 2**63 - 1, -(2**63), True, False, None, 1.5, 1e16, -0.0, 1e-7],
    (1, 2, ("nested", [3])),
    {"z": 1, "a": 2, "m": {"y": [], "b": {}}},
    {1: "one", 2.5: "x", None: "n", False: "f"},  # not string keys: json writes them as strings
    {"huge": 2**70, "negative": -(2**64)},  # past 64 bits: json writes them exactly
]


@pytest.mark.parametrize("value", VALUES)
def test_dumps_reads_back_as_the_standard_library_writes(value: Any) -> None:
    expected = json.loads(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    assert json.loads(fast_json.dumps(value)) == expected
    assert fast_json.loads(fast_json.dumps(value)) == expected


def test_a_lone_surrogate_is_refused_as_before() -> None:
    with pytest.raises(UnicodeEncodeError):
        fast_json.dumps({"bad": "\ud800"})


@pytest.mark.parametrize(
    "text",
    ['{"n": NaN}', "[Infinity, -Infinity]", '{"big": 123456789012345678901234567890}', '["\\ud800"]', '{"a": 1}'],
)
def test_loads_reads_what_the_standard_library_reads(text: str) -> None:
    expected = json.loads(text)
    for data in (text, text.encode(), memoryview(text.encode()), bytearray(text.encode())):
        got = fast_json.loads(data)
        assert json.dumps(got) == json.dumps(expected)  # NaN != NaN: compare the texts


def test_bad_json_is_refused() -> None:
    with pytest.raises(ValueError):
        fast_json.loads(b"{not json")


def test_the_transcoder_round_trips_a_record() -> None:
    transcoder = PlainJSONTranscoder()
    record = {"originator_id": "g-1", "data": {"cards": ["Forest", "Island"], "note": "é\n"}, "rule": None}
    assert transcoder.decode(transcoder.encode(record)) == record
    assert transcoder.decode(memoryview(transcoder.encode(record))) == record  # type: ignore[arg-type]
    assert transcoder.decode(json.dumps(record)) == record  # type: ignore[arg-type]  # a row hand-edited into TEXT
