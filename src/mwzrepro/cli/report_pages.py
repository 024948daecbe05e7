"""Pages of the browsable Snakemake report (``snakemake --report results/report.html``):

* ``report-table``: one result table (``results/tables/<name>.md`` with its title, rows and
  notes, or a CSV-only table / plot-data CSV) as a self-contained HTML page. Snakemake's
  report shows HTML, SVG, PNG and PDF items in its viewer but offers CSV and Markdown only as
  downloads, so every table gets a page.
* ``report-provenance``: the signatures recorded in ``results/records/*.json``, the
  parameters (``params.yaml``) and the pinned sources registry (id, path, URL, SHA-1) as one
  page.

Pages are deterministic (same inputs, same bytes), load nothing from the network and run no
script, so the report opens offline without console errors.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)

_STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;font-size:14px}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 7px;
vertical-align:top;text-align:left}th{background:#f0f0f0}tr:nth-child(even) td{background:#fafafa}
h1{font-size:1.3em}h2{font-size:1.1em}code,pre{font-size:12px}pre{background:#f6f6f6;padding:8px;
overflow:auto}li{margin:.2em 0}"""

#: A signature string: ``NAME|key:value|...|v:<version>`` (mwzrepro.core.signature).
_SIGNATURE = re.compile(r"^[A-Za-z0-9_.-]+\|.*\bv:[0-9]")


def page(title: str, body: str) -> str:
    """A self-contained HTML page (inline style, no script)."""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>\n"
            f"<body>\n{body}\n</body></html>\n")


def markdown_page(text: str, fallback_title: str) -> tuple[str, str]:
    """``(title, HTML page)`` of a table's Markdown (raw HTML in it is escaped).

    >>> t, p = markdown_page("# T\\n\\n| a | b |\\n|---|---|\\n| 1 | <x> |\\n", "f")
    >>> t, "<td>&lt;x&gt;</td>" in p
    ('T', True)
    """
    md = _markdown()
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    title = first[2:].strip() if first.startswith("# ") else fallback_title
    return title, page(title, md.render(text))


@functools.lru_cache(maxsize=1)
def _markdown() -> Any:
    """The one CommonMark renderer (tables on, raw HTML escaped); rendering keeps no state
    in it, and building it costs more than rendering a small table."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def csv_page(path: Path, title: str) -> str:
    """An HTML page of a CSV file (every cell as text)."""
    import pandas as pd

    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    return page(title, f"<h1>{html.escape(title)}</h1>\n"
                       + df.to_html(index=False, border=0, escape=True))


def signatures(data: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """``(dotted key, signature)`` of every signature string in a metrics JSON document.

    >>> list(signatures({"a": {"signature": "X|ver:1|v:0.1.0"}, "b": [1, "Y|k:2|v:0.1"]}))
    [('a.signature', 'X|ver:1|v:0.1.0'), ('b.1', 'Y|k:2|v:0.1')]
    """
    if isinstance(data, dict):
        for key, value in data.items():
            yield from signatures(value, path + (str(key),))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from signatures(value, path + (str(i),))
    elif isinstance(data, str) and _SIGNATURE.match(data):
        yield ".".join(path), data


@click.command("report-table")
@click.option("--input", "sources", type=IN_FILE, required=True, multiple=True,
              help="A table's .md (title, rows, notes) or a .csv (table or plot data); "
              "repeatable, paired in order with --out.")
@click.option("--out", "outs", type=PATH, required=True, multiple=True,
              help="HTML page to write (one per --input).")
@log_option
def report_table(sources: tuple[Path, ...], outs: tuple[Path, ...],
                 log_file: Path | None) -> None:
    """Tables of results/ as HTML pages of the Snakemake report (one process for all)."""
    from mwzrepro.core.errors import ConfigError
    from mwzrepro.core.io import write_text
    from mwzrepro.core.workers import fork_map

    log = setup_logging(log_file)
    if len(sources) != len(outs):
        raise ConfigError(f"report-table: {len(sources)} --input but {len(outs)} --out")
    def write_page(pair: tuple[Path, Path]) -> str:
        source, out = pair
        if source.suffix == ".md":
            _title, text = markdown_page(source.read_text(encoding="utf-8"), source.stem)
        else:
            text = csv_page(source, source.name)
        write_text(text, out)
        return f"report-table: {source} -> {out}"

    # Pages are independent: one per core (mwzrepro.core.workers), the renderers loaded
    # first so the workers inherit them instead of importing them each.
    if any(s.suffix == ".md" for s in sources):
        _markdown()
    if any(s.suffix != ".md" for s in sources):
        import pandas  # noqa: F401
    for line in fork_map(write_page, list(zip(sources, outs))):
        log.info("%s", line)


@click.command("report-provenance")
@click.option("--metrics", "metrics", type=IN_FILE, multiple=True,
              help="A results/records/*.json file (repeatable).")
@click.option("--params", "params_file", type=IN_FILE, required=True, help="params.yaml")
@click.option("--sources", "registries", type=IN_FILE, multiple=True, required=True,
              help="The pinned sources registry (sources.yaml); repeat it for the project's "
                   "submissions.yaml.")
@click.option("--out", type=PATH, required=True, help="HTML page to write.")
@log_option
def report_provenance(metrics: tuple[Path, ...], params_file: Path, registries: tuple[Path, ...],
                      out: Path, log_file: Path | None) -> None:
    """Provenance page of the report: signatures, parameters and pinned sources."""
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import write_text
    from mwzrepro.core.sources import load_registries

    log = setup_logging(log_file)
    esc = html.escape
    parts = ["<h1>Provenance</h1>",
             "<p>Every number of the report is produced by <code>snakemake</code> from the "
             "pinned raw files below with the parameters below; each metric carries a "
             "signature naming its settings and code version.</p>",
             "<h2 id=\"signatures\">Signatures (results/records/*.json)</h2>",
             "<table><tr><th>file</th><th>key</th><th>signature</th></tr>"]
    count = 0
    for path in sorted(metrics, key=lambda p: p.name):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InputError(f"{path}: not JSON: {exc}") from None
        for key, sig in signatures(data):
            parts.append(f"<tr><td>{esc(path.name)}</td><td>{esc(key)}</td>"
                         f"<td><code>{esc(sig)}</code></td></tr>")
            count += 1
    parts.append("</table>")
    parts += ["<h2 id=\"params\">Parameters (params.yaml)</h2>",
              f"<pre>{esc(params_file.read_text(encoding='utf-8'))}</pre>"]
    entries = load_registries(registries, "sources")  # the C YAML parser where available
    parts += [f"<h2 id=\"sources\">Pinned sources ({len(entries)} files)</h2>",
              "<table><tr><th>id</th><th>path (data/raw/)</th><th>URL</th><th>SHA-1</th></tr>"]
    for sid, e in sorted(entries.items()):
        parts.append(f"<tr><td>{esc(sid)}</td><td>{esc(str(e.path))}</td>"
                     f"<td>{esc(str(e.url))}</td>"
                     f"<td><code>{esc(str(e.sha1))}</code></td></tr>")
    parts.append("</table>")
    write_text(page("Provenance", "\n".join(parts)), out)
    log.info("report-provenance: %d signatures, %d sources -> %s", count, len(entries), out)


COMMANDS = [report_table, report_provenance]
