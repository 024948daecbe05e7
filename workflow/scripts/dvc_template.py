"""Template mode of the workflow: every ``params.yaml`` value as a DVC placeholder.

``dvc.yaml`` is generated from the Snakemake DAG (``make_dvc_yaml.py``). For its commands to
follow later edits of ``params.yaml`` without regeneration, the generator loads the workflow
with :data:`TEMPLATE_ENV` set: ``common.smk`` then replaces every value of the configuration by
the placeholder ``${block.key}`` (:func:`placeholders`), so the jobs' shell commands come out
with ``${inform.fuzzy_threshold}`` where a run has ``90``, and DVC interpolates them from
``params.yaml`` (and tracks them as the stage's params).

*Structural* keys (:data:`STRUCTURAL`, marked on the parameter models) keep their values: they decide which jobs exist and
which files they read and write (datasets, versions, systems, the version a table is built
from), so they are part of the DAG, not of a command. Changing one means regenerating
``dvc.yaml`` (``make dvc.yaml``; ``make tables`` does it before recording).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: Environment variable that switches ``common.smk`` into template mode.
TEMPLATE_ENV = "MWZREPRO_DVC_TEMPLATE"



def structural() -> tuple[str, ...]:
    """The ``params.yaml`` keys (dotted; a key covers everything under it) that shape the DAG:
    the fields marked :data:`mwzrepro.core.params.STRUCTURAL` in the workflow's model and in
    every area's model (``workflow_params``)."""
    from workflow_params import AREA_MODELS, WorkflowParams, area_model

    from mwzrepro.core.params import structural_keys

    keys = list(structural_keys(WorkflowParams))
    for block in AREA_MODELS:
        keys += [f"{block}.{key}" for key in structural_keys(area_model(block))]
    return tuple(keys)


#: params.yaml keys that shape the DAG (:func:`structural`).
STRUCTURAL = structural()

#: How a placeholder is written inside the workflow: ``$<key>``. Snakemake expands ``{...}``
#: in ``params:`` strings and shell commands, so DVC's ``${key}`` cannot pass through it;
#: the generator turns each ``$<key>`` of a command into ``${key}`` (:func:`to_dvc`).
MARKER = re.compile(r"\$<([A-Za-z_][\w.]*)>")


def placeholder(key: str) -> str:
    """The template-mode value of ``key``.

    >>> placeholder("dst.lambdas")
    '$<dst.lambdas>'
    """
    return f"$<{key}>"


def to_dvc(text: str) -> str:
    """A command of a template-mode job with DVC's ``${key}`` interpolation.

    >>> to_dvc('mwzrepro score-dst --lambdas "$<dst.lambdas>"')
    'mwzrepro score-dst --lambdas "${dst.lambdas}"'
    """
    return MARKER.sub(lambda m: "${" + m.group(1) + "}", text)


#: DVC's interpolation ``${key}`` in a generated ``dvc.yaml`` (``${item.<key>}``: a
#: ``foreach`` item's value; any other key: a ``params.yaml`` value).
INTERPOLATION = re.compile(r"\$\{\s*([A-Za-z_][\w.]*)\s*\}")


def params_of(cmd: str) -> list[str]:
    """params.yaml keys interpolated in a command, in order of first use.

    >>> params_of('mwzrepro x --a "${inform.matching}" --v ${item.version} --b ${stats.seed}')
    ['inform.matching', 'stats.seed']
    """
    keys = [k for k in INTERPOLATION.findall(cmd) if not k.startswith("item.")]
    return list(dict.fromkeys(keys))


def to_marker(text: str) -> str:
    """The inverse of :func:`to_dvc`: DVC's ``${key}`` (as the library's
    :func:`mwzrepro.core.params.cli_args` renders it) written ``$<key>`` for Snakemake.

    >>> to_marker('--lambdas "${dst.lambdas}"')
    '--lambdas "$<dst.lambdas>"'
    """
    return re.sub(r"\$\{([A-Za-z_][\w.]*)\}", lambda m: placeholder(m.group(1)), text)


def is_structural(key: str) -> bool:
    """Whether dotted ``key`` is, or lies under, a structural key.

    >>> is_structural("unseen.bases.mwz21"), is_structural("unseen.seed")
    (True, False)
    """
    return any(key == s or key.startswith(s + ".") for s in STRUCTURAL)


def placeholders(config: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``config`` with every non-structural leaf replaced by its placeholder.

    >>> placeholders({"systems": ["a"], "dst": {"lambdas": "0.5", "flags_version": "mwz21"}})
    {'systems': ['a'], 'dst': {'lambdas': '$<dst.lambdas>', 'flags_version': 'mwz21'}}
    """
    out: dict[str, Any] = {}
    for key, value in config.items():
        dotted = f"{prefix}{key}"
        if is_structural(dotted):
            out[key] = value
        elif isinstance(value, Mapping):
            out[key] = placeholders(value, dotted + ".")
        else:
            out[key] = placeholder(dotted)
    return out
