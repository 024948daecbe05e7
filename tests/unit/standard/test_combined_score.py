"""The combined score, (Inform + Success) / 2 + BLEU, by hand, and None whenever one of the
three is missing or NaN."""

from __future__ import annotations

import pytest

from mwzrepro.standard.combined_score import combined_score

NAN = float("nan")


def test_the_formula():
    assert combined_score(83.4, 70.2, 17.5) == pytest.approx(94.3)   # 76.8 + 17.5


@pytest.mark.parametrize("figures", [(None, 70.0, 17.0), (80.0, None, 17.0), (80.0, 70.0, None),
                                     (NAN, 70.0, 17.0), (80.0, NAN, 17.0), (80.0, 70.0, NAN)])
def test_one_missing_figure_gives_no_combined(figures):
    assert combined_score(*figures) is None
