"""The ``inform_success_grounded`` table (docs/scoring.md, "Grounded scoring of lexicalized text"):
standard against grounded Inform/Success of lexicalized text, with the grounding block's attribute
accuracy, entity F1 and unknown venues, one row per input.

Rows (column ``text``):

* ``corpus``: :data:`ORACLE_ROW`, the corpus's own lexicalized test responses
  (:func:`corpus_text`), scored with the gold states — the upper bound;
* ``as given``: each registered system of the ``lexicalized`` kind (``mwzrepro add-system
  --form lexicalized``), its file scored as it is;
* ``filled``: each public system with predicted states, its delexicalized output filled from
  its own predicted state (:func:`mwzrepro.scorer.lexicalized.round_trip.round_trip`) — the
  round-trip systems, with the attribute accuracy of the filled values alone
  (:func:`mwzrepro.scorer.lexicalized.round_trip.filled_accuracy`).

Every row is one ``Evaluator(lexicalized=True, setting="all").evaluate(...).to_dict()``
(:mod:`mwzrepro.scorer.lexicalized.grounding`; the pipeline's step scores only the ``standard``
and ``grounded`` settings, which are the same numbers); :func:`grounded_table` assembles the rows, checks
that their signatures agree on everything but the system and the ``lex`` state source, and puts
one signature per column group in the notes (no system names). ``benchmarks/
grounded_round_trip.py`` builds its rows with the same functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.signature import check_compatible, table_signature

if TYPE_CHECKING:
    from mwzrepro.core.tables import TableSpec

__all__ = ["ORACLE_ROW", "TEXT_KINDS", "corpus_text", "has_states", "grounded_cells",
           "grounded_table"]

#: Label of the corpus's own lexicalized responses.
ORACLE_ROW = "oracle, lexicalized"

#: Row kinds (column ``text``) in row order: the corpus, registered lexicalized files, the
#: round-trip systems.
TEXT_KINDS = ("corpus", "as given", "filled")

#: The cells of :func:`grounded_cells` that come after the column ``filled attribute
#: accuracy %`` (the others come before it).
_AFTER_FILLED = ("entity F1", "unknown venues")

#: ``to_dict()`` signature keys of the table's column groups.
_SIGNATURES = {"standard": "success", "grounded": "success_grounded", "grounding": "grounding"}
#: Signature fields that differ between the rows (shown as columns ``states``, ``domains``,
#: ``coverage``; ``lex`` is ``1-gold`` for the oracle row, ``1-pred`` for the others).
_PER_ROW = ("state", "dom", "cov", "lex")


def corpus_text(resources: Any) -> dict[str, list[dict[str, str]]]:
    """The corpus's own lexicalized test system turns as a prediction mapping
    ``{dialogue id: [{"response": text}, ...]}`` (from ``resources.reference_columns``, a
    :class:`mwzrepro.scorer.resources.resource_set.VersionResources`; without pandas).

    >>> class R: reference_columns = {"dialogue_id": ["a", "a", "b"], "text": ["x", "y", "z"]}
    >>> corpus_text(R())
    {'a': [{'response': 'x'}, {'response': 'y'}], 'b': [{'response': 'z'}]}
    """
    refs = resources.reference_columns
    out: dict[str, list[dict[str, str]]] = {}
    for did, text in zip(refs["dialogue_id"], refs["text"]):
        out.setdefault(did, []).append({"response": text})
    return out


def has_states(data: Mapping[str, Any]) -> bool:
    """Whether a prediction mapping gives a belief state (``state``) in any turn.

    >>> has_states({"a": [{"response": "x"}]}), has_states({"a": [{"response": "x", "state": {}}]})
    (False, True)
    """
    return any(isinstance(t, Mapping) and "state" in t
               for turns in data.values() if isinstance(turns, list) for t in turns)


def grounded_cells(result: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers of one row from a ``setting="all"`` lexicalized result's ``to_dict()``:
    Inform/Success in percent (standard and grounded), attribute accuracy in percent, entity
    F1 in percent, unknown venues (count).

    Raises:
        KeyError: the result has no grounded block (not scored with ``setting="all"`` or
            ``"grounded"``).
    """
    g = result["grounding"]
    return {
        "Inform": result["success"]["inform"]["total"],
        "Success": result["success"]["success"]["total"],
        "Inform grounded": result["success_grounded"]["inform"]["total"],
        "Success grounded": result["success_grounded"]["success"]["total"],
        "attribute accuracy %": g["attribute_accuracy"]["total"],
        "entity F1": g["entity_f1"]["f1"],
        "unknown venues": int(g["unknown_venues"]["count"]),
    }


def grounded_table(results: Mapping[str, Mapping[str, Any]], version: str,
                   kinds: Mapping[str, str] | None = None,
                   filled: Mapping[str, Mapping[str, Any]] | None = None
                   ) -> tuple[TableSpec, dict[str, Any]]:
    """The table and its metrics record from ``{row label: result.to_dict()}``.

    ``kinds``: ``{label: "as given" | "filled"}`` (default ``filled``; :data:`ORACLE_ROW` is
    ``corpus``); ``filled``: ``{label: filled_accuracy(...)}`` of the round-trip rows (their
    column ``filled attribute accuracy %``; ``–`` elsewhere).

    Rows: by kind (:data:`TEXT_KINDS`), then by label; columns ``states``, ``domains`` and
    ``coverage`` are the signature fields ``state``, ``dom`` and ``cov`` (``full`` without
    one) of the row. The record is ``{"version", "rows": {label: {"text", "states",
    "domains", "standard": {"inform", "success"}, "grounded": {...}, "attribute_accuracy",
    ["filled_attribute_accuracy",] "entity_f1", "unknown_venues"}}, "signatures": {group:
    text}}``, the label ``oracle`` for :data:`ORACLE_ROW` (as in
    ``results/metrics/standard.json``).

    >>> sig = "{}|system:{}|ver:mwz21|state:{}|lex:1-{}|v:0.1.0"
    >>> def res(system, state, n):
    ...     return {"success": {"inform": {"total": n}, "success": {"total": n - 1}},
    ...             "success_grounded": {"inform": {"total": n - 2}, "success": {"total": n - 3}},
    ...             "grounding": {"attribute_accuracy": {"total": 99.0}, "entity_f1": {"f1": 50.0},
    ...                           "unknown_venues": {"count": 2}},
    ...             "signatures": {k: sig.format(k, system, state, state) for k in
    ...                            ("success", "success_grounded", "grounding")}}
    >>> spec, record = grounded_table({"ubar": res("ubar", "pred", 80.0),
    ...                                "mine": res("mine", "pred", 70.0),
    ...                                ORACLE_ROW: res("oracle", "gold", 90.0)}, "mwz21",
    ...                               kinds={"mine": "as given"},
    ...                               filled={"ubar": {"total": 99.5}})
    >>> spec.df[["input", "text", "Inform", "Success grounded"]].values.tolist()
    [['oracle, lexicalized', 'corpus', 90.0, 87.0], ['mine', 'as given', 70.0, 67.0], ['ubar', 'filled', 80.0, 77.0]]
    >>> record["rows"]["ubar"]["filled_attribute_accuracy"], record["signatures"]["grounded"]
    (99.5, 'success_grounded|ver:mwz21|state:<row>|lex:<row>|v:0.1.0')

    Raises:
        mwzrepro.core.signature.SignatureMismatch: rows scored with different settings.
        KeyError: a result without the grounded blocks.
    """
    import pandas as pd

    from mwzrepro.core.tables import TableSpec

    from mwzrepro.core.signature import Signature

    def kind(label: str) -> str:
        return "corpus" if label == ORACLE_ROW else (kinds or {}).get(label, "filled")

    labels = sorted(results, key=lambda label: (TEXT_KINDS.index(kind(label)), label))
    rows, record_rows = [], {}
    for label in labels:
        res = results[label]
        cells = grounded_cells(res)
        own = (filled or {}).get(label, {}).get("total")
        fields = Signature.parse(res["signatures"]["success"]).fields
        states, domains = fields.get("state", "–"), fields.get("dom", "–")
        rows.append({"input": label, "text": kind(label), "states": states,
                     "domains": domains, "coverage": fields.get("cov", "full"),
                     **{k: v for k, v in cells.items() if k not in _AFTER_FILLED},
                     "filled attribute accuracy %": own,
                     **{k: cells[k] for k in _AFTER_FILLED}})
        record_rows["oracle" if label == ORACLE_ROW else label] = {
            "text": kind(label), "states": states, "domains": domains,
            "standard": {"inform": cells["Inform"], "success": cells["Success"]},
            "grounded": {"inform": cells["Inform grounded"],
                         "success": cells["Success grounded"]},
            "attribute_accuracy": cells["attribute accuracy %"],
            **({"filled_attribute_accuracy": own} if own is not None else {}),
            "entity_f1": cells["entity F1"],
            "unknown_venues": cells["unknown venues"],
        }
    signatures = {}
    for group, key in _SIGNATURES.items():
        sigs = [results[label]["signatures"][key] for label in labels]
        check_compatible(sigs, vary=("system",) + _PER_ROW, where=f"{group} columns")
        signatures[group] = table_signature(sigs, per_row=_PER_ROW)
    notes = [f"{group}: {sig}" for group, sig in signatures.items()] + [
        f"{version} test set, lexicalized text (lex:1). Text 'corpus': the corpus's own "
        "lexicalized responses with gold states (the upper bound); 'as given': a registered "
        "lexicalized file; 'filled': the system's delexicalized output filled from its own "
        "predicted state (consistent mode, hearing the venues the user and the response "
        "name). 'states', 'domains', 'coverage': the row's signature fields state, dom and "
        "cov.",
        "Inform and Success (standard, set:standard) score each row's text in the column "
        "'text', delexicalized again by the span matcher (lex:1): for 'filled' rows the "
        "relexicalized text, not the system's own placeholders, so they differ from the "
        "system's row of inform_success (which scores its delexicalized output as "
        "released).",
        "Grounded (set:grounded): the offered venue is the venue named, a requestable counts "
        "only with the named venue's true value. Attribute accuracy: % of values given for a "
        "named venue or train equal to the database; filled: of the values the fill wrote "
        "(those the system's output gives in words are its own). Entity F1: database and "
        "ontology values against the corpus's own response of the turn (micro, %). Unknown "
        "venues: name-like phrases in a venue name's place matching no database venue.",
    ]
    df = pd.DataFrame(rows)
    spec = TableSpec(df, f"Inform/Success of lexicalized text, standard and grounded ({version})",
                     decimals={c: (0 if c == "unknown venues" else 1) for c in df.columns
                               if c not in ("input", "text", "states", "domains", "coverage")},
                     notes=notes)
    return spec, {"version": version, "rows": record_rows, "signatures": signatures}
