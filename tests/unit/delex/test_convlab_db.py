"""The ConvLab-2 query as AuGPT uses it (thu-coai/ConvLab-2@e368deeb dbquery.py)."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.prepare.delex.convlab_db import ConvlabDatabase, result_field
from tests.unit.delex.fixtures import tiny_dbs


def test_result_fields():
    assert [result_field(k) for k in ("leaveAt", "entrance fee", "taxi_types", "postcode")] == \
        ["leave at", "fee", "brand", "postcode"]


def test_exact_case_insensitive_match_and_reference_field():
    db = ConvlabDatabase(tiny_dbs())
    rows = db.query("attraction", {"type": "Museum", "area": "west"})
    assert [r["name"] for r in rows] == ["cafe jello gallery"]
    assert rows[0]["reference"] == "00000000" and "location" not in rows[0]


def test_time_bounds_and_unparsable_constraints_are_ignored():
    db = ConvlabDatabase(tiny_dbs())
    assert [r["id"] for r in db.query("train", {"leave at": "07:00"})] == ["TR2125"]
    early = db.query("train", {"arrive by": "06:00", "day": "monday"})
    assert [r["id"] for r in early] == ["TR7075"]
    # 'after 7' cannot be parsed: ignored, like a slot the records lack
    assert len(db.query("train", {"leave at": "after 7", "people": "2", "food": "x"})) == 3


def test_name_retry_with_the_database_name():
    db = ConvlabDatabase(tiny_dbs(), clear_values={"college"})
    assert db.query("attraction", {"name": "the magdalene"})[0]["name"] == "magdalene college"
    assert db.query("attraction", {"name": "unknown place"}) == []


def test_police_hospital_taxi():
    db = ConvlabDatabase(tiny_dbs())
    assert len(db.query("police", {})) == 1
    assert db.query("hospital", {"department": "Neurology "})[0]["phone"] == "01223274680"
    assert db.query("hospital", {"department": "x"}) == []
    assert set(db.query("taxi", {"leave at": "10:00"})[0]) == {"color", "brand", "phone", "car"}


def test_missing_domain():
    dbs = tiny_dbs()
    del dbs["train"]
    with pytest.raises(InputError, match="train"):
        ConvlabDatabase(dbs)
