# report() flags of the browsable report (workflow/rules/report.smk): the category (paper) and
# subcategory (area) of every table page and plot, and the flag helper used by the rules that
# write SVG plots. Included right after common.smk.
import os

REPORT_CAPTIONS = "../report"  # caption paths are relative to the rules file

# (category, subcategory) of a table by name prefix; first match wins.
PAPER_ND = "Nekvinda & Dušek 2021"
PAPER_FGA = "Dey et al. 2022 (FGA)"
PAPER_QIAN = "Qian et al. 2021"
STATS = "Statistics (CIs, significance, rankings)"
GROUNDED = "Grounded scoring of lexicalized text"
REPORT_AREAS = [
    ("bleu_styles", PAPER_ND, "BLEU by reference style (Table 4)"),
    ("delex_example", PAPER_ND, "Delexicalization example (Table 2)"),
    ("bleu", PAPER_ND, "BLEU by version"),
    ("inform_success_grounded", GROUNDED, "Inform/Success of lexicalized text"),
    ("inform_success_trace", PAPER_ND, "Inform/Success trace (Table 7)"),
    ("inform_success", PAPER_ND, "Inform/Success (Table 5)"),
    ("richness", PAPER_ND, "Lexical richness (Table 6)"),
    ("state_match", PAPER_ND, "State metrics"),
    ("outputs_", PAPER_ND, "Outputs side by side (Tables 8-9)"),
    ("fga_statistics", PAPER_FGA, "Dataset statistics (Table 2)"),
    ("dst", PAPER_FGA, "DST metrics (Table 1, FGA vs lambda)"),
    ("consistency", PAPER_QIAN, "Annotation consistency"),
    ("entity_bias", PAPER_QIAN, "Entity bias"),
    ("stats_significance", STATS, "Significance"),
    ("stats_bump", STATS, "Ranking stability"),
    ("stats_rank", STATS, "Ranking stability"),
    ("stats_", STATS, "Confidence intervals"),
]


def report_area(name):
    """(category, subcategory) of a table or plot named `name` (REPORT_AREAS)."""
    for prefix, category, sub in REPORT_AREAS:
        if name.startswith(prefix):
            return category, sub
    return "Other", "Other"


def report_svg(path, caption):
    """An SVG plot output flagged for the report, in the category of its name."""
    category, sub = report_area(os.path.basename(path))
    return report(path, caption=f"{REPORT_CAPTIONS}/{caption}", category=category, subcategory=sub)


def report_sources():
    """{page name: source file}: every table (.md, or .csv where no .md exists) and every
    plot-data CSV of ALL_TARGETS (call it once every rules file has added its targets)."""
    # The per-version statistics tables are built for their metrics JSON (in ALL_TARGETS).
    stats = STATS_VERSION_OUTPUTS  # stats.smk
    targets = sorted({str(t) for t in list(ALL_TARGETS) + stats})
    tables = {}
    for t in targets:
        stem, ext = os.path.splitext(t)
        if t.startswith("results/tables/") and ext in (".md", ".csv"):
            name = os.path.basename(stem)
            if ext == ".md" or name not in tables:
                tables[name] = t
        elif t.startswith("results/plots/") and ext == ".csv":
            tables[f"plotdata_{os.path.basename(stem)}"] = t
    return tables


def report_page_area(page):
    """(category, subcategory) of the report page `page`."""
    name = page[len("plotdata_") :] if page.startswith("plotdata_") else page
    return report_area(name)
