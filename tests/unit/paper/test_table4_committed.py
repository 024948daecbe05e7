"""The committed Table 4 (``results/records/bleu_styles.json``, in Git) against the published
values of Nekvinda & Dušek 2021, Table 4 (``workflow/resources/published/nekvinda2021.yaml``;
spec-paper-tables §1).

Acceptance (issue 20): HDSA 13/13 equal after rounding to one decimal; DAMD, AuGPT, UniConv and
LAVA 13/13 within ±0.3 BLEU; span 12/13, the one miss explained in the table's notes (the paper
used MultiWOZ 2.2 spans, the mirror has 2.1's). The DAMD and UniConv rows are the with-pairs
rows (``mapping.pair`` applied, signature ``pairs:yes``), the pipeline's default.

This is a check of the committed artifact only: every row, span included, is recomputed from
the mirror in the real-data tier (tests/integration/test_delex_styles_real.py), where a fresh
``score-bleu-styles`` + ``tables-bleu-styles`` run must give this file byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mwzrepro.bleu.params import BleuStylesParams
from mwzrepro.paper.published import read_published
from mwzrepro.paper.table4 import TOLERANCE

REPO = Path(__file__).resolve().parents[3]
PUBLISHED = read_published(REPO / "workflow/resources/published/nekvinda2021.yaml").table4
COMMITTED = json.loads((REPO / "results/records/bleu_styles.json").read_text(encoding="utf-8"))


def _ours(style: str) -> list[float]:
    row = COMMITTED["bleu_styles"][style]
    return [row[s] for s in PUBLISHED.systems]


def _misses(style: str) -> list[str]:
    """Systems further than :data:`TOLERANCE` from the paper in row ``style``."""
    return [s for s, ours, paper in zip(PUBLISHED.systems, _ours(style), PUBLISHED.rows[style])
            if abs(ours - paper) > TOLERANCE + 1e-9]


def test_committed_rows_cover_the_papers_systems():
    assert list(COMMITTED["bleu_styles"]) == ["span", "hdsa", "damd", "augpt", "uniconv", "lava"]
    assert all(list(COMMITTED["bleu_styles"][s]) == PUBLISHED.systems
               for s in COMMITTED["bleu_styles"])
    assert COMMITTED["paper"]["hdsa"] == dict(zip(PUBLISHED.systems, PUBLISHED.rows["hdsa"]))


def test_hdsa_row_equals_the_paper_after_rounding():
    assert [round(v, 1) for v in _ours("hdsa")] == PUBLISHED.rows["hdsa"]
    assert COMMITTED["within_tolerance"]["hdsa"] == 13


@pytest.mark.parametrize("style", ["damd", "augpt", "uniconv", "lava"])
def test_row_within_tolerance_for_all_13_systems(style):
    assert _misses(style) == []
    assert COMMITTED["within_tolerance"][style] == 13


def test_span_row_misses_one_system_and_the_notes_say_why():
    # AuGPT: 16.38 against the paper's 16.8, whose span row used MultiWOZ 2.2 spans
    assert _misses("span") == ["augpt"]
    assert COMMITTED["within_tolerance"]["span"] == 12
    assert COMMITTED["bleu_styles"]["span"]["augpt"] == pytest.approx(16.3806, abs=5e-5)
    assert "2.2 spans" in PUBLISHED.notes["span"] and "AuGPT" in PUBLISHED.notes["span"]


def test_damd_and_uniconv_rows_use_the_word_pairs():
    assert BleuStylesParams().word_pairs is True
    for style in ("damd", "uniconv"):
        assert f"|ref:{style}|pairs:yes|" in COMMITTED["signatures"][style]
    assert all("pairs:" not in COMMITTED["signatures"][s]
               for s in ("span", "hdsa", "augpt", "lava"))
    # with the pairs DAMD's own system gains 0.32 BLEU over the no-pairs row (16.58)
    assert COMMITTED["bleu_styles"]["damd"]["damd"] == pytest.approx(16.9029, abs=5e-5)
    assert COMMITTED["bleu_styles"]["uniconv"]["uniconv"] == pytest.approx(18.8194, abs=5e-5)
