# The browsable report: `snakemake --report results/report.html` (Snakemake's own report,
# workflow/report/). Its viewer shows HTML, SVG, PNG and PDF items and offers Markdown/CSV only
# as downloads, so every table of ALL_TARGETS (results/tables/*.md, CSV-only tables, plot data
# under results/plots/*.csv) gets an HTML page, one job each (report-table); the SVG plots are
# flagged where their rules write them. A provenance page lists the signatures of
# results/metrics/*.json, params.yaml and the pinned sources registry. Categories are the
# papers (and the statistics beyond them), subcategories their areas.
# Included last: it reads the final ALL_TARGETS (helpers in report_flags.smk).


def _report_sources():
    """{page name: source file}: every table (.md, or .csv where no .md exists) and every
    plot-data CSV of ALL_TARGETS."""
    # The per-version statistics tables are built for their metrics JSON (in ALL_TARGETS).
    stats = expand(rules.stats_bootstrap.output, version=VERSIONS)
    targets = sorted({str(t) for t in list(ALL_TARGETS) + stats})
    tables = {}
    for t in targets:
        stem, ext = os.path.splitext(t)
        if t.startswith("results/tables/") and ext in (".md", ".csv"):
            name = os.path.basename(stem)
            if ext == ".md" or name not in tables:
                tables[name] = t
        elif t.startswith("results/plots/") and ext == ".csv":
            tables["plotdata_" + os.path.basename(stem)] = t
    return tables


REPORT_SOURCES = _report_sources()
REPORT_METRICS = sorted(
    {str(t) for t in ALL_TARGETS if str(t).startswith("results/metrics/") and str(t).endswith(".json")}
)


def _page_area(w):
    name = w.page[len("plotdata_"):] if w.page.startswith("plotdata_") else w.page
    return report_area(name)


rule report_table:
    input:
        source=lambda w: REPORT_SOURCES[w.page],
        code=code("report-table"),
    output:
        report(
            "results/report/pages/{page}.html",
            caption=f"{REPORT_CAPTIONS}/table.rst",
            category=lambda w: _page_area(w)[0],
            subcategory=lambda w: _page_area(w)[1],
            labels=lambda w: {"table": w.page, "kind": "plot data" if w.page.startswith(
                "plotdata_") else "table"},
        ),
    log:
        "logs/report-table/{page}.log",
    wildcard_constraints:
        page=r"[A-Za-z0-9_.-]+",
    conda:
        ENV
    shell:
        "mwzrepro report-table --input {input.source} --out {output} --log {log}"


rule report_provenance:
    input:
        metrics=REPORT_METRICS,
        params="params.yaml",
        registry=ancient(REGISTRY),
        code=code("report-provenance"),
    output:
        report(
            "results/report/pages/provenance.html",
            caption=f"{REPORT_CAPTIONS}/provenance.rst",
            category="Provenance",
            subcategory="Signatures, parameters, sources",
        ),
    log:
        "logs/report-provenance.log",
    conda:
        ENV
    params:
        metrics=lambda w, input: " ".join(f"--metrics {p}" for p in input.metrics),
    shell:
        "mwzrepro report-provenance {params.metrics} --params {input.params}"
        " --sources {input.registry} --out {output} --log {log}"


ruleorder: report_provenance > report_table


ALL_TARGETS.extend(expand("results/report/pages/{page}.html", page=sorted(REPORT_SOURCES)))
ALL_TARGETS.extend(rules.report_provenance.output)
