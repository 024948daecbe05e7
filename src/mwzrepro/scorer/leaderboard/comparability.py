"""Which rows of a multi-system table may be compared: the rule of ``mwzrepro score A B ...``
and :meth:`Evaluator.evaluate_many <mwzrepro.scorer.evaluator.Evaluator.evaluate_many>`.

Every row carries the signatures of its figures (BLEU, Inform/Success of the main setting,
and JGA/FGA when the file has states). Two rows are *comparable* when these signatures agree
on every field except:

* ``system`` (the row's name);
* ``state`` and ``dom`` of Inform/Success: whether the file brought its own states and where
  its active domains came from, which the reference evaluator decides per file (spec-standard-
  evaluation §8–§9); the pipeline's Inform/Success and interval tables let them vary too.

Anything else — coverage (``cov:``), lexicalized input (``lex:``), placeholder vocabulary
(``ph:``), list-valued slots (``alt:``), setting (``set:``), version (``ver:``), matching,
package version (``v:``) — makes rows not comparable. JGA/FGA signatures are compared only
between rows that both have them (a row without states simply has no JGA).

The *reference* is the signature shared by the most rows (ties: the group of the earliest
row). Rows that differ from it are marked per differing field (``cov:944/1000``,
``lex:1-pred``), get no rank and no significance test, and one line names the fields that
differ. Addendum to spec-standard-evaluation §17.1 (the leaderboard): rule as above; why, a table
must not set numbers computed under
different settings side by side unmarked; signature fields: none added.

>>> rows = {"a": {"bleu": "BLEU|ver:mwz21|v:1", "success": "I/S|state:gold|dom:provided|v:1"},
...         "b": {"bleu": "BLEU|ver:mwz21|v:1", "success": "I/S|state:predicted|v:1"},
...         "c": {"bleu": "BLEU|ver:mwz21|cov:dialogues=50/1000,turns=300/7372|v:1",
...               "success": "I/S|state:gold|v:1"}}
>>> c = comparability(rows)
>>> c.marks, c.comparable
({'a': '', 'b': '', 'c': 'cov:50/1000'}, {'a': True, 'b': True, 'c': False})
>>> c.differing_line()
'not comparable with the other rows (no rank, no paired test): cov differs (c)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import Signature
from mwzrepro.stats.catalog import SUCCESS_VARY

__all__ = ["Comparability", "comparability", "COMPARED_BLOCKS", "VARY"]

#: The result blocks whose signatures are compared (the table's columns).
COMPARED_BLOCKS = ("bleu", "success", "dst_fga")
#: Fields allowed to differ between comparable rows (module docstring): those the pipeline's
#: Inform/Success columns let vary.
VARY = SUCCESS_VARY


def _fields(signatures: Mapping[str, str]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for block in COMPARED_BLOCKS:
        if signatures.get(block):
            sig = Signature.parse(signatures[block])
            out.update({(block, k): str(v) for k, v in sig.fields.items() if k not in VARY})
            out[(block, "v")] = sig.version
    return out


def _largest_group(keys: Mapping[str, frozenset]) -> tuple[frozenset, list[str]] | None:
    """``(key, rows)`` of the key shared by the most rows of ``{row: key}`` (rows in table
    order), ties to the group of the earliest row; None without rows."""
    groups: dict[frozenset, list[str]] = {}
    for row, key in keys.items():
        groups.setdefault(key, []).append(row)
    order = list(keys)
    return max(groups.items(), key=lambda kv: (len(kv[1]), -order.index(kv[1][0])),
               default=None)


def _short(field: str, value: str | None) -> str:
    """``cov:944/1000`` for a coverage value (``cov:turns=7360/7372`` when every dialogue is
    there); ``field:value`` (``–`` when absent) else.

    >>> _short("cov", "dialogues=1000/1000,turns=7360/7372")
    'cov:turns=7360/7372'
    """
    if value is None:
        return f"{field}:–"
    if field == "cov" and value.startswith("dialogues="):
        dialogues, _, turns = value.removeprefix("dialogues=").partition(",")
        done, _, of = dialogues.partition("/")
        return f"cov:{dialogues}" if done != of else f"cov:{turns}"
    return f"{field}:{value}"


@dataclass(frozen=True)
class Comparability:
    """The comparability of the rows of one table.

    Attributes:
        reference: the reference row's compared fields ``{(block, field): value}``.
        differing: ``{row: [field, ...]}`` (field names, e.g. ``cov``; empty when comparable).
        marks: ``{row: "cov:944/1000 lex:1-pred"}`` ("" when comparable).
        comparable: ``{row: bool}``.
        signatures: the reference row's signatures without the varying fields
            (``{block: signature}``), printed once under the table.
    """

    reference: dict[tuple[str, str], str]
    differing: dict[str, list[str]]
    marks: dict[str, str]
    comparable: dict[str, bool]
    signatures: dict[str, str]

    @property
    def all_comparable(self) -> bool:
        """Whether every row shares the reference signature."""
        return all(self.comparable.values())

    def differing_fields(self) -> dict[str, list[str]]:
        """``{field: [row, ...]}`` of every field that differs from the reference."""
        out: dict[str, list[str]] = {}
        for row, fields in self.differing.items():
            for f in fields:
                out.setdefault(f, []).append(row)
        return out

    def differing_line(self) -> str:
        """One line naming the fields that differ and the rows they mark ("" if none)."""
        parts = [f"{f} differs ({', '.join(rows)})"
                 for f, rows in self.differing_fields().items()]
        if not parts:
            return ""
        return ("not comparable with the other rows (no rank, no paired test): "
                + "; ".join(parts))

    def check_strict(self) -> None:
        """Raise unless every row is comparable (``--strict``).

        Raises:
            InputError: naming the differing fields and rows.
        """
        if not self.all_comparable:
            detail = "; ".join(f"{row}: {mark}" for row, mark in self.marks.items() if mark)
            raise InputError(f"rows are not comparable ({detail}) and --strict (strict=True) "
                             "requires every row to share the signatures")


def comparability(signatures: Mapping[str, Mapping[str, str]]) -> Comparability:
    """The :class:`Comparability` of rows given as ``{row: {block: signature}}`` (each row's
    :meth:`EvaluationResult.signatures <mwzrepro.scorer.results.EvaluationResult.signatures>`),
    by the rule of the module docstring.

    Raises:
        InputError: a malformed signature.
    """
    fields = {row: _fields(sigs) for row, sigs in signatures.items()}
    main = ("bleu", "success")
    best = _largest_group({row: frozenset(i for i in f.items() if i[0][0] in main)
                           for row, f in fields.items()})
    ref_row = best[1][0] if best else None
    reference = dict(fields[ref_row]) if ref_row is not None else {}
    with_dst = [r for r in fields if any(k[0] == "dst_fga" for k in fields[r])]
    top = _largest_group({r: frozenset(i for i in fields[r].items() if i[0][0] == "dst_fga")
                          for r in with_dst})
    if top is not None:
        reference.update(dict(top[0]))
    differing: dict[str, list[str]] = {}
    marks: dict[str, str] = {}
    for row, f in fields.items():
        blocks = {b for b, _ in f} & {b for b, _ in reference}
        values: dict[str, str | None] = {}
        for k in dict.fromkeys([*reference, *f]):
            if k[0] in blocks and f.get(k) != reference.get(k) and k[1] not in values:
                values[k[1]] = f.get(k)
        differing[row] = list(values)
        marks[row] = " ".join(_short(n, v) for n, v in values.items())
    sigs = {}
    if ref_row is not None:
        for block in COMPARED_BLOCKS:     # JGA/FGA: a row of the largest group with states
            source = top[1][0] if block == "dst_fga" and top is not None else ref_row
            text = signatures[source].get(block)
            if text:
                sigs[block] = Signature.parse(text).without(VARY).format()
    return Comparability(reference, differing, marks,
                         {r: not d for r, d in differing.items()}, sigs)
