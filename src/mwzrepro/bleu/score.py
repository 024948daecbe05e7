"""Corpus BLEU of normalized responses against span-based references, with sacrebleu.

Settings are sacrebleu's defaults, as the reference evaluator uses them
(spec-standard-evaluation §11): 13a tokenization, case-sensitive, exponential smoothing,
4-grams, one reference stream. The score is unrounded, on sacrebleu's 0–100 scale.

Tables (``predictions``, ``references``) are read through :func:`mwzrepro.core.columns.column`:
DataFrames (the pipeline) or plain columns ``{column: list}`` (the scorer, no pandas import).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from mwzrepro.core.columns import column
from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import NORMALIZATION_VERSION, Signature

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BleuResult", "ReferenceStatistics", "reference_statistics", "reference_tokens",
           "register_reference_tokens", "corpus_bleu", "bleu_scores", "tokens_13a"]


@dataclass(frozen=True)
class BleuResult:
    """BLEU (0–100, unrounded), the number of scored turns, and the signatures: ours (all
    settings) and sacrebleu's own; ``statistics``: the corpus sums of the segment statistics
    ``[hyp_len, ref_len, correct_1..4, total_1..4]`` (what a rescoring of a few segments
    adjusts, :mod:`mwzrepro.scorer.dialects.placeholder_pass`)."""

    score: float
    turns: int
    signature: Signature
    sacrebleu_signature: str
    statistics: tuple[int, ...] = ()


class ReferenceStatistics:
    """One reference set's BLEU with every reference's statistics (n-gram counts, length)
    computed once, and the row of each ``(dialogue_id, turn)``: scoring a system extracts
    only its hypotheses' statistics.

    Segments are tokenized by sacrebleu's own 13a tokenizer of a default ``BLEU()`` (its
    replacement templates compiled into callables, :func:`mwzrepro.core.moses.
    compile_template`, same output; each repeated hypothesis of a system tokenized and
    counted once). A segment's
    statistics ``[hyp_len, ref_len, correct_1..4, total_1..4]`` are sacrebleu's
    (``BLEU._compute_segment_statistics`` with one reference: clipped n-gram matches and
    n-gram totals, property-tested equal in ``tests/unit/bleu/test_segment_statistics.py``),
    counted with ``collections.Counter`` over ``zip`` of shifted token lists instead of one
    tuple slice per n-gram; their sum is scored by sacrebleu's ``_aggregate_and_compute``,
    so the score is sacrebleu's corpus BLEU.

    Attributes:
        bleu: the ``sacrebleu.metrics.BLEU`` (its tokenizer, signature and final formula).
        row: ``{(dialogue_id, turn): index}`` into ``cache``.
        cache: per reference, ``(n-gram Counter of orders 1–4, token count)``.
    """

    def __init__(self, keys: tuple[tuple[str, int], ...], references: tuple[str, ...],
                 tokenized: tuple[str, ...] | None = None) -> None:
        if tokenized is None or len(tokenized) != len(references):
            tokenized = reference_tokens(references)
        self.bleu = _bleu()
        self.cache = [_ngram_counts(tokens.split()) for tokens in tokenized]
        self.row = {key: i for i, key in enumerate(keys)}

    def score(self, keys: list[tuple[str, int]], hypotheses: list[str]) -> object:
        """sacrebleu's ``BLEUScore`` of ``hypotheses`` against the references of ``keys``."""
        row = self.row
        return self.bleu._aggregate_and_compute(
            self.statistics([row[key] for key in keys], hypotheses))

    def statistics(self, rows: list[int], hypotheses: list[str]) -> list[list[int]]:
        """Per hypothesis, its :meth:`segment_statistics` against the reference of its
        ``rows`` entry (an index into ``cache``, e.g. ``row[key]``); a hypothesis that
        repeats is tokenized and counted once (only repeated ones are memoized: the peak
        memory of the others' counts)."""
        cache = self.cache
        counted = {hyp: None for hyp, n in Counter(hypotheses).items() if n > 1}
        return [self.segment_statistics(hyp, cache[i], counted)
                for i, hyp in zip(rows, hypotheses)]

    def segment_statistics(self, hypothesis: str, ref_info: tuple[Counter, int],
                           counted: dict[str, tuple[Counter, int]] | None = None
                           ) -> list[int]:
        """sacrebleu's statistics of one raw hypothesis against one cached reference
        (an item of ``cache``): ``[hyp_len, ref_len, correct_1..4, total_1..4]``.
        ``counted``: a memo of the hypotheses' n-gram counts (13a tokens, orders 1–4) and
        lengths, filled for the hypotheses it has as keys (value None until counted) — one
        system repeats half its responses; the counts are only read."""
        hyp_info = None if counted is None else counted.get(hypothesis)
        if hyp_info is None:
            hyp_info = _ngram_counts(tokens_13a(self.bleu, hypothesis))
            if counted is not None and hypothesis in counted:
                counted[hypothesis] = hyp_info
        hyp, hyp_len = hyp_info
        ref, ref_len = ref_info
        correct = [0, 0, 0, 0]
        get = ref.get
        for ngram, count in hyp.items():
            matched = get(ngram)
            if matched:
                correct[len(ngram) - 1] += count if count < matched else matched
        return [hyp_len, ref_len, *correct, *(max(hyp_len - n, 0) for n in range(4))]


def _bleu():
    """A default ``sacrebleu.metrics.BLEU`` whose 13a replacement templates are compiled into
    callables (same output)."""
    from sacrebleu.metrics import BLEU

    from mwzrepro.core.moses import compile_template

    bleu = BLEU()
    if bleu.max_ngram_order != 4 or bleu.lowercase:
        raise AssertionError("ReferenceStatistics counts 4-grams of cased text")
    post = getattr(bleu.tokenizer, "_post_tokenizer", None)  # 13a's regexp stage
    if isinstance(getattr(post, "_re", None), list):
        post._re = [(pattern, compile_template(template)) for pattern, template in post._re]
    bleu.num_refs = 1  # the signature's nrefs (sacrebleu sets it when caching references)
    return bleu


#: What sacrebleu's 13a tokenizer pads with spaces: its punctuation class
#: (``[\{-\~\[-\` -\&\(-\+\:-\@\/]``) and, in a text without digits, every ``.`` and ``,``.
_13A_PADDED = str.maketrans({c: f" {c} " for c in
                             "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/.,"})
#: Texts :func:`tokens_13a` tokenizes directly: no digit (13a's ``.``, ``,`` and ``-`` rules
#: look at digits), no ``&`` (its XML entities), ``<`` (``<skipped>``) or line break.
_13A_DIRECT = re.compile(r"[^0-9&<\n]*")


def tokens_13a(bleu, text: str) -> list[str]:
    """sacrebleu's 13a tokens of ``text`` (``bleu._preprocess_segment(text).split()`` of a
    cased ``BLEU``): computed directly for texts :data:`_13A_DIRECT` takes — each
    punctuation character, ``.`` and ``,`` a token of its own, the rest split at whitespace
    (13a's rules with no digit around) — and by sacrebleu otherwise. Property-tested equal
    (``tests/unit/bleu/test_segment_statistics.py``).

    >>> tokens_13a(_bleu(), "you're welcome, good-bye... (NAME)?")
    ["you're", 'welcome', ',', 'good-bye', '.', '.', '.', '(', 'NAME', ')', '?']
    """
    if _13A_DIRECT.fullmatch(text):
        return text.translate(_13A_PADDED).split()
    return bleu._preprocess_segment(text).split()


def reference_tokens(references: Sequence[str]) -> list[str]:
    """sacrebleu's 13a tokenization of each reference (what :class:`ReferenceStatistics`
    counts), for the scorer's resource cache (:func:`register_reference_tokens`)."""
    bleu = _bleu()
    return [bleu._preprocess_segment(ref) for ref in references]


#: 13a tokens of reference sets known in advance (the scorer's resource cache), by content.
_KNOWN_TOKENS: dict[tuple, tuple[str, ...]] = {}


def _turn_keys(table: Any) -> list[tuple[str, int]]:
    """``(dialogue_id, turn)`` of every row of a table (DataFrame or columns)."""
    return list(zip(map(str, column(table, "dialogue_id")), map(int, column(table, "turn"))))


def _content_key(references: Any) -> tuple[tuple, tuple[str, ...]]:
    return tuple(_turn_keys(references)), tuple(column(references, "reference"))


def register_reference_tokens(references: pd.DataFrame | Mapping[str, list],
                              tokens: list[str]) -> None:
    """Record the :func:`reference_tokens` of a ``references`` table: its
    :func:`reference_statistics`, when first needed, counts them instead of tokenizing the
    references again (ignored unless there is one per reference)."""
    key = _content_key(references)
    if len(tokens) == len(key[1]):
        _KNOWN_TOKENS[key] = tuple(tokens)


def _ngram_counts(tokens: list[str]) -> tuple[Counter, int]:
    """``(Counter of the 1- to 4-gram tuples of tokens, len(tokens))`` — sacrebleu's
    ``extract_all_word_ngrams(line, 1, 4)`` of ``" ".join(tokens)``."""
    return Counter(chain(zip(tokens), zip(tokens, tokens[1:]), zip(tokens, tokens[1:], tokens[2:]),
                         zip(tokens, tokens[1:], tokens[2:], tokens[3:]))), len(tokens)


@lru_cache(maxsize=8)
def _reference_stats(keys: tuple[tuple[str, int], ...], references: tuple[str, ...]
                     ) -> ReferenceStatistics:
    """:class:`ReferenceStatistics` of one references table, cached: every system scored against
    the same references in one process reuses their statistics."""
    return ReferenceStatistics(keys, references, _KNOWN_TOKENS.get((keys, references)))


def reference_statistics(references: pd.DataFrame | Mapping[str, list]
                         ) -> ReferenceStatistics:
    """:class:`ReferenceStatistics` of a ``references`` table (``dialogue_id``, ``turn``,
    ``reference``), cached by content: every system scored against the same references in
    one process (the scorer, the pipeline's BLEU rules, the bootstrap) reuses them."""
    return _reference_stats(*_content_key(references))


def corpus_bleu(
    predictions: pd.DataFrame | Mapping[str, list],
    references: pd.DataFrame | Mapping[str, list], version: str, system: str,
    reference_set: str = "span",
) -> BleuResult:
    """Score one system against one version's references.

    Args:
        predictions: a ``predictions`` table (``response_norm`` is the hypothesis), a
            DataFrame or columns.
        references: a ``references`` table (``reference`` is the reference), a DataFrame
            or columns.
        version: dataset version of the references (``mwz21``), for the signature.
        system: system name, for the signature.
        reference_set: name of the reference delexicalization scheme, for the signature.

    Returns:
        :class:`BleuResult` over the predicted turns (a missing dialogue is simply absent, as
        in the reference evaluator, spec §2.3).

    Raises:
        InputError: a predicted turn has no reference.
    """
    ref_stats = reference_statistics(references)
    keys = _turn_keys(predictions)
    missing = [k for k in keys if k not in ref_stats.row]
    if missing:
        did, turn = missing[0]
        raise InputError(
            f"{system}: {len(missing)} predicted turn(s) have no {version} reference, first "
            f"dialogue {did} turn {turn}"
        )
    if len(set(keys)) != len(keys):
        raise InputError(f"{system}: a predicted turn appears more than once")
    bleu = ref_stats.bleu
    score = ref_stats.score(keys, column(predictions, "response_norm"))
    sb_sig = bleu.get_signature()
    fields: dict[str, object] = {"system": system, "ver": version, "split": "test",
                                 "ref": reference_set, "norm": NORMALIZATION_VERSION}
    for part in sb_sig.format(short=False).split("|"):
        key, _, value = part.partition(":")
        fields["sacrebleu" if key == "version" else key] = value
    return BleuResult(float(score.score), len(keys), Signature("BLEU", fields),
                      sb_sig.format(short=False),
                      (score.sys_len, score.ref_len, *score.counts, *score.totals))


def bleu_scores(result: BleuResult, coverage: pd.DataFrame, system: str,
                version: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """The ``scores`` rows of one system's BLEU and its coverage, and their Parquet metadata.

    Rows (setting ``""``): ``bleu``/``total`` (0–100), ``dialogues``/``covered`` and
    ``expected``, ``turns``/``covered`` and ``expected`` (counts as floats), all with the
    BLEU signature.

    Args:
        result: :func:`corpus_bleu` of the system.
        coverage: the system's ``coverage`` table (expected_turns, predicted_turns per
            dialogue).

    Returns:
        ``(rows, {"signature": ours, "sacrebleu": sacrebleu's own signature})``.
    """
    import pandas as pd

    sig = result.signature.format()
    rows = [
        ("bleu", "total", result.score),
        ("dialogues", "covered", float((coverage["predicted_turns"] > 0).sum())),
        ("dialogues", "expected", float(len(coverage))),
        ("turns", "covered", float(coverage["predicted_turns"].sum())),
        ("turns", "expected", float(coverage["expected_turns"].sum())),
    ]
    df = pd.DataFrame(
        [{"system": system, "version": version, "metric": m, "setting": "", "key": k,
          "value": v, "signature": sig} for m, k, v in rows]
    )
    return df, {"signature": sig, "sacrebleu": result.sacrebleu_signature}
