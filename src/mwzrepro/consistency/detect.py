"""The scan of the annotation-consistency correction (spec-annotation-consistency §4.5–4.6,
§6.2–6.4; section numbers refer to that spec): every rule family runs over the turns of a
dialogue until the slot is labeled (or skips labeled turns, NAME), user-side rules first; the
values one family finds at one turn are merged (§4.6) and the multi-value policy decides which
are written (§6.4).

Example (merging: a value contained in another is dropped, order by evidence position):
    >>> from mwzrepro.consistency.context import Hit
    >>> hits = [Hit("cambridge", "XT-S", "system", "system", 20, 29, 20),
    ...         Hit("the cambridge belfry", "NM-S", "system", "system", 3, 23, 3)]
    >>> [h.value for h in merge_hits(hits)]
    ['the cambridge belfry']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mwzrepro.consistency.context import Hit, TurnContext
from mwzrepro.consistency.dialogue import Dialogue, is_labeled, visible_state
from mwzrepro.consistency.lexicons import Inventories, Labeller
from mwzrepro.consistency.settings import CorrectionSettings
from mwzrepro.consistency.rules import FAMILIES, Family

__all__ = ["Detection", "merge_hits", "apply_policy", "detect_dialogue"]


@dataclass(frozen=True)
class Detection:
    """The merged detection A_t of one family at one turn (§4.6, §6.4).

    Attributes:
        values: merged labels, primary first. hits: the hit behind each value.
        applied: values written to the state under ``multi_value_policy``.
    """

    dialogue_id: str
    turn: int
    domain: str
    slot: str
    values: tuple[str, ...]
    hits: tuple[Hit | None, ...]
    applied: tuple[str, ...]

    @property
    def side(self) -> str:
        """Side of the primary value (``user``, ``system`` or ``override``)."""
        h = self.hits[0]
        return h.side if h is not None else "override"

    @property
    def rule(self) -> str:
        """Rule id of the primary value (``override`` for forced decisions)."""
        h = self.hits[0]
        return h.rule if h is not None else "override"


def merge_hits(hits: Sequence[Hit]) -> list[Hit]:
    """Merge the values one family found at one turn (§4.6).

    Compares values without a leading "the "; a value contained in another is dropped in
    favour of the longer one; duplicates are dropped; survivors are ordered by their first
    evidence position in W_t. Returns one hit per surviving value (its first evidence).
    """
    first: dict[str, Hit] = {}
    for h in sorted(hits, key=lambda h: (h.order, h.value)):
        first.setdefault(h.value, h)

    def bare(v: str) -> str:
        v = v.lower()
        return v[4:] if v.startswith("the ") else v

    keep = []
    for v, h in first.items():
        bv = bare(v)
        dominated = False
        for o, ho in first.items():
            if o == v:
                continue
            bo = bare(o)
            if bv == bo:
                if len(o) > len(v) or (len(o) == len(v) and ho.order < h.order):
                    dominated = True
            elif bv in bo:
                dominated = True
            if dominated:
                break
        if not dominated:
            keep.append(h)
    return sorted(keep, key=lambda h: (h.order, h.value))


def apply_policy(values: tuple[str, ...], policy: str) -> tuple[str, ...]:
    """The values written under ``multi_value_policy`` (§6.4): all (``alternatives``), none
    when there are several (``skip``), or the primary one (``first``)."""
    if policy == "skip" and len(values) > 1:
        return ()
    if policy == "first":
        return values[:1]
    return values


def detect_dialogue(
    dialogue: Dialogue,
    inv: Inventories,
    params: CorrectionSettings,
    labeller: Labeller,
    families: Sequence[Family] = FAMILIES,
) -> dict[tuple[str, str], dict[int, Detection]]:
    """Run every family's scan (§4.5) over one dialogue.

    Returns:
        ``{(domain, slot): {t: Detection}}`` with only non-empty detections; a family runs only
        if the dialogue is domain-related for its domain (§2.2).
    """
    contexts: list[TurnContext] = []
    visible = [visible_state(s) for s in dialogue.states]
    prev = None
    for t in range(dialogue.n_turns):
        prev = TurnContext(t, dialogue.users[t], dialogue.systems[t], visible[t], prev, inv,
                           params)
        contexts.append(prev)
    related = set().union(*(v.domains for v in visible)) if visible else set()
    out: dict[tuple[str, str], dict[int, Detection]] = {}
    for fam in families:
        if fam.domain not in related:
            continue
        found: dict[int, Detection] = {}
        for t, c in enumerate(contexts):
            if is_labeled(dialogue.states[t].get((fam.domain, fam.slot)), params.dontcare_policy):
                if fam.scan == "skip":
                    continue
                break
            hits = fam.user(c)
            if not hits:
                hits = fam.system(c)
                if (hits and params.require_no_rejection
                        and any(cue in c.u for cue in params.rejection_cues)):
                    hits = []
            if not hits:
                continue
            if fam.respell:
                hits = [Hit(labeller(fam.domain, fam.slot, h.value), h.rule, h.side, h.where,
                            h.start, h.end, h.order) for h in hits]
            merged = merge_hits(hits)
            values = tuple(h.value for h in merged)
            found[t] = Detection(dialogue.dialogue_id, t, fam.domain, fam.slot, values,
                                 tuple(merged), apply_policy(values, params.multi_value_policy))
        if found:
            out[(fam.domain, fam.slot)] = found
    return out
