"""What scoring leaves out of an input, one warning line per kind, with counts: the
placeholders the response normalization deletes (spec-standard-evaluation §3) and the
predicted values of slots outside the 30 DST slots that the DST metrics remove before scoring
(spec-dst-metrics §2.2; KRLS's ``train-area``, ``train-name``, ...). ``score``, ``compare`` and
a leaderboard show the same lines, so nothing an input holds is dropped without a word.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["placeholder_line", "dropped_slots_line"]


def placeholder_line(source: str, unknown: Mapping[str, int]) -> str | None:
    """The line for the placeholders the normalization deleted (``{bracket content: count}``),
    None when there are none.

    >>> placeholder_line("x.json", {"booking_reference": 61})
    "x.json: unknown placeholders deleted by normalization (spec-standard-evaluation §3.2): {'booking_reference': 61}"
    >>> placeholder_line("x.json", {}) is None
    True
    """
    if not unknown:
        return None
    return (f"{source}: unknown placeholders deleted by normalization (spec-standard-evaluation §3.2): "
            f"{dict(sorted(unknown.items()))}")


def dropped_slots_line(source: str, dropped: Mapping[str, int]) -> str | None:
    """The line for the predicted values the DST metrics removed (``{"domain-slot": number of
    turns whose state gives that slot a value}``), most frequent first, None when there are
    none.

    >>> print(dropped_slots_line("krls.json", {"train-time": 2, "train-area": 8}))
    krls.json: predicted values of slots outside the 30 DST slots removed before the DST metrics (spec-dst-metrics §2.2): train-area ×8 turns, train-time ×2 turns
    >>> dropped_slots_line("x.json", {}) is None
    True
    """
    if not dropped:
        return None
    parts = [f"{slot} ×{n} turns"
             for slot, n in sorted(dropped.items(), key=lambda kv: (-kv[1], kv[0]))]
    return (f"{source}: predicted values of slots outside the 30 DST slots removed before the "
            f"DST metrics (spec-dst-metrics §2.2): {', '.join(parts)}")
