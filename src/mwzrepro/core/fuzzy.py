"""Fuzzy string similarity of the reference evaluator: ``partial_ratio`` (0–100).

Two implementations, selected by the matching mode of the standard evaluation
(``params.yaml: inform.matching``):

``reference`` — :func:`partial_ratio_reference`
    What fuzzywuzzy 0.18.0 computes with its python-Levenshtein 0.12.x back-end, which the
    reference evaluator (MultiWOZ_Evaluation 2022-06-10) used for every published number
    (spec-standard-evaluation §7):

    1. ``a == b`` → 100; 2. either string empty → 0;
    3. ``short`` = the shorter string (``a`` on ties), ``long`` = the other;
    4. matching blocks ``(i, j, size)`` read off one minimal unit-cost Levenshtein edit
       script from ``short`` to ``long``, chosen exactly as python-Levenshtein 0.12.x
       chooses it (:func:`editops_reference`), plus the sentinel ``(len(short), len(long), 0)``
       (:func:`matching_blocks_reference`);
    5. for each block in order: the window ``long[max(0, j - i):][:len(short)]`` and the Indel
       similarity ``r = (len(short) + len(window) - indel_distance) / (len(short) +
       len(window))`` (python-Levenshtein's ``ratio``); ``r > 0.995`` → 100 at once;
    6. ``round(100 · max r)`` with Python's round-half-to-even, as an ``int``.

    The edit script matters: several minimal scripts exist and each gives other windows.
    rapidfuzz's ``Levenshtein.editops`` (and python-Levenshtein ≥ 0.20, which delegates to
    rapidfuzz) picks insert/delete pairs where 0.12.x picks substitutions (``indian`` vs
    ``brazlidian``: 0.12.x → blocks ``(2, 6, 4)`` + sentinel, window ``lidian``, score 83;
    rapidfuzz → ``(0, 5, 1)``, ``(2, 6, 4)``, window ``idian``, score 91). This module
    therefore fills the 0.12.x cost matrix itself (after stripping the common prefix and
    suffix, which changes the tie-breaking) and walks it back with 0.12.x's preference order:
    continue an insert run / a delete run, else a free diagonal (match), else a substitution,
    else start an insert run, else start a delete run (the C source's order, re-implemented
    from its description). Window similarities use :func:`rapidfuzz.distance.Indel.distance`.

``optimal`` — :func:`partial_ratio_optimal`
    :func:`rapidfuzz.fuzz.partial_ratio`: the best window over *all* alignments, returned as
    rapidfuzz's unrounded float (e.g. ``alexander bed and breakfast`` vs ``rosas bed and
    breakfast``: 90.476…, where the reference gives 83). Steps 1–2 above apply as well.

Both are symmetric in the sense of fuzzywuzzy: the argument order matters only through the
tie rule of step 3. :func:`make_matcher` returns the cached ``score ≥ threshold`` test that
the venue database uses (spec §6: database value first, query value second).

Speed: every public score is memoized (``functools.lru_cache``); the ``reference`` matcher
first asks rapidfuzz's optimal score, an upper bound of the reference score (the reference
windows are a subset of the windows rapidfuzz maximizes over), and runs the pure-Python
dynamic programme only when that bound reaches the threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel
from rapidfuzz.distance import Levenshtein as _RFLevenshtein

from mwzrepro.core.errors import ConfigError

__all__ = [
    "MATCHING_MODES",
    "editops_reference",
    "matching_blocks_reference",
    "matching_blocks_rapidfuzz",
    "partial_ratio_from_blocks",
    "partial_ratio_reference",
    "partial_ratio_optimal",
    "partial_ratio",
    "make_matcher",
]

#: The matching modes (spec-standard-evaluation §7): ``reference`` reproduces
#: fuzzywuzzy 0.18 + python-Levenshtein 0.12.x, ``optimal`` is rapidfuzz's partial_ratio.
MATCHING_MODES = ("reference", "optimal")

#: Early exit of fuzzywuzzy's partial_ratio: a window with similarity above this returns 100.
EARLY_EXIT = 0.995

#: Cache sizes: distinct (database value, query value) pairs of all published prediction files
#: and goals number about 50,000 (spec §7); the caches hold several times that.
_CACHE = 1 << 18

#: rapidfuzz's partial_ratio is exhaustive (hence an upper bound of the reference score) only
#: for needles up to this length; longer ones use a block heuristic.
_RF_EXHAUSTIVE_NEEDLE = 64

Block = tuple[int, int, int]
EditOp = tuple[str, int, int]


def editops_reference(source: str, target: str) -> list[EditOp]:
    """The minimal edit script from ``source`` to ``target`` that python-Levenshtein 0.12.x
    returns (``Levenshtein.editops``), as ``[(op, source_pos, target_pos), ...]`` with ``op``
    in ``{'replace', 'insert', 'delete'}`` and positions in the original strings.

    Steps (spec §7 step 4, uncertain to describe beyond "as 0.12.x does"; this is the
    0.12.x algorithm): strip the common prefix and then the common suffix, fill the unit-cost
    Levenshtein matrix of the rest, and walk back from the bottom-right corner taking the first
    applicable of: continue an insert run; continue a delete run; diagonal on equal characters
    with equal cost (kept, not recorded); substitution; start an insert run (only when not in a
    run); start a delete run (only when not in a run).
    Example: ``editops_reference('indian', 'brazlidian')`` → four inserts at target 0–3, then
    replaces at (0, 4) and (1, 5).
    """
    n1, n2 = len(source), len(target)
    prefix = 0
    while prefix < n1 and prefix < n2 and source[prefix] == target[prefix]:
        prefix += 1
    end1, end2 = n1, n2
    while end1 > prefix and end2 > prefix and source[end1 - 1] == target[end2 - 1]:
        end1 -= 1
        end2 -= 1
    a = source[prefix:end1]
    b = target[prefix:end2]
    rows1, cols = len(a) + 1, len(b) + 1

    # cost matrix: matrix[i][j] = distance(a[:i], b[:j])
    matrix = [list(range(cols))]
    for i in range(1, rows1):
        prev = matrix[i - 1]
        char = a[i - 1]
        row = [i] * cols
        left = i
        for j in range(1, cols):
            cost = prev[j - 1] + (char != b[j - 1])
            left += 1
            if left > cost:
                left = cost
            cost = prev[j] + 1
            if left > cost:
                left = cost
            row[j] = left
        matrix.append(row)

    ops: list[EditOp] = []
    i, j = rows1 - 1, cols - 1
    direction = 0  # -1: in an insert run, +1: in a delete run, 0: otherwise
    while i or j:
        here = matrix[i][j]
        if direction < 0 and j and here == matrix[i][j - 1] + 1:
            j -= 1
            ops.append(("insert", i + prefix, j + prefix))
            continue
        if direction > 0 and i and here == matrix[i - 1][j] + 1:
            i -= 1
            ops.append(("delete", i + prefix, j + prefix))
            continue
        if i and j and here == matrix[i - 1][j - 1] and a[i - 1] == b[j - 1]:
            i -= 1
            j -= 1
            direction = 0
            continue
        if i and j and here == matrix[i - 1][j - 1] + 1:
            i -= 1
            j -= 1
            ops.append(("replace", i + prefix, j + prefix))
            direction = 0
            continue
        if direction == 0 and j and here == matrix[i][j - 1] + 1:
            j -= 1
            ops.append(("insert", i + prefix, j + prefix))
            direction = -1
            continue
        if direction == 0 and i and here == matrix[i - 1][j] + 1:
            i -= 1
            ops.append(("delete", i + prefix, j + prefix))
            direction = 1
            continue
        raise AssertionError(f"no way back through the cost matrix of {source!r}, {target!r}")
    ops.reverse()
    return ops


def _blocks_from_editops(ops: list[EditOp], n1: int, n2: int) -> list[Block]:
    """Matching blocks of an edit script (python-Levenshtein ``opcodes`` then
    ``matching_blocks``): the unedited stretches between edit runs, then the sentinel."""
    blocks: list[Block] = []
    spos = dpos = 0
    k, n_ops = 0, len(ops)
    while k < n_ops:
        kind, os_, od = ops[k]
        if spos < os_ or dpos < od:
            blocks.append((spos, dpos, os_ - spos))
            spos, dpos = os_, od
        while k < n_ops and ops[k][0] == kind and ops[k][1] == spos and ops[k][2] == dpos:
            if kind != "insert":
                spos += 1
            if kind != "delete":
                dpos += 1
            k += 1
    if spos < n1 or dpos < n2:
        blocks.append((spos, dpos, n1 - spos))
    blocks.append((n1, n2, 0))
    return blocks


def matching_blocks_reference(short: str, long: str) -> list[Block]:
    """Matching blocks ``[(i, j, size), ..., (len(short), len(long), 0)]`` of python-Levenshtein
    0.12.x (``matching_blocks(opcodes(short, long), short, long)``), with
    ``short[i:i+size] == long[j:j+size]``.

    Example: ``('indian', 'brazlidian')`` → ``[(2, 6, 4), (6, 10, 0)]`` (spec §7).
    """
    return _blocks_from_editops(editops_reference(short, long), len(short), len(long))


def matching_blocks_rapidfuzz(short: str, long: str) -> list[Block]:
    """Matching blocks of rapidfuzz's minimal edit script (what python-Levenshtein ≥ 0.20,
    e.g. 0.27.5, returns); for diagnostics only. ``('indian', 'brazlidian')`` →
    ``[(0, 5, 1), (2, 6, 4), (6, 10, 0)]``."""
    return [(b.a, b.b, b.size) for b in _RFLevenshtein.opcodes(short, long).as_matching_blocks()]


def partial_ratio_from_blocks(a: str, b: str, blocks_of: Callable[[str, str], list[Block]]) -> int:
    """fuzzywuzzy 0.18 ``partial_ratio`` (spec §7 steps 1–6) with a pluggable matching-block
    back-end ``blocks_of(short, long)``. Returns an ``int`` in 0…100."""
    if a == b:
        return 100
    if not a or not b:
        return 0
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    n = len(short)
    best = 0.0
    for i, j, _size in blocks_of(short, long):
        start = j - i if j > i else 0
        window = long[start : start + n]
        lensum = n + len(window)
        r = (lensum - Indel.distance(short, window)) / lensum
        if r > EARLY_EXIT:
            return 100
        if r > best:
            best = r
    return int(round(100 * best))


@lru_cache(maxsize=_CACHE)
def partial_ratio_reference(a: str, b: str) -> int:
    """Reference ``partial_ratio`` (fuzzywuzzy 0.18.0 + python-Levenshtein 0.12.x), an ``int``
    in 0…100 (spec-standard-evaluation §7). Memoized.

    Examples: ``('indian', 'brazlidian')`` → 83; ``('alexander bed and breakfast',
    'rosas bed and breakfast')`` → 83 (rapidfuzz: 90.48); ``('asian oriental', 'asian')`` →
    100; ``('x', 'x')`` → 100; ``('', 'x')`` → 0.
    """
    return partial_ratio_from_blocks(a, b, matching_blocks_reference)


@lru_cache(maxsize=_CACHE)
def partial_ratio_optimal(a: str, b: str) -> float:
    """rapidfuzz's ``fuzz.partial_ratio`` (best window over all alignments), unrounded float
    in 0…100, after the reference's steps 1–2 (equal → 100, empty → 0). Memoized."""
    if a == b:
        return 100.0
    if not a or not b:
        return 0.0
    return fuzz.partial_ratio(a, b)


def partial_ratio(a: str, b: str, mode: str = "reference") -> float:
    """``partial_ratio`` in the given matching mode (:data:`MATCHING_MODES`).

    Raises:
        ConfigError: unknown mode.
    """
    if mode == "reference":
        return partial_ratio_reference(a, b)
    if mode == "optimal":
        return partial_ratio_optimal(a, b)
    raise ConfigError(f"unknown matching mode {mode!r}; expected one of {MATCHING_MODES}")


def make_matcher(mode: str = "reference", threshold: float = 90) -> Callable[[str, str], bool]:
    """A memoized predicate ``accepts(db_value, query_value) -> bool`` meaning
    ``partial_ratio(db_value, query_value) >= threshold`` in the given mode (spec §6: the
    database's fuzzy keys accept scores ≥ 90, database value first).

    In ``reference`` mode the predicate first computes rapidfuzz's optimal score with a cut-off
    just below ``threshold − 0.5`` (an upper bound: a reference score rounds to at most
    ``round(optimal)``) and runs the exact computation only for candidates above it.

    Raises:
        ConfigError: unknown mode.
    """
    if mode not in MATCHING_MODES:
        raise ConfigError(f"unknown matching mode {mode!r}; expected one of {MATCHING_MODES}")
    threshold = float(threshold)

    if mode == "optimal":

        @lru_cache(maxsize=_CACHE)
        def accepts_optimal(db_value: str, query: str) -> bool:
            return partial_ratio_optimal(db_value, query) >= threshold

        return accepts_optimal

    cutoff = max(0.0, threshold - 0.5 - 1e-6)

    @lru_cache(maxsize=_CACHE)
    def accepts_reference(db_value: str, query: str) -> bool:
        if db_value == query:
            return 100 >= threshold
        if (
            cutoff > 0
            and db_value
            and query
            and min(len(db_value), len(query)) <= _RF_EXHAUSTIVE_NEEDLE
            and fuzz.partial_ratio(db_value, query, score_cutoff=cutoff) < cutoff
        ):
            return False
        return partial_ratio_reference(db_value, query) >= threshold

    return accepts_reference
