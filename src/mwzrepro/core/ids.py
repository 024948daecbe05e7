"""Dialogue ids as the MultiWOZ test set spells them (spec-standard-evaluation §5.4,
spec-dst-metrics §2.4): lowercase, without a ``.json`` suffix. One definition for the
ingest, the reference styles, the scorer's inputs, the DST readers and the unseen-entity
reports.

>>> canonical_dialogue_id("PMUL4462.json"), canonical_dialogue_id("sng0073")
('pmul4462', 'sng0073')
"""

from __future__ import annotations

__all__ = ["canonical_dialogue_id"]


def canonical_dialogue_id(source_id: object) -> str:
    """``source_id`` (any object; its ``str``) lowercased, without a ``.json`` suffix.
    Raises nothing."""
    return str(source_id).lower().removesuffix(".json")
