"""A dataset version's evaluation resources for the scorer, built once per user.

Which raw files they come from and how they are built with the pipeline's own library code
(:mod:`.build`), verified fetching of those files (:mod:`.fetch`), the per-user cache and its lock
(:mod:`.cache`), the loaded set
(:mod:`.load`: :func:`load_resources`; :mod:`.resource_set`: :class:`VersionResources`;
:mod:`.resource_files`: writing it) and the results of earlier
``mwzrepro score`` runs kept beside it (:mod:`.stored_results`).

The lowest part of the scorer: it imports no other part (``tests/unit/test_import_graph.py``).
``from mwzrepro.scorer.resources import load_resources`` keeps working; the names load on
first access.
"""

from __future__ import annotations

from typing import Any

__all__ = ["load_resources", "VersionResources", "build_key"]


def __getattr__(name: str) -> Any:
    if name == "VersionResources":
        from mwzrepro.scorer.resources.resource_set import VersionResources

        return VersionResources
    if name in __all__:
        from mwzrepro.scorer.resources import load

        return getattr(load, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
