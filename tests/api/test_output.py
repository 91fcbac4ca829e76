"""The one JSON serialization (api/output.py) writes orjson's bytes where they are json.dumps's, and json's
elsewhere: the bytes are always those of ``json.dumps(document, ensure_ascii=False, indent=2) + "\\n"``."""

from __future__ import annotations

import enum
import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.output import dumps, dumps_bytes


def reference(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


class Colour(enum.StrEnum):
    RED = "red"


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()  # beyond 64 bits too (orjson refuses them: json writes)
    | st.floats(allow_nan=False, allow_infinity=False)  # exponents: « 1e-07 » (json) and « 1e-7 » (orjson)
    | st.text()  # control characters, quotes, backslashes, every plane
)
DOCUMENTS = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
)


@settings(max_examples=500, deadline=None)
@given(DOCUMENTS)
def test_the_bytes_are_json_dumps_bytes(document: Any) -> None:
    assert dumps(document) == reference(document)
    assert dumps_bytes(document) == reference(document).encode("utf-8")


@pytest.mark.parametrize(
    "document",
    [
        {"ratio": 1e-07, "big": 1e16, "small": 5e-324, "text": "2e-3 is not a number here"},
        {"ratio": 1e-05, "deep": [[{"x": 0.00001}]], "in a tuple": (1.5e-6,)},  # orjson: « 0.00001 »
        {"id": 2**70, "negative": -(2**64)},
        {"colour": Colour.RED, "colours": [Colour.RED]},
        {"": {}, "empty": [], "nested": [[], {}]},
        {"control": "\x00\x01\x1f\x7f\u2028\u2029\ufeff", "quote": '"\\'},
        {"french": "« 7 000 euros » — véhicule électrique, n° 2020-656"},
    ],
)
def test_the_cases_where_the_two_writers_could_differ(document: Any) -> None:
    assert dumps(document) == reference(document)


def test_what_json_refuses_is_refused_still() -> None:
    for document in ({"day": date(2020, 7, 15)}, {"amount": Decimal("1.00")}, {1: "non-string key"}):
        try:
            expected = reference(document)
        except TypeError:
            with pytest.raises(TypeError):
                dumps(document)
        else:
            assert dumps(document) == expected
