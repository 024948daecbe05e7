"""Renderings of one scored system for people and papers: ``mwzrepro score --format
text|json|markdown|latex``, the per-dialogue file (``--per-dialogue``) and the turn-by-turn
Inform/Success trace (``mwzrepro explain``).

Input: the plain dict of :meth:`mwzrepro.scorer.results.EvaluationResult.to_dict` (percent
everywhere). Rounding as the papers print the numbers: BLEU, Inform, Success and the combined
score with one decimal (Nekvinda & Dušek 2021; the MultiWOZ leaderboard); average length,
entropies and MSTTR with two; state and DST metrics with two (the FGA paper); counts as
integers. JSON keeps full precision. Every rendering carries the signatures and the coverage,
so a saved result says what it covers; warnings are the logger's, on stderr only (JSON keeps
them as data under ``warnings``).

>>> fmt_number(17.354149, "bleu"), fmt_number(2.0988, "cond_entropy"), fmt_number(478, "x")
('17.4', '2.10', '478')
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mwzrepro.standard.trace import DialogueTrace

__all__ = ["FORMATS", "fmt_number", "format_result", "format_trace", "grounding_lines",
           "per_dialogue_text"]

#: Output formats of ``mwzrepro score``.
FORMATS = ("text", "json", "markdown", "latex")

#: Keys shown with one decimal (the papers' BLEU, Inform, Success, combined score).
_ONE_DECIMAL = frozenset({"bleu", "inform", "success", "combined"})

#: Test-set domains in the order of the paper's tables.
DOMAIN_ORDER = ("attraction", "hotel", "restaurant", "taxi", "train", "hospital", "police")

_RICHNESS_LABELS = {"avg_lengths": "Av. len.", "cond_entropy": "CBE", "entropy": "Entropy",
                    "msttr": "MSTTR-50", "num_unigrams": "#uniq. words",
                    "num_bigrams": "#uniq. bigrams", "num_trigrams": "#uniq. 3-grams"}
_STATE_LABELS = {"joint_accuracy": "joint accuracy", "slot_f1": "slot F1",
                 "slot_precision": "slot precision", "slot_recall": "slot recall"}


def fmt_number(value: Any, key: str) -> str:
    """One value rounded as the papers print it (module docstring); ``–`` for None."""
    if value is None:
        return "–"
    if isinstance(value, bool | int):
        return str(value)
    return f"{value:.1f}" if key in _ONE_DECIMAL else f"{value:.2f}"


def _domains(rates: Mapping[str, float]) -> list[str]:
    return sorted((k for k in rates if k != "total"),
                  key=lambda d: (DOMAIN_ORDER.index(d) if d in DOMAIN_ORDER else 99, d)) + \
        (["total"] if "total" in rates else [])


def _header(result: Mapping[str, Any]) -> list[str]:
    cov = result["coverage"]
    name = result["system"] or "(unnamed system)"
    lines = [f"system {name} on the {result['version']} test set ({result['input']}); "
             f"units: {result['units']}",
             f"coverage: {cov['dialogues']}/{cov['expected_dialogues']} dialogues, "
             f"{cov['turns']}/{cov['expected_turns']} turns"
             + ("" if cov["complete"] else "  <-- PARTIAL")]
    return lines


def _caveats(result: Mapping[str, Any]) -> list[str]:
    """The result's caveats as shown with the figures (text lines, notes)."""
    return [f"WARNING {c}" for c in result.get("caveats", [])]


def grounding_lines(block: Mapping[str, Any] | None, signature: str | None) -> list[str]:
    """The text section of a result's ``grounding`` block (``mwzrepro score``); ``[]`` when
    there is none.

    >>> b = {"attribute_accuracy": {"total": 98.25, "correct": 393, "count": 400, "per_slot":
    ...      {"phone": {"accuracy": 100.0, "correct": 40, "count": 40}}},
    ...      "unknown_venues": {"count": 0, "examples": []},
    ...      "entity_f1": {"f1": 100.0, "precision": 100.0, "recall": 100.0}}
    >>> print("\\n".join(grounding_lines(b, "Grounding|v:0")))
    <BLANKLINE>
    ====== GROUNDING ======
    attributes      98.2 % correct (393/400)
      phone        100.0 % (40/40)
    unknown venues  0
    entity F1       100.0 (P 100.0, R 100.0; against the corpus's own responses)
    signature: Grounding|v:0
    """
    if not block:
        return []
    acc = block["attribute_accuracy"]
    total = "–" if acc["total"] is None else f"{acc['total']:.1f} %"
    out = ["", "====== GROUNDING ======",
           f"{'attributes':<15} {total} correct ({acc['correct']}/{acc['count']})"]
    out += [f"  {slot:<12}{v['accuracy']:>6.1f} % ({v['correct']}/{v['count']})"
            for slot, v in acc["per_slot"].items()]
    unknown = block["unknown_venues"]
    examples = f" (e.g. {', '.join(unknown['examples'][:3])})" if unknown["examples"] else ""
    f1 = block["entity_f1"]
    out += [f"{'unknown venues':<15} {unknown['count']}{examples}",
            f"{'entity F1':<15} {f1['f1']:.1f} (P {f1['precision']:.1f}, R {f1['recall']:.1f}; "
            "against the corpus's own responses)", f"signature: {signature}"]
    return out


def _text(result: Mapping[str, Any]) -> str:
    sig, combined = result["signatures"], result.get("combined")
    out = _header(result) + _caveats(result)
    if result.get("bleu"):
        ref, value = next(iter(result["bleu"].items()))
        out += ["", "====== BLEU ======", f"{'bleu':<15}{fmt_number(value, 'bleu')}",
                f"references: {ref} (span delexicalization)", f"signature: {sig['bleu']}"]
    for key, src in result.get("sources", {}).items():
        block = result["success"] if f"success_{key}" not in result else result[f"success_{key}"]
        bound = "; ORACLE-STATE UPPER BOUND" if src.get("upper_bound") else ""
        out += ["", f"====== SUCCESS ({key}{bound}) ======",
                f"{'':<15}" + "".join(f"{d:>12}" for d in _domains(block["inform"]))]
        for metric in ("inform", "success"):
            out.append(f"{metric:<15}" + "".join(f"{fmt_number(block[metric][d], metric):>12}"
                                                 for d in _domains(block[metric])))
        if block is result["success"] and combined is not None:
            out.append(f"{'combined':<15}{fmt_number(combined, 'combined')}"
                       "  = (Inform + Success) / 2 + BLEU")
        out += [f"states: {src['states']}, active domains: {src['domains']}",
                f"signature: {sig['success' if block is result['success'] else 'success_' + key]}"]
    out += grounding_lines(result.get("grounding"), sig.get("grounding"))
    if result.get("richness"):
        out += ["", "====== RICHNESS ======"]
        out += [f"{k:<15}{fmt_number(v, k)}" for k, v in result["richness"].items()]
        out.append(f"signature: {sig['richness']}")
    if result.get("dst"):
        out += ["", "====== DST (reference evaluator, percent) ======"]
        out += [f"{k:<15}{fmt_number(v, k)}" for k, v in result["dst"].items()]
        out.append(f"signature: {sig['dst']}")
    if result.get("dst_fga"):
        d = result["dst_fga"]
        out += ["", "====== DST (FGA paper, percent) ======"]
        out += [f"{k:<15}{fmt_number(d[k], k)}" for k in ("jga", "sa", "aga", "aga_relative")]
        out += [f"{'fga(' + lam + ')':<15}{fmt_number(v, 'fga')}" for lam, v in d["fga"].items()]
        out.append(f"{'fuzzy_jga':<15}{fmt_number(d['fuzzy_jga'], 'jga')}")
        out += [f"{k:<15}{fmt_number(d.get(k), k)}" for k in ("rsa", "gca")]
        out += [f"scored: {d['dialogues']} dialogues, {d['turns']} turns",
                f"signature: {sig['dst_fga']}"]
        if "dst_fga_fuzzy" in sig:
            out.append(f"fuzzy signature: {sig['dst_fga_fuzzy']}")
    return "\n".join(out) + "\n"


def _rows(result: Mapping[str, Any]) -> list[tuple[list[str], list[str]]]:
    """The paper-style table(s): ``[(header, cells)]`` — the leaderboard row, then the DST
    row when computed."""
    name = result["system"] or "system"
    head, cells = ["System"], [name]
    if result.get("bleu"):
        head.append("BLEU")
        cells.append(fmt_number(next(iter(result["bleu"].values())), "bleu"))
    if result.get("success"):
        head += ["Inform", "Success"]
        cells += [fmt_number(result["success"][m]["total"], m) for m in ("inform", "success")]
        if result.get("bleu"):
            head.append("Combined")
            cells.append(fmt_number(result.get("combined"), "combined"))
    if result.get("richness"):
        for k in ("avg_lengths", "cond_entropy", "num_unigrams", "num_trigrams"):
            head.append(_RICHNESS_LABELS[k])
            cells.append(fmt_number(result["richness"][k], k))
    tables = [(head, cells)] if len(head) > 1 else []
    if result.get("dst") or result.get("dst_fga"):
        head, cells = ["System"], [name]
        if result.get("dst_fga"):
            d = result["dst_fga"]
            head += ["JGA", "SA", "AGA"] + [f"FGA({lam})" for lam in d["fga"]] + ["fuzzy JGA"]
            cells += [fmt_number(d[k], k) for k in ("jga", "sa", "aga")]
            cells += [fmt_number(v, "fga") for v in d["fga"].values()]
            cells.append(fmt_number(d["fuzzy_jga"], "jga"))
            head += ["RSA", "GCA"]
            cells += [fmt_number(d.get(k), k) for k in ("rsa", "gca")]
        if result.get("dst"):
            head += [f"{v} (ref.)" for v in _STATE_LABELS.values()]
            cells += [fmt_number(v, k) for k, v in result["dst"].items()]
        tables.append((head, cells))
    return tables


def _notes(result: Mapping[str, Any]) -> list[str]:
    cov = result["coverage"]
    notes = ["units: percent (BLEU on sacreBLEU's 0-100 scale); Combined = (Inform + "
             "Success) / 2 + BLEU"]
    if not cov["complete"]:
        notes.append(f"PARTIAL COVERAGE: {cov['dialogues']}/{cov['expected_dialogues']} "
                     f"dialogues, {cov['turns']}/{cov['expected_turns']} turns")
    notes += [f"{k}: {v}" for k, v in result["signatures"].items()]
    return _caveats(result) + notes


def _markdown(result: Mapping[str, Any]) -> str:
    out: list[str] = []
    for head, cells in _rows(result):
        out += ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|",
                "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |", ""]
    out += [f"- {n}" for n in _notes(result)]
    return "\n".join(out) + "\n"


def _tex(text: str) -> str:
    for a, b in (("\\", r"\textbackslash "), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                 ("#", r"\#"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(a, b)
    return text


def _latex(result: Mapping[str, Any]) -> str:
    out: list[str] = []
    for head, cells in _rows(result):
        out += [r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\toprule",
                " & ".join(_tex(h) for h in head) + r" \\", r"\midrule",
                " & ".join(_tex(c) for c in cells) + r" \\", r"\bottomrule", r"\end{tabular}"]
    out += [f"% {n}" for n in _notes(result)]
    return "\n".join(out) + "\n"


def format_result(result: Mapping[str, Any], fmt: str = "text") -> str:
    """Render a result dict (:meth:`EvaluationResult.to_dict`) as ``text`` (sections like the
    reference evaluator's output, rounded), ``json`` (full precision), ``markdown`` or
    ``latex`` (paper-style rows plus signatures and coverage as notes).

    Raises:
        ValueError: unknown ``fmt``.
    """
    if fmt == "json":
        return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    renderers = {"text": _text, "markdown": _markdown, "latex": _latex}
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")
    return renderers[fmt](result)


def _ids(ids: Sequence[str] | None) -> str:
    if ids is None:
        return "auto"
    return " ".join(ids) if ids else "∅"


def format_trace(trace: DialogueTrace) -> str:
    """The turn-by-turn Inform/Success trace (paper Appendix A, Table 7) as text: per turn
    the user utterance, ground-truth and normalized generated response, state, active
    domains, offered-venue changes and provided requestables; then the goal, the goal venues,
    the offered venues and Inform/Success per domain."""
    out = [f"dialogue {trace.dialogue_id} — Inform/Success trace ({trace.setting} setting)"]
    for d, g in trace.goal.items():
        out.append(f"goal {d}: informable {dict(g.get('informable', {}))}, requestable "
                   f"{list(g.get('requestable', []))}")
    for t in trace.turns:
        out += ["", f"turn {t.turn}"]
        if t.user:
            out.append(f"  user:       {t.user}")
        if t.reference:
            out.append(f"  reference:  {t.reference}")
        out.append(f"  response:   {t.response}")
        out.append(f"  state:      {json.dumps(t.state, ensure_ascii=False)}")
        out.append(f"  active:     {', '.join(t.active_domains) or '–'}")
        for d, ch in t.offers.items():
            what = ch.change if ch.change in ("-", "no update") else \
                f"{ch.change}: {_ids(ch.offered)}"
            found = "" if ch.found is None else f" (query: {_ids(ch.found)})"
            out.append(f"  offered {d}: {what}{found}")
        for d, got in t.provided.items():
            if got:
                out.append(f"  provided {d}: +{' +'.join(got)} -> "
                           f"{', '.join(t.provided_so_far.get(d, []))}")
    out += ["", "result"]
    for d in trace.goal:
        venues = trace.goal_venues.get(d)
        offered = trace.outcome.offered.get(d)
        how = "matched automatically" if offered is None else f"{len(offered)} venue(s)"
        out.append(f"  {d}: offered {_ids(offered)} ({how})"
                   + ("" if venues is None else f"; goal venues {_ids(venues)} ({len(venues)})")
                   + f"; requested {', '.join(trace.goal[d].get('requestable', [])) or '–'}"
                   + f"; provided {', '.join(trace.provided.get(d, [])) or '–'}"
                   + f"; inform {trace.outcome.inform[d]}, success {trace.outcome.success[d]}")
    out.append(f"  total: inform {trace.outcome.inform['total']}, success "
               f"{trace.outcome.success['total']}")
    return "\n".join(out) + "\n"


def per_dialogue_text(rows: Iterable[Mapping[str, Any]], path: str | Path) -> str:
    """Per-dialogue rows (:func:`mwzrepro.standard.trace.dialogue_row`) as the text of
    ``path``'s format: ``.csv`` (one column per field and domain; ids space-separated,
    ``auto`` = matched automatically), ``.json`` (a list) or else JSON Lines."""
    rows = list(rows)
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return json.dumps(rows, indent=1, ensure_ascii=False) + "\n"
    if suffix != ".csv":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    present = {d for r in rows for d in r["inform"] if d != "total"}
    domains = [d for d in DOMAIN_ORDER if d in present] + sorted(present - set(DOMAIN_ORDER))
    fields = ["dialogue_id", "setting", "inform_total", "success_total"]
    for d in domains:
        fields += [f"{k}_{d}" for k in ("inform", "success", "offered", "goal_venues",
                                       "requested", "provided")]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        flat = {"dialogue_id": r["dialogue_id"], "setting": r["setting"],
                "inform_total": r["inform"]["total"], "success_total": r["success"]["total"]}
        for d in domains:
            if d not in r["inform"]:
                continue
            flat.update({f"inform_{d}": r["inform"][d], f"success_{d}": r["success"][d],
                         f"offered_{d}": _ids(r["offered"].get(d)),
                         f"goal_venues_{d}": " ".join(r["goal_venues"].get(d, [])),
                         f"requested_{d}": " ".join(r["requested"].get(d, [])),
                         f"provided_{d}": " ".join(r["provided"].get(d, []))})
        writer.writerow(flat)
    return buf.getvalue()
