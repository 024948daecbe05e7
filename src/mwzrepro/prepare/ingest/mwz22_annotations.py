"""MultiWOZ 2.2 annotations → canonical ``spans`` and ``acts`` rows: the character spans of
user frames and of ``dialog_acts.json`` ``span_info``, and the dialogue acts (the formats are
described in :mod:`mwzrepro.prepare.ingest.mwz22`, which calls these per turn)."""

from __future__ import annotations

from typing import Any

from mwzrepro.core.errors import IngestError

__all__ = ["check_span", "frame_spans", "act_spans", "convert_acts"]


def check_span(
    text: str, act: str, slot: str, value: str, start: Any, end: Any, issues: list[dict],
    where: str,
) -> bool:
    """True if the span ``[act, slot, value, start, end]`` (character offsets into ``text``) goes
    into the spans table; appends to ``issues`` when it is skipped (offsets outside the text or
    inverted) or suspicious (value differs from ``text[start:end]`` beyond case and spaces).

    Raises:
        IngestError: offsets that are not integers (names ``where``).

    >>> issues = []
    >>> check_span("a cheap place", "", "restaurant-pricerange", "cheap", 2, 7, issues, "t")
    True
    >>> check_span("a cheap place", "", "restaurant-pricerange", "cheap", 9, 30, issues, "t")
    False
    >>> issues[0]["reason"]
    'skipped: character span outside the 13 characters or inverted'
    """
    span = [act, slot, value, start, end]
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool):
        raise IngestError(f"{where}: span offsets must be integers: {span!r}")
    if not 0 <= start <= end <= len(text):
        issues.append({"where": where, "span": span,
                       "reason": f"skipped: character span outside the {len(text)} characters "
                                 "or inverted"})
        return False
    found = text[start:end]
    if found.strip().lower() != value.strip().lower():
        issues.append({"where": where, "span": span,
                       "reason": f"kept: value differs from text[start:end] = {found!r}"})
    return True


def frame_spans(
    did: str, k: int, text: str, frames: list[dict], out: list[dict[str, Any]],
    issues: list[dict], where: str,
) -> None:
    """Append the ``spans`` rows of user turn ``k`` (log position) from its frames' ``slots``
    (frame order, then slot order; ``act`` is ``''``, ``slot`` the name after the domain
    prefix); ``copy_from`` annotations give no span.

    Raises:
        IngestError: a malformed slot annotation (names ``where``).
    """
    i = 0
    for frame in frames:
        slots = frame.get("slots") or []
        if not isinstance(slots, list):
            raise IngestError(f"{where}: frame {frame.get('service')!r}: 'slots' must be a list")
        for item in slots:
            index, i = i, i + 1
            if not isinstance(item, dict) or not isinstance(item.get("slot"), str):
                raise IngestError(f"{where}: frame slot needs a string 'slot': {item!r}")
            if "copy_from" in item:
                continue  # refers to another slot's value, not to text
            source_slot = item["slot"]
            start, end = item.get("start"), item.get("exclusive_end")
            if start is None or end is None:
                issues.append({"where": where, "span": ["", source_slot, item.get("value"),
                                                        start, end],
                               "reason": "skipped: frame slot without character offsets"})
                continue
            value = item.get("value")
            if value is None and isinstance(start, int) and isinstance(end, int):
                value = text[start:end]
            if not isinstance(value, str):
                raise IngestError(f"{where}: span value must be a string: {item!r}")
            if not check_span(text, "", source_slot, value, start, end, issues, where):
                continue
            domain, _, slot = source_slot.lower().partition("-")
            if not slot:
                raise IngestError(f"{where}: span slot {source_slot!r} is not 'domain-slot'")
            out.append(
                {"dialogue_id": did, "turn_id": k, "span_index": index, "act": "",
                 "domain": domain, "slot": slot, "source_slot": source_slot, "value": value,
                 "start": start, "end": end}
            )


def act_spans(
    did: str, k: int, text: str, span_info: Any, out: list[dict[str, Any]], issues: list[dict],
    where: str,
) -> None:
    """Append the ``spans`` rows of system turn ``k`` from its ``dialog_acts.json``
    ``span_info`` entries ``[act, slot, value, start, exclusive end]`` (the spans the reference
    evaluator delexicalizes, spec-standard-evaluation §5.4).

    Raises:
        IngestError: an entry without five fields or with non-string act/slot/value.
    """
    if not isinstance(span_info, list):
        raise IngestError(f"{where}: 'span_info' must be a list")
    for i, span in enumerate(span_info):
        if not isinstance(span, list) or len(span) != 5:
            raise IngestError(f"{where}: span_info entry {i} must have 5 fields: {span!r}")
        act, slot, value, start, end = span
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)  # as the ConvLab reader does for numeric values
        if not (isinstance(act, str) and isinstance(slot, str) and isinstance(value, str)):
            raise IngestError(f"{where}: span_info entry {i} needs string act/slot/value: {span!r}")
        if not check_span(text, act, slot, value, start, end, issues, where):
            continue
        out.append(
            {"dialogue_id": did, "turn_id": k, "span_index": i, "act": act,
             "domain": act.split("-", 1)[0].lower(), "slot": slot.lower(), "source_slot": slot,
             "value": value, "start": start, "end": end}
        )


def convert_acts(
    did: str, k: int, dialog_act: Any, out: list[dict[str, Any]], where: str
) -> None:
    """Append the ``acts`` rows of turn ``k`` from ``{"Domain-Intent": [[slot, value], ...]}``
    (missing fields read as ``'none'``, as the ConvLab reader does).

    Raises:
        IngestError: ``dialog_act`` is not an object of lists.

    >>> rows = []
    >>> convert_acts("sng1", 1, {"Restaurant-Inform": [["Food", "thai"]]}, rows, "t")
    >>> [(r["domain"], r["intent"], r["slot"], r["value"]) for r in rows]
    [('restaurant', 'inform', 'Food', 'thai')]
    """
    if not isinstance(dialog_act, dict):
        raise IngestError(f"{where}: 'dialog_act' must be an object")
    index = 0
    for act, pairs in dialog_act.items():
        if not isinstance(pairs, list):
            raise IngestError(f"{where}: dialog_act[{act!r}] must be a list of [slot, value]")
        domain, _, intent = act.partition("-")
        for pair in pairs:
            # Same reading as the ConvLab reader: missing fields are 'none'.
            slot, value = (pair + ["none", "none"])[:2] if isinstance(pair, list) else (pair, "")
            out.append(
                {"dialogue_id": did, "turn_id": k, "act_index": index, "act": act,
                 "domain": domain.lower(), "intent": intent.lower(), "slot": str(slot),
                 "value": str(value)}
            )
            index += 1
