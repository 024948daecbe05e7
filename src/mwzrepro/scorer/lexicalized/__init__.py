"""Lexicalized text in the scorer: the form of a file, the lex:1 pass, grounded scoring.

The form of a file (:mod:`.file_form`: one measure of the
placeholders, linked values and venue names its responses carry, and the decisions that read
it), the hint for a lexicalized file scored as delexicalized (:mod:`.detect`), the lex:1 pass
(:mod:`.delexicalize_pass`), grounded scoring (:mod:`.grounding`, its turn-by-turn trace
:mod:`.grounding_trace` and probes :mod:`.probes`), the ``inform_success_grounded`` table
(:mod:`.grounded_table`) and the round trip from predicted states (:mod:`.round_trip`, its
inputs that no fuzzy threshold changes :mod:`.round_trip_inputs`).
Rules: ``docs/specification.md`` and the addendum of :mod:`mwzrepro.standard.grounded`.
"""
