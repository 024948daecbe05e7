"""Readers of DST inputs, one module per input format (spec-dst-metrics §10): gold states
from the canonical tables (:mod:`.gold`), end-to-end predictions (:mod:`.predictions`), per-slot
flag files (:mod:`.flags`), human-evaluation logs (:mod:`.human_eval`) and paired state files
(:mod:`.paired`). Every reader raises :class:`~mwzrepro.dst.state.DSTError` naming the file,
dialogue and turn."""
