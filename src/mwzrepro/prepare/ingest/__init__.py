"""Readers, one per source format, that turn raw MultiWOZ files into the canonical tables of
:mod:`mwzrepro.core.schemas` (dialogues, turns, spans, acts, states, booked, goals).

* :mod:`mwzrepro.prepare.ingest.convlab`: MultiWOZ 2.0/2.1 in the ConvLab layout (``log`` with
  ``text``, ``metadata``, ``dialog_act``, ``span_info`` word spans).
* :mod:`mwzrepro.prepare.ingest.mwz22`: official MultiWOZ 2.2 (schema-guided ``turns``/``frames``,
  character spans, ``dialog_acts.json``).
"""

#: Names of the canonical tables every reader returns, in a fixed order.
CANONICAL_TABLES = ("dialogues", "turns", "spans", "acts", "states", "booked", "goals")

from mwzrepro.core.errors import IngestError  # noqa: E402  (re-exported)

__all__ = ["CANONICAL_TABLES", "IngestError"]
