"""``score A B C --shared``: rows that differ in coverage scored on what they all cover.

Addendum to the comparability rule (:mod:`mwzrepro.scorer.leaderboard.comparability`): a row
that covers fewer dialogues or turns than the others (PPTOD's 7,371 of 7,372 turns) is
otherwise not comparable (``cov:`` differs: no rank, no paired test). With ``shared`` every
file is cut to the dialogues all files give and, in each, to the turns all give (a truncated
dialogue is a prefix of the test dialogue's turns, spec-standard-evaluation §2), then scored
as it is, so each row's figures and signatures (``cov:``) are those of the same subset and the
rows are comparable again, paired over the shared dialogues, as ``compare`` does with two
files. A loud warning says so: the figures are not the files' own scores. Why: one missing
turn should not take a system out of the ranks when the user asks for the shared comparison.
Signature fields: none added (``cov:`` records the subset).

>>> rows = {"a": {"d1": [1, 2, 3], "d2": [1]}, "b": {"D1.json": [1, 2], "d2": [1]},
...         "c": {"d1": [1, 2, 3], "d2": [1], "d3": [1]}}
>>> cut, shared = shared_subset(rows)
>>> cut["b"], cut["c"]
({'D1.json': [1, 2], 'd2': [1]}, {'d1': [1, 2], 'd2': [1]})
>>> print(shared.warning())
SHARED COVERAGE (--shared): the rows give 2 to 3 dialogues and 3 to 5 turns; every row is scored on the 2 dialogues and 3 turns all of them give (paired): these figures are not the files' own scores
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.ids import canonical_dialogue_id

__all__ = ["SharedCoverage", "shared_subset"]


@dataclass(frozen=True)
class SharedCoverage:
    """What the rows give and what they all give.

    Attributes:
        dialogues, turns: dialogues and turns every row gives.
        row_dialogues, row_turns: ``{row: count}`` of each row's own file.
    """

    dialogues: int
    turns: int
    row_dialogues: dict[str, int]
    row_turns: dict[str, int]

    @property
    def changed(self) -> bool:
        """Whether some row loses a dialogue or a turn."""
        return any(n != self.dialogues for n in self.row_dialogues.values()) or any(
            n != self.turns for n in self.row_turns.values())

    def warning(self) -> str:
        """The loud line shown when :attr:`changed`."""
        d, t = self.row_dialogues.values(), self.row_turns.values()
        return (f"SHARED COVERAGE (--shared): the rows give {min(d)} to {max(d)} dialogues and "
                f"{min(t)} to {max(t)} turns; every row is scored on the {self.dialogues} "
                f"dialogues and {self.turns} turns all of them give (paired): these figures "
                "are not the files' own scores")


def shared_subset(rows: Mapping[str, Mapping[str, list[Any]]]
                  ) -> tuple[dict[str, dict[str, list[Any]]], SharedCoverage]:
    """Cut every row's prediction mapping (``{dialogue id: [turn, ...]}``, ids in any
    spelling of :func:`~mwzrepro.core.ids.canonical_dialogue_id`) to the dialogues all rows
    give and, in each, to the shortest row's turns (module docstring).

    Returns:
        ``({row: cut mapping}, SharedCoverage)``; each cut mapping keeps the row's own ids,
        its dialogue order and its turn objects.

    Raises:
        InputError: the rows share no dialogue.
    """
    ids = {row: {canonical_dialogue_id(str(k)): k for k in data} for row, data in rows.items()}
    common = set.intersection(*(set(m) for m in ids.values())) if ids else set()
    if not common:
        raise InputError("--shared: the files share no dialogue: nothing to compare")
    length = {d: min(len(rows[row][ids[row][d]]) for row in rows) for d in common}
    cut = {row: {k: list(v[:length[canonical_dialogue_id(str(k))]]) for k, v in data.items()
                 if canonical_dialogue_id(str(k)) in common}
           for row, data in rows.items()}
    shared = SharedCoverage(len(common), sum(length.values()),
                            {row: len(data) for row, data in rows.items()},
                            {row: sum(len(v) for v in data.values())
                             for row, data in rows.items()})
    return cut, shared
