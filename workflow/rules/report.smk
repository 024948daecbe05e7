# The browsable report: `snakemake --report results/report.html` (Snakemake's own report,
# workflow/report/). Its viewer shows HTML, SVG, PNG and PDF items and offers Markdown/CSV only
# as downloads, so every table of ALL_TARGETS (results/tables/*.md, CSV-only tables, plot data
# under results/plots/*.csv) gets an HTML page, all written by one report-table job; the SVG plots are
# flagged where their rules write them. A provenance page lists the signatures of
# results/records/*.json, params.yaml and the pinned sources registry. Categories are the
# papers (and the statistics beyond them), subcategories their areas.
# Included last: it reads the final ALL_TARGETS (functions in report_flags.smk).


REPORT_SOURCES = report_sources()
# Every page is written by one report-table job (one process for all tables).
REPORT_PAGES = sorted(REPORT_SOURCES)
REPORT_RECORDS = sorted(
    {
        str(t)
        for t in ALL_TARGETS
        if str(t).startswith("results/records/") and str(t).endswith(".json")
    }
)


rule report_table:
    input:
        sources=[REPORT_SOURCES[p] for p in REPORT_PAGES],
        code=code("report-table"),
    output:
        [
            report(
                f"results/report/pages/{p}.html",
                caption=f"{REPORT_CAPTIONS}/table.rst",
                category=report_page_area(p)[0],
                subcategory=report_page_area(p)[1],
                labels={
                    "table": p,
                    "kind": "plot data" if p.startswith("plotdata_") else "table",
                },
            )
            for p in REPORT_PAGES
        ],
    log:
        "logs/report-table.log",
    conda:
        ENV
    params:
        pairs=" ".join(
            f"--input {REPORT_SOURCES[p]} --out results/report/pages/{p}.html"
            for p in REPORT_PAGES
        ),
    shell:
        "mwzrepro report-table {params.pairs} --log {log}"


rule report_provenance:
    input:
        metrics=REPORT_RECORDS,
        params="params.yaml",
        registry=ancient(registries()),
        code=code("report-provenance"),
    output:
        report(
            # beside the table pages, not among them: results/report/pages/ is then all
            # report-table's, one directory output of its DVC stage
            "results/report/provenance.html",
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
        sources=sources_args(registries()),
    shell:
        "mwzrepro report-provenance {params.metrics} --params {input.params}"
        " {params.sources} --out {output} --log {log}"


ALL_TARGETS.extend(expand("results/report/pages/{page}.html", page=sorted(REPORT_SOURCES)))
ALL_TARGETS.extend(rules.report_provenance.output)
