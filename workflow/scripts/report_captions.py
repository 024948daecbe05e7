"""Every caption of the browsable report, rendered the way ``snakemake --report`` renders it,
with the docutils warnings each one produces (used by ``tests/report/test_report_captions.py``).

``snakemake --report`` renders the caption of each file flagged with ``report()`` through Jinja
(with the job's ``snakemake`` object: input, output, params, wildcards, config) and then as
reStructuredText through docutils, which prints its warnings ("Inline literal start-string
without end-string", ...) to stderr and renders the broken markup as text. This script does
the same for every report item of the ``--forceall`` DAG, without a built workspace: it calls
Snakemake's own ``FileRecord.render`` (the same Jinja environment and the same link
definitions appended to every caption) on each job, and the global description
(``report:`` in the Snakefile) as Snakemake does. It also renders each caption with Jinja's
``StrictUndefined``, so a reference to a value the job does not have (a wildcard of another
rule, a misspelt input name) is reported instead of silently becoming an empty string.

``python workflow/scripts/report_captions.py WORKDIR`` prints a JSON list, one object per
rendered caption: ``{"caption": path relative to WORKDIR, "output": the report item (or
"(workflow description)"), "html": the rendered HTML body, "warnings": docutils' messages
(level WARNING and above; empty when clean), "undefined": the Jinja error under
StrictUndefined, or ""}``. Like ``snakemake_jobs.py``, run it in a process of its own.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import textwrap
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from snakemake_jobs import load_dag  # noqa: E402  (script directory on sys.path)

#: The link definitions Snakemake appends to every caption before rendering it
#: (``snakemake.report.auto_report``, Snakemake 9): a caption may refer to a category or a
#: file as ``Name_``.
RST_LINKS = textwrap.dedent("""

    .. _Workflow: javascript:show_panel('workflow')
    .. _Statistics: javascript:show_panel('statistics')
    {% for cat, catresults in categories|dictsort %}
    .. _{{ cat.name }}: javascript:app.showCategory('{{ cat.name|urlencode }}')
    {% endfor %}
    {% for res in files %}
    .. _{{ res.target }}: javascript:app.showResultInfo('{{ res.path|urlencode }}')
    {% endfor %}
    """)


def _captured(render) -> tuple[str, str]:
    """(result of ``render()``, what docutils wrote to stderr meanwhile)."""
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream):
        result = render()
    return result, stream.getvalue()


def _undefined(render) -> str:
    """The error of ``render()`` (under StrictUndefined), or ``""``."""
    try:
        _captured(render)
    except Exception as exc:  # noqa: BLE001 - Snakemake wraps the Jinja error in its own
        return " ".join(str(exc).split())
    return ""


def _item_caption(job, caption, env, categories, files) -> str:
    """HTML of the caption of one report item of ``job``, by Snakemake's own
    ``FileRecord.render`` (which needs only these attributes of the record)."""
    from snakemake.report import FileRecord

    record = types.SimpleNamespace(job=job, raw_caption=caption, raw_wildcards=job.wildcards,
                                   workflow=job.rule.workflow, caption="")
    FileRecord.render(record, env, RST_LINKS, categories, files)
    return record.caption


def _description(text, config, env, categories, files) -> str:
    """HTML of the global workflow description, rendered as ``auto_report`` renders it."""
    from docutils.core import publish_parts

    rst = env.from_string(text + RST_LINKS).render(
        snakemake=types.SimpleNamespace(config=config), categories=categories, files=files)
    return publish_parts(rst, writer_name="html")["html_body"]


def render_captions(workdir: Path, targets: list[str] | tuple[str, ...] = ()) -> list[dict]:
    """Every report caption of the ``--forceall`` DAG of ``targets`` (default target if empty)
    in ``workdir``, rendered (module docstring for the fields), sorted by report item."""
    from jinja2 import Environment, StrictUndefined
    from snakemake.io import is_flagged
    from snakemake.report import Category

    lenient = Environment(trim_blocks=True, lstrip_blocks=True)
    strict = Environment(trim_blocks=True, lstrip_blocks=True, undefined=StrictUndefined)

    def entry(source, output: str, render) -> dict:
        html, warnings = _captured(lambda: render(lenient))
        return {"caption": os.path.relpath(source.get_path_or_uri(secret_free=True), workdir),
                "output": output, "html": html, "warnings": warnings,
                "undefined": _undefined(lambda: render(strict))}

    out = []
    with load_dag(workdir, targets) as (workflow, dag):
        items = [(job, f, f.flags["report"]) for job in dag.jobs for f in job.output
                 if is_flagged(f, "report")]
        categories: dict = {}
        for _, _, obj in items:
            categories.setdefault(Category(obj.category), {}).setdefault(
                Category(obj.subcategory), [])
        files = [types.SimpleNamespace(target=os.path.basename(f), path=Path(f))
                 for _, f, _ in items]
        for job, f, obj in items:
            if obj.caption is not None:
                out.append(entry(obj.caption, str(f), lambda env, job=job, c=obj.caption:
                                 _item_caption(job, c, env, categories, files)))
        if workflow.report_text:
            text = workflow.sourcecache.open(workflow.report_text).read()
            out.append(entry(workflow.report_text, "(workflow description)", lambda env:
                             _description(text, workflow.config, env, categories, files)))
    return sorted(out, key=lambda r: r["output"])


if __name__ == "__main__":
    result = render_captions(Path(sys.argv[1]).resolve(), sys.argv[2:])
    sys.stdout.write(json.dumps(result) + "\n")
