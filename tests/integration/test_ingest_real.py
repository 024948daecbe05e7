"""The ConvLab reader on the real MultiWOZ 2.0 (ConvLab) and 2.1 (ConvLab-2) test and
validation zips of the data mirror. Figures asserted here come from the specs
(spec-standard-evaluation §5.4: 1000 test dialogues, 7372 system turns; spec-dst-metrics §2.3:
363 'none' values in the 2.1 test states and none in 2.0; §2.4: the PMUL2563 example) or were
measured on the pinned mirror files (pinned by git blob id, so they cannot drift)."""

from __future__ import annotations

import json
import zipfile

import pytest

from mwzrepro.prepare.ingest import CANONICAL_TABLES
from mwzrepro.prepare.ingest.convlab import read_convlab
from mwzrepro.core.schemas import validate
from tests.conftest import mirror_file

pytestmark = pytest.mark.mirror

SOURCES = {"mwz21": "thu-coai/ConvLab-2", "mwz20": "ConvLab/ConvLab"}

#: MultiWOZ 2.2 span slot names (spec-standard-evaluation §5.4).
SPAN_SLOTS_22 = {
    "name", "address", "postcode", "phone", "area", "food", "pricerange", "type", "choice",
    "ref", "bookday", "bookpeople", "bookstay", "booktime", "day", "arriveby", "leaveat",
    "departure", "destination", "trainid", "price", "duration", "stars", "entrancefee",
    "openhours", "department",
}

#: The 30 domain-slot pairs of spec-dst-metrics §2.2.
DST_SLOTS = {
    ("taxi", s) for s in ("leaveat", "destination", "departure", "arriveby")
} | {
    ("restaurant", s) for s in ("book people", "book day", "book time", "food", "pricerange",
                                "name", "area")
} | {
    ("hotel", s) for s in ("book people", "book day", "book stay", "name", "area", "parking",
                           "pricerange", "stars", "internet", "type")
} | {
    ("attraction", s) for s in ("type", "name", "area")
} | {
    ("train", s) for s in ("book people", "leaveat", "destination", "day", "arriveby",
                           "departure")
}


@pytest.fixture(scope="module")
def zips(mirror):
    return {
        (version, split): mirror_file(mirror, repo, f"data/multiwoz/{split}.json.zip")
        for version, repo in SOURCES.items()
        for split in ("test", "val")
    }


@pytest.fixture(scope="module")
def ingested(zips):
    return {key: read_convlab(path, key[1]) for key, path in zips.items()}


@pytest.mark.parametrize("version", ["mwz21", "mwz20"])
@pytest.mark.parametrize(
    "split, n_dialogues, n_system_turns", [("test", 1000, 7372), ("val", 999, 7365)]
)
def test_sizes(ingested, version, split, n_dialogues, n_system_turns):
    # The ConvLab copies of the validation split (and their valListFile) hold 999 dialogues.
    tables, _ = ingested[(version, split)]
    assert len(tables["dialogues"]) == n_dialogues
    turns = tables["turns"]
    assert (turns.speaker == "system").sum() == n_system_turns
    assert (turns.speaker == "user").sum() == n_system_turns
    assert set(tables["dialogues"].split) == {split}


@pytest.mark.parametrize("version", ["mwz21", "mwz20"])
def test_test_ids_match_the_official_list(ingested, mirror, version):
    listed = mirror_file(mirror, "thu-coai/ConvLab-2", "data/multiwoz/testListFile")
    ids = {line.strip().lower().removesuffix(".json")
           for line in listed.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert set(ingested[(version, "test")][0]["dialogues"].dialogue_id) == ids


@pytest.mark.parametrize("key", [(v, s) for v in SOURCES for s in ("test", "val")])
def test_tables_valid_and_turns_consistent(ingested, key):
    tables, _ = ingested[key]
    assert tuple(tables) == CANONICAL_TABLES
    for name, df in tables.items():
        validate(df, name, where=f"{key} {name}")
    turns = tables["turns"]
    n = turns.groupby("dialogue_id", sort=False).turn_id.agg(["min", "max", "count"])
    expected = tables["dialogues"].set_index("dialogue_id").n_turns
    assert (n["min"] == 0).all() and (n["max"] == n["count"] - 1).all()
    assert n["count"].reindex(expected.index).equals(expected.astype(n["count"].dtype))
    assert ((turns.turn_id % 2 == 0) == (turns.speaker == "user")).all()
    assert tables["dialogues"].dialogue_id.str.fullmatch(r"[a-z]+\d+").all()


@pytest.mark.parametrize("version", ["mwz21", "mwz20"])
@pytest.mark.parametrize(
    "split, expected",
    [
        ("test", [("PMUL4672", 3, ["Attraction-Inform", "Type", "boat", 3, 2]),
                  ("PMUL2119", 9, ["Attraction-Inform", "Choice", "all", 8, 7])]),
        ("val", [("MUL2418", 7, ["Attraction-Inform", "Type", "boat", 6, 5]),
                 ("PMUL3320", 9, ["Attraction-Recommend", "Type", "boat", 1, 0])]),
    ],
)
def test_only_the_inverted_spans_are_skipped(ingested, version, split, expected):
    _, skipped = ingested[(version, split)]
    got = [(s["where"].split(": ", 1)[1], s["span"]) for s in skipped]
    assert got == [(f"dialogue {d}, turn {t}", span) for d, t, span in expected]


@pytest.mark.parametrize("version", ["mwz21", "mwz20"])
def test_pmul2563_turn_2_state(ingested, version):
    # spec-dst-metrics §2.4 worked example (log[5].metadata.hotel)
    states = ingested[(version, "test")][0]["states"]
    s = states[(states.dialogue_id == "pmul2563") & (states.turn == 2)]
    assert set(zip(s.domain, s.slot, s.value)) == {
        ("hotel", "book people", "4"), ("hotel", "book day", "wednesday"),
        ("hotel", "book stay", "2"), ("hotel", "name", "cityroomz"),
        ("hotel", "area", "centre"), ("hotel", "stars", "0"),
    }


@pytest.mark.parametrize(
    "version, n_rows, dontcare, n_none_raw",
    [("mwz21", 41843, {"dontcare": 1169}, 363), ("mwz20", 38322, {"dont care": 459}, 0)],
)
def test_states(ingested, zips, version, n_rows, dontcare, n_none_raw):
    states = ingested[(version, "test")][0]["states"]
    assert len(states) == n_rows
    assert set(zip(states.domain, states.slot)) == DST_SLOTS
    assert not states.value.isin(["", "not mentioned", "none"]).any()
    care = states.value[states.value.str.contains("care")].value_counts().to_dict()
    assert care == dontcare
    # spec-dst-metrics §2.3: 'none' occurs 363 times in the 2.1 test states, never in 2.0
    with zipfile.ZipFile(zips[(version, "test")]) as zf:
        raw = json.loads(zf.read(zf.namelist()[0]))
    none = sum(
        v == "none"
        for d in raw.values() for e in d["log"][1::2] for parts in e["metadata"].values()
        for part in ("semi", "book") for k, v in parts.get(part, {}).items() if k != "booked"
    )
    assert none == n_none_raw


@pytest.mark.parametrize(
    "version, n_spans, n_agree", [("mwz21", 18990, 18292), ("mwz20", 18614, 18008)]
)
def test_span_text_agrees_with_value(ingested, version, n_spans, n_agree):
    tables, _ = ingested[(version, "test")]
    spans = tables["spans"].merge(tables["turns"], on=["dialogue_id", "turn_id"])
    assert len(spans) == n_spans
    assert set(spans.slot) <= SPAN_SLOTS_22
    agree = sum(
        text[a:b].lower() == value.lower()
        for text, a, b, value in zip(spans.text, spans.start, spans.end, spans.value)
    )
    # measured: 96.3 % (2.1) and 96.7 % (2.0); the rest are annotation values that differ
    # from the words they mark (e.g. times, 'Choice' counts), not offset errors
    assert agree == n_agree
    assert agree / n_spans > 0.96
    assert ((spans.start < spans.end) & (spans.end <= spans.text.str.len())).all()
