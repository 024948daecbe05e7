"""The model and type labels of the Inform/Success table (columns ``model``, ``type``): the
published leaderboard's, plus those a user gave their own system with ``mwzrepro add-system
--model M --type T`` (kept in the project's ``submissions.yaml``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["with_submission_labels"]

#: Registry path prefix and suffix of a prediction file: ``mwzeval/predictions/<system>.json``.
_PREFIX, _SUFFIX = "mwzeval/predictions/", ".json"


def with_submission_labels(published: Mapping[str, Any], submissions: Mapping[str, Any] | None
                           ) -> dict[str, Any]:
    """``published`` (the parsed leaderboard, ``{"systems": {system: {...}}, ...}``) with the
    ``model``/``type`` labels of the registry ``submissions`` (``{"sources": {id: entry}}``)
    added for systems the leaderboard does not label. The inputs are not modified.

    >>> pub = {"systems": {"ubar": {"model": "GPT-2", "type": "end-to-end"}}}
    >>> sub = {"sources": {"mwzeval-predictions-mine": {
    ...     "path": "mwzeval/predictions/mine.json", "model": "T5", "type": "LLM"}}}
    >>> with_submission_labels(pub, sub)["systems"]
    {'ubar': {'model': 'GPT-2', 'type': 'end-to-end'}, 'mine': {'model': 'T5', 'type': 'LLM'}}
    """
    out = dict(published)
    systems = {k: dict(v) for k, v in (published.get("systems") or {}).items()}
    for entry in ((submissions or {}).get("sources") or {}).values():
        path = str(entry.get("path", ""))
        if not (path.startswith(_PREFIX) and path.endswith(_SUFFIX)):
            continue
        system = path[len(_PREFIX):-len(_SUFFIX)]
        labels = {k: str(entry[k]) for k in ("model", "type") if entry.get(k)}
        if labels:
            systems[system] = {**labels, **systems.get(system, {})}
    out["systems"] = systems
    return out
