"""The dialects of a prediction file and what they cost it.

Placeholders outside the reference
evaluator's vocabulary (:mod:`.placeholder_pass`, the second pass under ``extended`` at the cost
of what changes, :mod:`.extended_rescoring`) and the warning lines about unknown state domains,
slots and placeholders (:mod:`.warning_lines`). Rules: ``docs/specification.md`` §3.2 and the
addenda in :mod:`mwzrepro.core.placeholders` and :mod:`mwzrepro.core.state_dialects`.
"""
