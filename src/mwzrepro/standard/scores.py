"""The standard evaluation's numbers as ``scores`` rows with signatures (design.md, "Every
number carries a signature").

Rows follow the ``scores`` table of :mod:`mwzrepro.core.schemas` (system, version, metric, setting,
key, value, signature):

* ``inform`` / ``success`` (percent, one decimal, spec-standard-evaluation §9.3), setting
  ``standard`` or ``optimistic``, key = goal domain or ``total``;
* ``joint_accuracy``, ``slot_f1`` (percent), ``slot_precision``, ``slot_recall`` (fractions)
  of §13, setting ``""``, key ``total`` — only when the system's own states are scored;
* ``richness`` (§12), setting ``""``, key = metric name (``avg_lengths``, ``cond_entropy``,
  ``entropy``, ``msttr``, ``num_unigrams``, ``num_bigrams``, ``num_trigrams``);
* ``dialogues`` / ``turns``, key ``scored`` (coverage of what was scored).

Signature fields (in order): ``system``, ``ver`` (dataset version of goals/booked
domains/gold states/references), ``split``, ``ref`` (``goals+booked`` for Inform/Success,
``span`` for reference-corpus richness), ``state`` (``predicted``/``gold``), ``dom``
(active-domain source), ``set`` (setting), ``match`` (fuzzy matching mode), ``thr``
(threshold), ``tok``/``win`` (richness tokenizer and MSTTR window), ``norm``
(:data:`mwzrepro.core.signature.NORMALIZATION_VERSION`), then the package version.

Each ``*_rows`` function returns a list of row dicts (no pandas import: the scorer calls them);
the pipeline turns them into its tables (:func:`mwzrepro.standard.scoring.score_success`), and
:func:`richness_scores` gives the richness rows as a DataFrame.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError
from mwzrepro.standard.inform_success import (
    SETTINGS,
    VenueQuery,
    dialogue_rows,
    rates_of_rows,
)
from mwzrepro.standard.richness import RICHNESS_KEYS, lexical_richness
from mwzrepro.core.signature import NORMALIZATION_VERSION, Signature
from mwzrepro.standard.state_match import state_match
from mwzrepro.standard.inputs import PreparedDialogues

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "SCORE_COLUMNS",
    "STATE_MATCH_KEYS",
    "success_signature",
    "richness_signature",
    "state_match_signature",
    "richness_scores",
    "success_rows",
    "richness_rows",
    "state_match_rows",
    "coverage_rows",
]

SCORE_COLUMNS = ["system", "version", "metric", "setting", "key", "value", "signature"]

#: §13 outputs stored as ``scores`` rows (metric = key name).
STATE_MATCH_KEYS = ("joint_accuracy", "slot_f1", "slot_precision", "slot_recall")

#: Tokenizer of the richness metrics (spec §12.1).
RICHNESS_TOKENIZER = "lexdiv-0.1.1"


def success_signature(system: str, version: str, state_source: str, domain_source: str,
                      setting: str, matching: str, threshold: float,
                      split: str = "test") -> Signature:
    """Signature of an Inform or Success number (both share it; the metric name is
    ``Inform/Success``)."""
    return Signature("Inform/Success", {
        "system": system, "ver": version, "split": split, "ref": "goals+booked",
        "state": state_source, "dom": domain_source, "set": setting, "match": matching,
        "thr": _num(threshold), "norm": NORMALIZATION_VERSION,
    })


def richness_signature(system: str, version: str | None = None, window: int = 50,
                       split: str = "test") -> Signature:
    """Signature of the richness numbers; ``version`` only for the reference corpus (system
    outputs do not depend on a dataset version)."""
    return Signature("Richness", {
        "system": system, "ver": version, "split": split if version else None,
        "ref": "span" if version else None, "tok": RICHNESS_TOKENIZER, "win": window,
        "norm": NORMALIZATION_VERSION,
    })


def state_match_signature(system: str, version: str, matching: str, threshold: float,
                          split: str = "test") -> Signature:
    """Signature of the §13 state metrics (gold states without ``dontcare`` slots; a value
    matches when its partial_ratio is greater than ``threshold``)."""
    return Signature("StateMatch", {
        "system": system, "ver": version, "split": split, "ref": "gold-states",
        "match": matching, "thr": f">{_num(threshold)}", "norm": NORMALIZATION_VERSION,
    })


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _rows(system: str, version: str, metric: str, setting: str,
          values: Iterable[tuple[str, float]], sig: Signature) -> list[dict[str, Any]]:
    s = sig.format()
    return [{"system": system, "version": version, "metric": metric, "setting": setting,
             "key": k, "value": float(v), "signature": s} for k, v in values]



def success_rows(
    system: str,
    version: str,
    prepared: Mapping[str, PreparedDialogues],
    goals: Mapping[str, Any],
    booked: Mapping[str, Sequence[Sequence[str]]],
    database: VenueQuery,
    matching: str,
    threshold: float,
    memo: Any = None,
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Inform/Success of one system in each setting of ``prepared``.

    Args:
        system, version: labels (rows, signatures).
        prepared: ``{setting: PreparedDialogues}`` (``standard`` and/or ``optimistic``; the
            optimistic input normally carries ground-truth active domains).
        goals, booked: the version's resources (:mod:`mwzrepro.standard.goals`, :mod:`mwzrepro.standard.booked`).
        database: the venue database (its matching mode and threshold must be ``matching``
            and ``threshold``; they are recorded in the signatures).
        matching, threshold: for the signatures.
        memo: the dialogues' outcomes of an earlier run
            (:func:`~mwzrepro.standard.inform_success.dialogue_rows`), or None.

    Returns:
        ``(scores rows, {setting: per-dialogue rows})``: the ``scores`` rows (metric
        inform/success, :data:`SCORE_COLUMNS`) and per setting the
        :func:`~mwzrepro.standard.inform_success.dialogue_rows` (setting, dialogue_id, domain,
        inform, success).

    Raises:
        ConfigError: an unknown setting key.
        InputError: a dialogue without goal or booked-domain list.
    """
    rows: list[dict[str, Any]] = []
    per_dialogue: dict[str, list[dict[str, Any]]] = {}
    for setting, prep in prepared.items():
        if setting not in SETTINGS:
            raise ConfigError(f"unknown setting {setting!r}; expected {SETTINGS}")
        per = per_dialogue[setting] = dialogue_rows(prep.dialogues, goals, booked, database,
                                                    setting, where=f"{system} ({version})",
                                                    memo=memo)
        sig = success_signature(system, version, prep.state_source, prep.domain_source,
                                setting, matching, threshold)
        r = rates_of_rows(per)
        rows += _rows(system, version, "inform", setting, r["inform"].items(), sig)
        rows += _rows(system, version, "success", setting, r["success"].items(), sig)
    return rows, per_dialogue


def richness_scores(system: str, responses: Iterable[str], version: str | None = None,
                    window: int = 50) -> pd.DataFrame:
    """:func:`richness_rows` as a DataFrame (columns :data:`SCORE_COLUMNS`)."""
    import pandas as pd

    return pd.DataFrame(richness_rows(system, responses, version, window), columns=SCORE_COLUMNS)


def richness_rows(system: str, responses: Iterable[str], version: str | None = None,
                  window: int = 50) -> list[dict[str, Any]]:
    """``scores`` rows (metric ``richness``, key = metric name) of §12 over normalized
    ``responses`` in input order; ``version`` is ``""`` in the rows for system outputs."""
    r = lexical_richness(responses, window)
    sig = richness_signature(system, version, window)
    return _rows(system, version or "", "richness", "", [(k, r[k]) for k in RICHNESS_KEYS], sig)



def state_match_rows(system: str, version: str, prepared: PreparedDialogues,
                     gold_states: Mapping[str, Sequence[Mapping[str, Any]]],
                     matching: str, threshold: float = 95) -> list[dict[str, Any]]:
    """``scores`` rows of §13 (metrics joint_accuracy, slot_f1, slot_precision, slot_recall;
    key ``total``) for predicted states; empty when ``prepared`` uses gold states.

    Raises:
        InputError: see :func:`mwzrepro.standard.state_match.state_match`.
    """
    if prepared.state_source != "predicted":
        return []
    result = state_match({d: v["states"] for d, v in prepared.dialogues.items()}, gold_states,
                         matching, threshold, where=system)
    sig = state_match_signature(system, version, matching, threshold)
    rows = []
    for k in STATE_MATCH_KEYS:
        rows += _rows(system, version, k, "", [("total", result[k])], sig)
    return rows



def coverage_rows(system: str, version: str, prepared: PreparedDialogues,
                  expected: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """``scores`` rows ``dialogues``/``turns`` with keys ``scored`` (and ``expected`` when the
    test set's ``{dialogue_id: system turns}`` is given)."""
    sig = Signature("Coverage", {"system": system, "ver": version, "split": "test"})
    vals = [("dialogues", "scored", len(prepared.dialogues)),
            ("turns", "scored", prepared.n_turns)]
    if expected is not None:
        vals += [("dialogues", "expected", len(expected)),
                 ("turns", "expected", sum(expected.values()))]
    rows = []
    for metric, key, v in vals:
        rows += _rows(system, version, metric, "", [(key, v)], sig)
    return rows
