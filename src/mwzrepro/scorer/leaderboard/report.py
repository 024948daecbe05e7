"""Renderings of a multi-system table
(:class:`mwzrepro.scorer.leaderboard.evaluate_many.Leaderboard`):
``mwzrepro score A B ... --format text|markdown|latex|csv|json``.

One row per system, in the order given (the first is the baseline of the paired tests);
columns Inform, Success, BLEU, Combined and, when a file has states, JGA and FGA(λ), rounded
as the one-file output rounds them (:func:`mwzrepro.standard.report.fmt_number`), then the
rank (by Combined, comparable rows only) and the fields in which a row differs from the
reference signature. With intervals a cell reads ``76.6 ±2.6`` (± = half the width of the
percentile interval); with paired tests ``80.1 ±2.5 (p = 0.0021)*`` (p after the family's
correction, ``*`` below alpha). Under the table: the shared signatures once, the line naming
differing fields, how intervals and tests were made, and the files that failed. ``csv`` and
``json`` keep full precision (JSON: every row's signatures too).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mwzrepro.core.columns import is_missing

if TYPE_CHECKING:
    from mwzrepro.scorer.leaderboard.evaluate_many import Leaderboard

__all__ = ["format_leaderboard", "leaderboard_notes", "LEADERBOARD_FORMATS"]

#: Output formats.
LEADERBOARD_FORMATS = ("text", "markdown", "latex", "csv", "json")

_SIG_TITLES = {"bleu": "BLEU", "success": "Inform/Success", "dst_fga": "JGA/FGA"}


def _cell(row: dict[str, Any], m: str, board: Leaderboard) -> str:
    from mwzrepro.standard.report import fmt_number

    if is_missing(row[m]):
        return "–"
    text = fmt_number(float(row[m]), m)
    if board.ci and not is_missing(row.get(f"{m}_lower")):
        half = (row[f"{m}_upper"] - row[f"{m}_lower"]) / 2
        text += f" ±{fmt_number(half, m)}"
    if board.paired_bs and not is_missing(row.get(f"{m}_p_adjusted")):
        p = row[f"{m}_p_adjusted"]
        text += (f" (p = {p:.4f})" if p >= 1e-4 else " (p < 0.0001)") + (
            "*" if row[f"{m}_significant"] else "")
    return text


def _grid(board: Leaderboard) -> tuple[list[str], list[list[str]]]:
    from mwzrepro.scorer.leaderboard.evaluate_many import METRIC_COLUMNS
    from mwzrepro.stats.catalog import spec

    table = board.table
    metrics = [m for m in METRIC_COLUMNS if table[m].notna().any()]
    head = ["system"] + ["Combined" if m == "combined" else spec(m).title(board.params.fga_lambda)
                         for m in metrics]
    head += ["rank", "differs"]
    body = []
    for row in table.to_dict("records"):
        rank = "–" if is_missing(row["rank"]) else str(int(row["rank"]))
        body.append([row["system"], *(_cell(row, m, board) for m in metrics), rank,
                     row["differs"]])
    if not any(r[-1] for r in body):
        head, body = head[:-1], [r[:-1] for r in body]
    return head, body


def leaderboard_notes(board: Leaderboard) -> list[str]:
    """The lines under the table (module docstring)."""
    comp, p = board.comparability, board.params
    setting = next((next(iter(r.success)) for r in board.results.values() if r.success),
                   "standard")
    notes = [f"{board.version} test set, {setting} setting; units: percent (BLEU on sacreBLEU's "
             "0-100 scale); Combined = (Inform + Success) / 2 + BLEU; rank by Combined among "
             "comparable rows"]
    label = "signatures (every row)" if comp.all_comparable else \
        "signatures of the comparable rows"
    notes.append(f"{label}; state and dom (the file's own states, its active-domain "
                 "source) vary by file:")
    notes += [f"  {_SIG_TITLES[b]}: {s}" for b, s in comp.signatures.items()]
    if board.shared is not None and board.shared.changed:
        notes.append(board.shared.warning())
    if not comp.all_comparable:
        notes.append(comp.differing_line())
    if board.ci or board.paired_bs:
        notes.append(f"{100 * p.confidence:g} % percentile intervals, paired bootstrap over "
                     f"the {board.dialogues} test dialogues ({p.resamples} resamples, seed "
                     f"{p.seed}); ± is half the interval width")
    if board.paired_bs:
        base = next(iter(board.results))
        if comp.comparable[base]:
            notes.append(f"paired tests: each comparable system − the baseline {base}; "
                         f"two-sided p ({p.pvalue}), {p.correction} correction over the "
                         f"systems of each metric; * = corrected p < {p.alpha:g}")
        else:
            notes.append(f"paired tests: none: the baseline {base} is not comparable with "
                         "the other rows")
    notes += [f"FAILED {name}: {msg}" for name, msg in board.failures.items()]
    return notes


def _json(board: Leaderboard) -> str:
    rows = []
    for row in board.table.to_dict("records"):
        clean = {k: None if is_missing(v) else (v.item() if hasattr(v, "item") else v)
                 for k, v in row.items()}
        clean["signatures"] = board.results[row["system"]].signatures()
        rows.append(clean)
    comp = board.comparability
    doc = {"version": board.version, "dialogues": board.dialogues,
           "baseline": next(iter(board.results)), "systems": rows,
           "comparability": {"all_comparable": comp.all_comparable,
                             "signatures": comp.signatures,
                             "differing": comp.differing_fields(),
                             "line": comp.differing_line()},
           "intervals": board.ci, "paired_bs": board.paired_bs,
           "params": board.params.model_dump() if board.params is not None else None,
           "pm": "half the width of the percentile interval" if board.ci else None,
           "failures": dict(board.failures), "notes": leaderboard_notes(board)}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def _tex(text: str) -> str:
    for a, b in (("\\", r"\textbackslash "), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                 ("#", r"\#"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(a, b)
    return text.replace("±", r"$\pm$")


def format_leaderboard(board: Leaderboard, fmt: str = "text") -> str:
    """Render ``board`` as ``text``, ``markdown``, ``latex``, ``csv`` or ``json``.

    Raises:
        ValueError: unknown ``fmt``.
    """
    if fmt == "json":
        return _json(board)
    if fmt == "csv":
        return board.table.to_csv(index=False, lineterminator="\n",
                                  float_format=lambda x: repr(float(x)))
    if fmt not in LEADERBOARD_FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {LEADERBOARD_FORMATS}")
    from mwzrepro.core.tables import grid_lines

    head, body = _grid(board)
    notes = leaderboard_notes(board)
    if fmt == "markdown":
        lines = grid_lines(head, body, fmt) + [""]
        lines += [f"- {n.strip()}" if not n.startswith("  ") else f"  - {n.strip()}"
                  for n in notes]
    elif fmt == "latex":
        lines = [r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\toprule",
                 " & ".join(_tex(h) for h in head) + r" \\", r"\midrule"]
        lines += [" & ".join(_tex(c) for c in r) + r" \\" for r in body]
        lines += [r"\bottomrule", r"\end{tabular}"] + [f"% {n}" for n in notes]
    else:
        left = {i for i in (0, len(head) - 1) if head[i] != "rank"}
        lines = grid_lines(head, body, fmt, left) + [""] + notes
    return "\n".join(lines) + "\n"
