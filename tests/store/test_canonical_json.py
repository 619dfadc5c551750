"""``store.canonical_json`` writes the bytes ``rfc8785`` writes, or refuses what it refuses.

The hash chain depends on it: one byte of difference and every stored game would fail verify."""

from __future__ import annotations

from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from store.canonical_json import CanonicalizationError, _plain, canonical

# Every kind of character the fast path must escape or pass through as RFC 8785 does: controls,
# quotes, backslashes, DEL, BMP letters, private-use (sorts after surrogates in UTF-16) and
# characters beyond the BMP (their UTF-16 surrogates sort before U+E000).
text = st.text(
    st.one_of(
        st.characters(max_codepoint=0x7F),
        st.characters(min_codepoint=0x80, max_codepoint=0xD7FF),
        st.characters(min_codepoint=0xE000, max_codepoint=0xFFFF),
        st.characters(min_codepoint=0x10000),
    ),
    max_size=12,
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    st.integers(),  # past 2**53 - 1: refused by both
    st.floats(allow_nan=False),  # RFC 8785's ECMAScript number form: the slow path
    text,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=20,
)


def _either(fn: Any, value: Any) -> bytes | str:
    try:
        out: bytes = fn(value)
        return out
    except CanonicalizationError as err:
        return f"refused: {type(err).__name__}"


@settings(max_examples=600, deadline=None)
@given(values)
def test_the_bytes_are_rfc8785s_for_any_json_value(value: Any) -> None:
    assert _either(canonical, value) == _either(rfc8785.dumps, value)


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [True, None, 'x\n\t"\\\x00\x1f\x7f'], "ä": {}},
        {"\ue000": 1, "\U0001f600": 2},  # code-point order puts U+E000 first, UTF-16 the emoji
        {"z": "\U0001f600 é"},
        [2**53 - 1, -(2**53) + 1, 0],
    ],
)
def test_examples_that_would_sort_or_escape_differently_match(value: Any) -> None:
    assert canonical(value) == rfc8785.dumps(value)


def test_values_the_fast_path_leaves_to_rfc8785() -> None:
    # The slow path is what keeps these exact: the C encoder would write 1e16 as 1e+16 and
    # 1e-7 as 1e-07, and put a supplementary key out of UTF-16 order.
    for value in (1e16, 1e-7, {"\U0001f600": 1, "\ue000": 2}, 2**53, {1: "a"}):
        assert not _plain(value)
    assert canonical(1e16) == b"10000000000000000" == rfc8785.dumps(1e16)
    assert canonical(1e-7) == b"1e-7" == rfc8785.dumps(1e-7)


@pytest.mark.parametrize("bad", [2**53, -(2**53), float("nan"), "\ud800", {"k": ["\udfff"]}])
def test_what_rfc8785_refuses_is_refused(bad: Any) -> None:
    with pytest.raises(CanonicalizationError):
        rfc8785.dumps(bad)
    with pytest.raises(CanonicalizationError):
        canonical(bad)
