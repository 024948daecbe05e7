"""Dialogue state tracking metrics: JGA, slot accuracy, AGA, Flexible Goal Accuracy, fuzzy JGA.

The one implementation of spec-dst-metrics (the contract; section numbers below refer to it).

Belief states
    A belief state is a mapping ``{(domain, slot): value}`` over the 30 MultiWOZ 2.1
    domain-slot pairs :data:`SLOTS` (§2.2). It is the set of triples ``(domain, slot, value)``
    with at most one value per slot (§2.1): a dict enforces the invariant. Values are
    canonicalised by :func:`canonical_value` (§2.3): stripped, lowercased, the empty markers
    ``''``, ``'not mentioned'`` and ``'none'`` mean "absent" (no entry), and every spelling of
    "don't care" becomes ``'dontcare'`` (a real value).

Two entry points produce the same per-turn outcomes (:class:`TurnOutcome`):

* :func:`score_dialogue` — from gold and predicted states (TRADE/SOM-DST-style input, the
  end-to-end systems' states, the human-evaluation logs). FGA uses the subset local-match test
  LM(t) (§6.2) with rule R1 (§6.3) — ``fga_local_match = "subset"``.
* :func:`score_dialogue_flags` — from per-slot correctness vectors (TripPy's released results,
  §7). FGA uses the error-set test LM_flag(t) ⇔ E_t = E_{t−1} (§7.2) —
  ``fga_local_match = "error_set"``; AGA needs gold presence from the dataset's own states.

:func:`aggregate` turns outcomes into corpus figures (:class:`CorpusScores`): micro-averages
over turns, stored unrounded as fractions in [0, 1] (§10). Tables show
``round(100 · value, 2)``.

Tolerant value matching (2.2 alternatives, fuzzy Levenshtein, §2.7 and §8) is applied by
rewriting predictions (:func:`rewrite_predictions`) before any metric is computed.
"""

from __future__ import annotations

from mwzrepro.core.errors import MwzreproError

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

__all__ = [
    "SLOTS",
    "SLOT_INDEX",
    "N_SLOTS",
    "EMPTY_VALUES",
    "DONTCARE",
    "DONTCARE_SPELLINGS",
    "FGA_VARIANTS",
    "LOCAL_MATCH_RULES",
    "MATCHERS",
    "Slot",
    "State",
    "Alternatives",
    "DSTError",
    "canonical_value",
    "canonical_slot",
    "make_state",
    "Matcher",
    "ExactMatcher",
    "LevenshteinMatcher",
    "IndelMatcher",
    "make_matcher",
    "rewrite_predictions",
    "wrong_slots",
    "slot_accuracy",
    "local_match",
    "classify_turns",
    "fga_weight",
    "lambda_from_forgetting",
    "TurnOutcome",
    "DialogueStates",
    "DialogueFlags",
    "score_dialogue",
    "score_dialogue_flags",
    "flags_from_states",
    "CorpusScores",
    "aggregate",
    "fga_from_counts",
    "score_corpus",
    "score_corpus_flags",
    "outcomes_frame",
]

# --------------------------------------------------------------------------------------------
# §2.2 The 30 domain-slot pairs, in TripPy's MultiWOZ 2.1 order (the flag-vector index).

#: The 30 MultiWOZ 2.1 domain-slot pairs; position = index in per-slot correctness vectors.
SLOTS: tuple[tuple[str, str], ...] = (
    ("taxi", "leaveat"),
    ("taxi", "destination"),
    ("taxi", "departure"),
    ("taxi", "arriveby"),
    ("restaurant", "book people"),
    ("restaurant", "book day"),
    ("restaurant", "book time"),
    ("restaurant", "food"),
    ("restaurant", "pricerange"),
    ("restaurant", "name"),
    ("restaurant", "area"),
    ("hotel", "book people"),
    ("hotel", "book day"),
    ("hotel", "book stay"),
    ("hotel", "name"),
    ("hotel", "area"),
    ("hotel", "parking"),
    ("hotel", "pricerange"),
    ("hotel", "stars"),
    ("hotel", "internet"),
    ("hotel", "type"),
    ("attraction", "type"),
    ("attraction", "name"),
    ("attraction", "area"),
    ("train", "book people"),
    ("train", "leaveat"),
    ("train", "destination"),
    ("train", "day"),
    ("train", "arriveby"),
    ("train", "departure"),
)
#: (domain, slot) → index in :data:`SLOTS`.
SLOT_INDEX: dict[tuple[str, str], int] = {s: i for i, s in enumerate(SLOTS)}
#: |𝒮| for MultiWOZ 2.1 (the SA denominator, §4).
N_SLOTS = len(SLOTS)

#: Values meaning "slot absent" after strip + lowercase (§2.3 step 2).
EMPTY_VALUES = frozenset({"", "not mentioned", "none"})
#: The canonical "don't care" value (§2.3 step 3).
DONTCARE = "dontcare"
#: Spellings mapped to :data:`DONTCARE` (2.1/2.2 ``dontcare``, 2.0 ``dont care``, ...).
DONTCARE_SPELLINGS = frozenset({"dontcare", "dont care", "don't care", "do n't care"})

FGA_VARIANTS = ("scripts", "paper_literal")
LOCAL_MATCH_RULES = ("subset", "error_set")

Slot = tuple[str, str]
#: A belief state: (domain, slot) → canonical value. Absent slots have no entry.
State = Mapping[Slot, str]
#: Gold alternatives of one turn: (domain, slot) → all acceptable canonical values (2.2).
Alternatives = Mapping[Slot, tuple[str, ...]]

Kind = Literal["EXACT", "TYPE1", "TYPE2"]


class DSTError(MwzreproError, ValueError):
    """Malformed DST input (two values for one slot, unknown slot, bad flag vector, ...).

    The message names the file, dialogue and turn when the caller supplied them."""


# --------------------------------------------------------------------------------------------
# §2.3 canonicalisation


def canonical_value(value: object, where: str = "") -> str | None:
    """Canonicalise one state value (§2.3).

    Args:
        value: the raw value (must be a ``str``).
        where: location for the error message (file, dialogue, turn, slot).

    Returns:
        ``None`` for the empty markers ``''``, ``'not mentioned'`` and ``'none'`` (the slot is
        absent); ``'dontcare'`` for every spelling in :data:`DONTCARE_SPELLINGS`; otherwise the
        value stripped and lowercased.

    Raises:
        DSTError: ``value`` is not a string.
    """
    if not isinstance(value, str):
        raise DSTError(f"{where + ': ' if where else ''}state value must be a string, "
                       f"got {value!r}")
    v = value.strip().lower()
    if v in EMPTY_VALUES:
        return None
    if v in DONTCARE_SPELLINGS:
        return DONTCARE
    return v


# Slot-name aliases after lowercasing and removing spaces/underscores: the names used by
# MultiWOZ 2.0/2.1 metadata (``leaveAt``), 2.2 (``bookpeople``), the human-evaluation logs and
# Figure 1 (``people`` without ``book``), TripPy (``book_people``) and the end-to-end systems'
# mwzeval states (``arrive by``, ``leave``, ``price range``, ``time``).
_SLOT_ALIASES = {
    "leaveat": "leaveat",
    "leave": "leaveat",
    "arriveby": "arriveby",
    "arrive": "arriveby",
    "pricerange": "pricerange",
    "people": "book people",
    "bookpeople": "book people",
    "stay": "book stay",
    "bookstay": "book stay",
    "time": "book time",
    "booktime": "book time",
    "day": "book day",
    "bookday": "book day",
}


def canonical_slot(domain: str, slot: str) -> Slot | None:
    """The canonical (domain, slot) of §2.2 for a slot name in any accepted spelling.

    Accepts the canonical names (``book people``), the aliases without the ``book `` prefix
    (``people``), the MultiWOZ 2.2 names (``bookpeople``), TripPy's (``book_people``), the
    2.0/2.1 metadata names (``leaveAt``) and the mwzeval spellings (``arrive``, ``leave``,
    ``arrive by``, ``price range``). ``train``'s ``day`` is the plain slot ``day``.

    Returns:
        the pair from :data:`SLOTS`, or ``None`` if the slot is outside the 30 (e.g.
        ``('taxi', 'day')``, ``('hospital', 'department')``, ``('train', 'book ticket')``).
    """
    d = domain.strip().lower()
    key = slot.strip().lower().replace(" ", "").replace("_", "")
    s = _SLOT_ALIASES.get(key, key)
    if d == "train" and s == "book day":
        s = "day"
    pair = (d, s)
    return pair if pair in SLOT_INDEX else None


def make_state(
    triples: Iterable[tuple[str, str, object]],
    where: str = "",
    dropped: Counter | None = None,
) -> dict[Slot, str]:
    """Build a canonical belief state from raw ``(domain, slot, value)`` triples.

    Slot names go through :func:`canonical_slot`, values through :func:`canonical_value`;
    absent values produce no entry.

    Args:
        triples: raw triples (any accepted slot spelling, raw values).
        where: location for error messages, e.g. ``"file.json: dialogue pmul2563, turn 2"``.
        dropped: if given, slots outside :data:`SLOTS` are removed and counted here under
            ``"domain-slot"`` (the explicit, reported filter of §2.2); if ``None`` they are an
            error.

    Returns:
        ``{(domain, slot): value}`` in input order.

    Raises:
        DSTError: a slot outside the 30 when ``dropped`` is ``None``; two different values for
            one slot (§2.1); a non-string value. Messages start with ``where``.
    """
    state: dict[Slot, str] = {}
    for domain, slot, value in triples:
        here = f"{where + ': ' if where else ''}slot {domain}-{slot}"
        pair = canonical_slot(domain, slot)
        v = canonical_value(value, here)
        if pair is None:
            if dropped is None:
                raise DSTError(f"{here} is not one of the 30 MultiWOZ 2.1 domain-slot pairs")
            if v is not None:
                dropped[f"{domain.strip().lower()}-{slot.strip().lower()}"] += 1
            continue
        if v is None:
            continue
        old = state.get(pair)
        if old is not None and old != v:
            raise DSTError(f"{here}: two values for {pair[0]}-{pair[1]}: {old!r} and {v!r}")
        state[pair] = v
    return state


# --------------------------------------------------------------------------------------------
# §2.7 and §8 value matchers and prediction rewriting


class Matcher:
    """A value matcher (§2.7): decides whether a predicted value counts as a gold value.

    Attributes:
        name: profile name recorded in the metrics output (``exact``, ``fuzzy-levenshtein``,
            ``fuzzy-indel``).
        threshold: the similarity threshold θ as a :class:`~fractions.Fraction`, or ``None``.
    """

    name = "exact"
    threshold: Fraction | None = None

    def accepts(self, gold: str, pred: str) -> bool:
        """Whether ``pred`` matches the canonical gold value ``gold`` (both canonicalised)."""
        return gold == pred


class ExactMatcher(Matcher):
    """Equality only (the default). With 2.2 alternatives, equality with any of them."""


def _fraction(theta: float | str | Fraction) -> Fraction:
    t = Fraction(str(theta)) if not isinstance(theta, Fraction) else theta
    if not 0 <= t <= 1:
        raise ValueError(f"fuzzy threshold must be in [0, 1], got {theta}")
    return t


class _DistanceMatcher(Matcher):
    """Accept iff 1 − distance(g, p) / scale(g, p) ≥ θ, tested in rational arithmetic:
    distance · den ≤ (den − num) · scale for θ = num/den. Equal values always match;
    ``dontcare`` never matches fuzzily. Subclasses give the distance and the scale."""

    def __init__(self, threshold: float | str | Fraction = Fraction(9, 10)) -> None:
        self.threshold = _fraction(threshold)

    def _distance(self, gold: str, pred: str) -> int:
        raise NotImplementedError

    def _scale(self, gold: str, pred: str) -> int:
        raise NotImplementedError

    def accepts(self, gold: str, pred: str) -> bool:
        if gold == pred:
            return True
        if DONTCARE in (gold, pred):
            return False
        t = self.threshold
        return (self._distance(gold, pred) * t.denominator
                <= (t.denominator - t.numerator) * self._scale(gold, pred))


class LevenshteinMatcher(_DistanceMatcher):
    """``fuzzy-levenshtein`` (§8.2): accept iff 1 − lev(g, p) / max(|g|, |p|) ≥ θ.

    Unit costs over code points (``rapidfuzz.distance.Levenshtein``, no processor), tested in
    rational arithmetic, so θ = 0.9 accepts ``nightclub``/``night club`` (exactly 0.9).

    Args:
        threshold: θ in [0, 1] (default 0.9; floats are read through their decimal string).
    """

    name = "fuzzy-levenshtein"

    def _distance(self, gold: str, pred: str) -> int:
        from rapidfuzz.distance import Levenshtein

        return Levenshtein.distance(gold, pred)

    def _scale(self, gold: str, pred: str) -> int:
        return max(len(gold), len(pred))


class IndelMatcher(_DistanceMatcher):
    """``fuzzy-indel`` (§8.3, a separately named option): accept iff the normalised Indel
    similarity 1 − indel(g, p) / (|g| + |p|) ≥ θ — what ``rapidfuzz.fuzz.ratio`` computes.
    Never the default; it accepts everything :class:`LevenshteinMatcher` accepts, and more."""

    name = "fuzzy-indel"

    def _distance(self, gold: str, pred: str) -> int:
        from rapidfuzz.distance import Indel

        return Indel.distance(gold, pred)

    def _scale(self, gold: str, pred: str) -> int:
        return len(gold) + len(pred)


#: Matcher profiles by name.
MATCHERS = {"exact": ExactMatcher, "fuzzy-levenshtein": LevenshteinMatcher,
            "fuzzy-indel": IndelMatcher}


def make_matcher(name: str, threshold: float | str | Fraction | None = None) -> Matcher:
    """A matcher by profile name (:data:`MATCHERS`); ``threshold`` is θ for fuzzy profiles.

    Raises:
        ValueError: unknown name, or a threshold outside [0, 1].
    """
    if name not in MATCHERS:
        raise ValueError(f"unknown matcher {name!r}; choose one of {sorted(MATCHERS)}")
    if name == "exact":
        return ExactMatcher()
    return MATCHERS[name]() if threshold is None else MATCHERS[name](threshold)


def rewrite_predictions(
    gold: State,
    pred: State,
    matcher: Matcher | None = None,
    alternatives: Alternatives | None = None,
) -> dict[Slot, str]:
    """Rewrite a predicted state towards the gold spelling (§2.7).

    For every slot present in both ``gold`` and ``pred`` whose predicted value differs from the
    gold canonical value: if the value equals a gold alternative, or ``matcher`` accepts it
    against any alternative, it is replaced by the gold canonical value. Never adds or removes
    slots; uses only this turn's gold state.

    Args:
        gold: B_t (canonical values).
        pred: B'_t (canonical values).
        matcher: the active matcher (default exact).
        alternatives: per-slot acceptable gold values (2.2); default ``(gold value,)``.

    Returns:
        the rewritten B'_t (a new dict, same key order as ``pred``).
    """
    matcher = matcher or ExactMatcher()
    out: dict[Slot, str] = {}
    for slot, p in pred.items():
        g = gold.get(slot)
        if g is not None and p != g:
            alts = (alternatives or {}).get(slot) or (g,)
            if any(p == a or matcher.accepts(a, p) for a in alts):
                p = g
        out[slot] = p
    return out


# --------------------------------------------------------------------------------------------
# §3–§5 per-turn comparisons


def wrong_slots(gold: State, pred: State) -> frozenset[Slot]:
    """W_t: the slots whose gold and predicted values differ (absent vs present counts).

    This is the error set E_t of a flag vector (§7.2) computed from states."""
    return frozenset(s for s in set(gold) | set(pred) if gold.get(s) != pred.get(s))


def slot_accuracy(gold: State, pred: State, n_slots: int = N_SLOTS) -> float:
    """SA_t = (|𝒮| − |X| − |Y| + |P ∩ Q|) / |𝒮| (Eq. 1, §4), a fraction.

    X = B ∖ B', Y = B' ∖ B (triples); P, Q their slot sets. Equals 1 − |W_t| / |𝒮|."""
    g, p = set(gold.items()), set(pred.items())
    x, y = g - p, p - g
    pq = {s for s, _ in x} & {s for s, _ in y}
    return (n_slots - len(x) - len(y) + len(pq)) / n_slots


def local_match(prev_gold: State, gold: State, prev_pred: State, pred: State) -> bool:
    """LM(t) ⇔ T'_t ⊆ B_t and T_t ⊆ B'_t (§6.2), on whole triples.

    T_t = B_t ∖ B_{t−1} and T'_t = B'_t ∖ B'_{t−1} (turn-level states)."""
    g, p = set(gold.items()), set(pred.items())
    t_gold = g - set(prev_gold.items())
    t_pred = p - set(prev_pred.items())
    return t_pred <= g and t_gold <= p


# --------------------------------------------------------------------------------------------
# §6 FGA


def classify_turns(
    exact: Sequence[bool],
    local: Sequence[bool | None],
    variant: str = "scripts",
) -> list[tuple[Kind, float | None]]:
    """EXACT / TYPE1 / TYPE2 and x for the turns of one dialogue (§6.3; §9 D1).

    Computed once per dialogue, independent of λ.

    Args:
        exact: per turn t, whether B_t = B'_t.
        local: per turn t, the local-match test (LM or LM_flag); entry 0 is ignored.
        variant: ``"scripts"`` (normative: rule R1, a non-exact turn right after an exact turn
            is TYPE1) or ``"paper_literal"`` (Algorithm 1 read literally: no R1, t_err starts at
            −∞, so such a turn is TYPE2 with x = ∞).

    Returns:
        per turn ``(kind, x)``; x = t − t_err for TYPE2 (``math.inf`` when t_err is undefined
        under ``paper_literal``), ``None`` otherwise.

    Raises:
        ValueError: unknown variant or sequences of different lengths.
    """
    if variant not in FGA_VARIANTS:
        raise ValueError(f"unknown fga_variant {variant!r}; choose one of {FGA_VARIANTS}")
    if len(exact) != len(local):
        raise ValueError("exact and local must have one entry per turn")
    out: list[tuple[Kind, float | None]] = []
    t_err: int | None = None
    for t, is_exact in enumerate(exact):
        if is_exact:
            out.append(("EXACT", None))
            continue
        if t == 0 or not local[t] or (variant == "scripts" and out[t - 1][0] == "EXACT"):
            out.append(("TYPE1", None))
            t_err = t
        else:
            out.append(("TYPE2", float(t - t_err) if t_err is not None else math.inf))
    return out


def fga_weight(kind: str, x: float | None, lam: float) -> float:
    """The FGA weight of one turn (§6.4): 1 (EXACT), 0 (TYPE1), 1 − e^{−λx} (TYPE2).

    Evaluated as −expm1(−λx). x = ∞ (paper_literal only) gives 1 for λ > 0.

    Raises:
        ValueError: λ < 0, or λ = 0 with x = ∞ (undefined, §9 D1).
    """
    if lam < 0:
        raise ValueError(f"FGA λ must be ≥ 0, got {lam}")
    if kind == "EXACT":
        return 1.0
    if kind == "TYPE1":
        return 0.0
    if x is None:
        raise ValueError("a TYPE2 turn needs its distance x")
    if math.isinf(x):
        if lam == 0:
            raise ValueError("FGA(λ=0) is undefined for a TYPE2 turn with x = ∞ "
                             "(fga_variant 'paper_literal', spec §9 D1)")
        return 1.0
    return -math.expm1(-lam * x)


def lambda_from_forgetting(p: float, t_f: float) -> float:
    """Rule of thumb λ = −ln(1 − p) / t_f (§6.4): a TYPE2 turn t_f turns after the last TYPE1
    error earns weight p. ``lambda_from_forgetting(0.95, 6)`` = 0.4993.

    Raises:
        ValueError: p outside [0, 1) or t_f ≤ 0.
    """
    if not 0 <= p < 1:
        raise ValueError(f"p must satisfy 0 ≤ p < 1, got {p}")
    if not t_f > 0:
        raise ValueError(f"t_f must be > 0, got {t_f}")
    return -math.log1p(-p) / t_f


# --------------------------------------------------------------------------------------------
# Per-dialogue scoring


@dataclass(frozen=True)
class TurnOutcome:
    """Everything the corpus figures need about one turn.

    Attributes:
        dialogue_id: lowercase id without ``.json``.
        turn: user-turn index t.
        exact: B_t = B'_t (after rewriting).
        local: the local-match test of t (``None`` at t = 0).
        kind: ``EXACT``, ``TYPE1`` or ``TYPE2``.
        x: TYPE2 distance t − t_err (``inf`` only under paper_literal), else ``None``.
        n_wrong: |W_t| (slots wrong, of 30).
        gold_slots: |N_t| = |B_t| (non-empty gold slots).
        hits: |N_t ∩ B'_t| (correct gold slots).
        union: |N_t ∪ B'_t| (triples), ``None`` when unknown (flag input).
        rewrites: predicted values rewritten to the gold spelling at this turn (§2.7: a gold
            alternative or a tolerant matcher accepted them).
    """

    dialogue_id: str
    turn: int
    exact: bool
    local: bool | None
    kind: str
    x: float | None
    n_wrong: int
    gold_slots: int
    hits: int
    union: int | None
    rewrites: int = 0


@dataclass(frozen=True)
class DialogueStates:
    """Gold and predicted states of one dialogue, turns 0 … N−1 (canonical, §2).

    Attributes:
        dialogue_id: lowercase id without ``.json``.
        gold: B_0 … B_{N−1}.
        pred: B'_0 … B'_{N−1} (same length).
        alternatives: per turn, acceptable gold values per slot (2.2), or ``None``.
    """

    dialogue_id: str
    gold: tuple[State, ...]
    pred: tuple[State, ...]
    alternatives: tuple[Alternatives, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.gold) != len(self.pred):
            raise DSTError(f"dialogue {self.dialogue_id}: {len(self.gold)} gold states but "
                           f"{len(self.pred)} predicted states")
        if self.alternatives is not None and len(self.alternatives) != len(self.gold):
            raise DSTError(f"dialogue {self.dialogue_id}: alternatives need one entry per turn")


@dataclass(frozen=True)
class DialogueFlags:
    """Per-slot correctness vectors of one dialogue (§7.1).

    Attributes:
        dialogue_id: lowercase id without ``.json``.
        flags: per turn, a tuple of :data:`N_SLOTS` ints in {0, 1}; flag i refers to
            ``SLOTS[i]``; 1 = correct (absent matching absent counts as correct).
        gold_present: per turn, the indices of slots present in B_t (for AGA), or ``None``.
    """

    dialogue_id: str
    flags: tuple[tuple[int, ...], ...]
    gold_present: tuple[frozenset[int], ...] | None = None


def score_dialogue(
    dialogue: DialogueStates,
    matcher: Matcher | None = None,
    variant: str = "scripts",
) -> list[TurnOutcome]:
    """Per-turn outcomes of one dialogue from states (subset rule LM + R1, §6.3).

    Predictions are first rewritten with ``matcher`` and the gold alternatives (§2.7); T'_t is
    computed from the rewritten states.

    Args:
        dialogue: gold and predicted states.
        matcher: value matcher (default exact).
        variant: ``scripts`` (default) or ``paper_literal`` (§9 D1).

    Returns:
        one :class:`TurnOutcome` per turn, in turn order.
    """
    matcher = matcher or ExactMatcher()
    gold = dialogue.gold
    alts = dialogue.alternatives or (None,) * len(gold)
    pred: list[dict[Slot, str]] = []
    rewrites: list[int] = []
    for g, p, a in zip(gold, dialogue.pred, alts):
        r = rewrite_predictions(g, p, matcher, a)
        pred.append(r)
        rewrites.append(sum(1 for s in p if p[s] != r[s]))
    exact = [dict(g) == r for g, r in zip(gold, pred)]
    local: list[bool | None] = [None] + [
        local_match(gold[t - 1], gold[t], pred[t - 1], pred[t]) for t in range(1, len(gold))
    ]
    kinds = classify_turns(exact, local, variant)
    out = []
    for t, (g, p) in enumerate(zip(gold, pred)):
        gi, pi = set(g.items()), set(p.items())
        out.append(
            TurnOutcome(
                dialogue_id=dialogue.dialogue_id, turn=t, exact=exact[t], local=local[t],
                kind=kinds[t][0], x=kinds[t][1],
                n_wrong=len(wrong_slots(g, p)),
                gold_slots=len(gi), hits=len(gi & pi), union=len(gi | pi),
                rewrites=rewrites[t],
            )
        )
    return out


def flags_from_states(gold: Sequence[State], pred: Sequence[State]) -> tuple[tuple[int, ...], ...]:
    """Per-slot correctness vectors (§7.1) of state sequences: flag i = 1 iff gold and
    predicted values of ``SLOTS[i]`` agree (both absent counts as agreeing)."""
    return tuple(tuple(int(g.get(s) == p.get(s)) for s in SLOTS) for g, p in zip(gold, pred))


def score_dialogue_flags(
    dialogue: DialogueFlags,
    variant: str = "scripts",
    where: str = "",
) -> list[TurnOutcome]:
    """Per-turn outcomes of one dialogue from flag vectors (error-set rule LM_flag, §7.2).

    Exact iff E_t = ∅; SA_t = Σ f_t / 30; LM_flag(t) ⇔ E_t = E_{t−1} (R1 is implied, so both
    variants give the same kinds); AGA_t = mean of f_t over ``gold_present[t]`` (skipped when
    empty). ``union`` is ``None`` (relative AGA is not computable from flags).

    Raises:
        DSTError: a vector of the wrong length or with values other than 0/1, or
            ``gold_present`` with a different number of turns (names ``where``, dialogue, turn).
    """
    did = dialogue.dialogue_id
    here = f"{where + ': ' if where else ''}dialogue {did}"
    errors: list[frozenset[int]] = []
    for t, f in enumerate(dialogue.flags):
        if len(f) != N_SLOTS or any(v not in (0, 1) or isinstance(v, bool) for v in f):
            raise DSTError(f"{here}, turn {t}: flag vector must be {N_SLOTS} integers 0/1, "
                           f"got length {len(f)}: {list(f)!r}")
        errors.append(frozenset(i for i, v in enumerate(f) if v == 0))
    present = dialogue.gold_present
    if present is not None and len(present) != len(errors):
        raise DSTError(f"{here}: {len(errors)} flag vectors but gold states for "
                       f"{len(present)} turns")
    exact = [not e for e in errors]
    local: list[bool | None] = [None] + [errors[t] == errors[t - 1] for t in range(1, len(errors))]
    kinds = classify_turns(exact, local, variant)
    out = []
    for t, e in enumerate(errors):
        gp = present[t] if present is not None else frozenset()
        out.append(
            TurnOutcome(
                dialogue_id=did, turn=t, exact=exact[t], local=local[t],
                kind=kinds[t][0], x=kinds[t][1], n_wrong=len(e),
                gold_slots=len(gp) if present is not None else -1,
                hits=len(gp - e) if present is not None else -1, union=None,
            )
        )
    return out


# --------------------------------------------------------------------------------------------
# Corpus aggregation (§3–§6.6, micro over turns)


@dataclass(frozen=True)
class CorpusScores:
    """Corpus figures, unrounded fractions in [0, 1] (§10).

    Attributes:
        dialogues, turns: the evaluated corpus (#Turns).
        m1: #M1, exact-match turns. m2: #M2 = EXACT + TYPE2 turns.
        jga, sa: #M1/#Turns and mean SA_t.
        aga, aga_relative: means over ``aga_turns`` (turns with N_t ≠ ∅); ``None`` when not
            computable (no gold presence for flags; relative AGA for flags).
        aga_turns: number of turns with a non-empty gold state (``None`` if unknown).
        fga: λ → FGA(λ) for the requested λ values.
        type2_distances: x → number of TYPE2 turns at that distance (``"inf"`` for x = ∞);
            with ``m1`` and ``turns`` it gives FGA at any λ (:func:`fga_from_counts`).
        rewrites: predicted values rewritten to the gold spelling (§2.7).
    """

    dialogues: int
    turns: int
    m1: int
    m2: int
    jga: float
    sa: float
    aga: float | None
    aga_relative: float | None
    aga_turns: int | None
    fga: dict[float, float]
    type2_distances: dict[str, int] = field(default_factory=dict)
    rewrites: int = 0

    def as_dict(self) -> dict:
        """JSON-ready record with stable keys; FGA keys are λ as decimal strings."""
        return {
            "dialogues": self.dialogues, "turns": self.turns, "m1": self.m1, "m2": self.m2,
            "jga": self.jga, "sa": self.sa, "aga": self.aga, "aga_relative": self.aga_relative,
            "aga_turns": self.aga_turns,
            "fga": {_lam_key(k): v for k, v in self.fga.items()},
            "type2_distances": dict(self.type2_distances),
            "rewrites": self.rewrites,
        }


def _lam_key(lam: float) -> str:
    return repr(float(lam))


def fga_from_counts(turns: int, m1: int, type2_distances: Mapping[str, int], lam: float) -> float:
    """Corpus FGA(λ) from #Turns, #M1 and the TYPE2 distance histogram (§6.6), a fraction.

    Raises:
        ValueError: as :func:`fga_weight`; ``turns`` = 0.
    """
    if turns <= 0:
        raise ValueError("FGA of an empty corpus is undefined")
    parts = [float(m1)]
    for x, n in sorted(type2_distances.items(), key=lambda kv: float(kv[0])):
        parts.append(n * fga_weight("TYPE2", float(x), lam))
    return math.fsum(parts) / turns


def aggregate(outcomes: Iterable[TurnOutcome], lambdas: Sequence[float]) -> CorpusScores:
    """Corpus figures from per-turn outcomes (micro-averages over turns, §6.6).

    Args:
        outcomes: every turn of every evaluated dialogue.
        lambdas: λ values for FGA (each ≥ 0).

    Returns:
        :class:`CorpusScores`. AGA is ``None`` if any outcome lacks gold presence
        (``gold_slots == -1``); relative AGA is ``None`` if any lacks ``union``.

    Raises:
        ValueError: no turns; a negative λ.
    """
    outs = list(outcomes)
    n = len(outs)
    if n == 0:
        raise ValueError("no turns to score")
    m1 = sum(o.kind == "EXACT" for o in outs)
    m2 = m1 + sum(o.kind == "TYPE2" for o in outs)
    dist = Counter("inf" if math.isinf(o.x) else str(int(o.x)) for o in outs if o.kind == "TYPE2")
    dist_sorted = dict(sorted(dist.items(), key=lambda kv: float(kv[0])))
    wrong = sum(o.n_wrong for o in outs)
    sa = 1 - wrong / (N_SLOTS * n)
    aga = aga_rel = aga_turns = None
    if all(o.gold_slots >= 0 for o in outs):
        eligible = [o for o in outs if o.gold_slots > 0]
        aga_turns = len(eligible)
        if eligible:
            aga = math.fsum(o.hits / o.gold_slots for o in eligible) / len(eligible)
            if all(o.union is not None for o in eligible):
                aga_rel = math.fsum(o.hits / o.union for o in eligible) / len(eligible)
    fga = {float(lam): fga_from_counts(n, m1, dist_sorted, float(lam)) for lam in lambdas}
    return CorpusScores(
        dialogues=len({o.dialogue_id for o in outs}), turns=n, m1=m1, m2=m2, jga=m1 / n, sa=sa,
        aga=aga, aga_relative=aga_rel, aga_turns=aga_turns, fga=fga,
        type2_distances=dist_sorted, rewrites=sum(o.rewrites for o in outs),
    )


# --------------------------------------------------------------------------------------------
# Corpus scoring helpers


def score_corpus(
    dialogues: Iterable[DialogueStates],
    lambdas: Sequence[float],
    matcher: Matcher | None = None,
    variant: str = "scripts",
) -> tuple[CorpusScores, list[TurnOutcome]]:
    """Score state dialogues (subset rule) and aggregate: ``(corpus figures, outcomes)``."""
    outs = [o for d in dialogues for o in score_dialogue(d, matcher, variant)]
    return aggregate(outs, lambdas), outs


def score_corpus_flags(
    dialogues: Iterable[DialogueFlags],
    lambdas: Sequence[float],
    variant: str = "scripts",
    where: str = "",
) -> tuple[CorpusScores, list[TurnOutcome]]:
    """Score flag dialogues (error-set rule) and aggregate: ``(corpus figures, outcomes)``."""
    outs = [o for d in dialogues for o in score_dialogue_flags(d, variant, where)]
    return aggregate(outs, lambdas), outs


def outcomes_frame(outcomes: Iterable[TurnOutcome]):
    """Per-turn outcomes as a DataFrame with the columns of the ``dst_turns`` table
    (:mod:`mwzrepro.core.schemas`); unknown counts (flag input) are -1 and the undefined local
    match of turn 0 is stored as ``False``."""
    import pandas as pd

    cols = ["dialogue_id", "turn", "exact", "local", "kind", "x", "n_wrong", "gold_slots",
            "hits", "union", "rewrites"]
    rows = [
        {"dialogue_id": o.dialogue_id, "turn": o.turn, "exact": o.exact,
         "local": o.local, "kind": o.kind, "x": o.x, "n_wrong": o.n_wrong,
         "gold_slots": o.gold_slots, "hits": o.hits,
         "union": -1 if o.union is None else o.union, "rewrites": o.rewrites}
        for o in outcomes
    ]
    df = pd.DataFrame(rows, columns=cols)
    df["local"] = df["local"].fillna(False)
    return df.astype({"dialogue_id": "str", "turn": "int32", "exact": "bool", "local": "bool",
                      "kind": "str", "x": "float64", "n_wrong": "int32", "gold_slots": "int32",
                      "hits": "int32", "union": "int32", "rewrites": "int32"})
