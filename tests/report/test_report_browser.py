"""The browsable report (issue 14, item 4): ``snakemake --report`` builds one HTML file that
holds every table (as a page), every SVG plot and the provenance page; opened in headless
Chromium it shows them without a console error, and a screenshot is written to
``results/report/screenshot.png`` of the workspace the report was built in. Building it
prints no docutils message, and a table page's caption shows its inline literals as code
(issue 20; every caption is checked without a browser in ``test_report_captions.py``).

The report needs the workflow's outputs: the ``built_workspace`` fixture (tests/workspace.py)
gives ``MWZREPRO_WORKSPACE``, the checkout when ``make tables`` has run there (the README's
screenshot is then refreshed), or else a reduced workspace built from the mirror in a
temporary directory (one version's test split, three systems among them UBAR so that
Table 7 is there; about a minute), as in CI's fresh clone.

Chromium: the Debian ``chromium`` package (installed with apt-get when missing and the test
runs as root), driven by Playwright (``executable_path``, no downloaded browser). The test
skips only when no browser can be found or installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.services.install import ensure_commands
from tests.workflow.dags import tool_env

pytestmark = [pytest.mark.slow, pytest.mark.mirror]


def _chromium() -> str:
    """Path of Debian's Chromium, installed with apt-get (as root) when missing; the test
    skips, saying why, when it cannot be installed (tests/services/install.py)."""
    return shutil.which("chromium-browser") or ensure_commands({"chromium": "chromium"})["chromium"]


#: Headless Chromium on a closed network (see the machine notes): no background connections.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@pytest.fixture(scope="module")
def built_report(request, tmp_path_factory):
    """(workdir, report path, seconds to build, Chromium path) — ``snakemake --report`` on the outputs.
    The browser is looked for first: without one there is nothing to build for."""
    chromium = _chromium()
    workdir = request.getfixturevalue("built_workspace")
    out = tmp_path_factory.mktemp("report") / "report.html"
    start = time.perf_counter()
    done = subprocess.run(["snakemake", "--report", str(out)], cwd=workdir,
                          env=tool_env(), capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-3000:]
    # docutils prints "<string>:N: (WARNING/2) ..." for malformed caption markup (issue 20)
    messages = [line for line in (done.stdout + done.stderr).splitlines()
                if re.search(r"\((INFO|WARNING|ERROR|SEVERE)/\d\)", line)]
    assert not messages, messages[:10]
    return workdir, out, seconds, chromium


def _expected_items(workdir: Path) -> set[str]:
    """Every item the report must hold: a page per table (and plot-data CSV), every SVG plot
    of the workflow, the provenance page."""
    report = workdir / "results" / "report"
    pages = {p.relative_to(workdir).as_posix()
             for p in [*(report / "pages").glob("*.html"), *report.glob("*.html")]}
    svgs = {p.relative_to(workdir).as_posix() for p in (workdir / "results" / "plots").glob(
        "*.svg")}
    return pages | svgs


def test_report_in_headless_chromium(built_report):
    from playwright import sync_api  # the [test] extra

    workdir, report, seconds, chromium = built_report
    expected = _expected_items(workdir)
    tables = {p.stem for p in (workdir / "results" / "tables").glob("*.md")}
    # every table of results/tables has a page, and the provenance page exists
    assert {f"results/report/pages/{t}.html" for t in tables} <= expected
    assert "results/report/provenance.html" in expected
    assert "results/report/pages/inform_success_trace.html" in expected

    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1800, "height": 950})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(report.as_uri())
        page.wait_for_function("typeof app !== 'undefined'")
        items = set(page.evaluate("Object.keys(results)"))
        assert expected <= items, sorted(expected - items)
        cats = page.evaluate("Object.keys(categories)")
        assert {"Nekvinda & Dušek 2021", "Dey et al. 2022 (FGA)", "Qian et al. 2021",
                "Statistics (CIs, significance, rankings)", "Provenance"} <= set(cats)
        # the statistics of issue 14: a significance heat map and a bump chart per metric
        for metric in ("bleu", "inform", "success", "jga", "fga"):
            assert any(i.startswith("results/plots/stats_significance_") and
                       i.endswith(f"_{metric}.svg") for i in items), metric
            assert f"results/plots/stats_bump_{metric}.svg" in items, metric
        # open Table 7 in the viewer, its category in the menu
        trace = "results/report/pages/inform_success_trace.html"
        page.evaluate("""p => app.setView({navbarMode: 'subcategory',
            category: 'Nekvinda & Dušek 2021', subcategory: 'Inform/Success trace (Table 7)',
            content: 'html', contentPath: results[p].data_uri, resultPath: p})""", trace)
        frame = page.wait_for_selector("iframe").content_frame()
        frame.wait_for_selector("table")
        assert "19212 19185 19219" in frame.inner_text("table")
        # an SVG plot renders as an image of the file's width (matplotlib writes points;
        # CSS: 1pt = 4/3 px; naturalWidth is a whole number of pixels). The image is found by
        # its data URI: the page's logo is an SVG image too.
        svg = "results/plots/dst_fga_lambda.svg"
        if svg not in items:
            pytest.fail(f"{svg} is not in the report (items: {len(items)})")
        page.evaluate("p => app.setView({content: 'img', contentPath: results[p].data_uri,"
                      " resultPath: p})", svg)
        uri = page.evaluate("p => results[p].data_uri", svg)
        page.wait_for_function("u => [...document.images].some(i => i.src === u && i.complete)",
                               arg=uri)
        natural = page.evaluate("u => [...document.images].find(i => i.src === u).naturalWidth",
                                uri)
        width_pt = re.search(r'<svg[^>]* width="([0-9.]+)pt"',
                             (workdir / svg).read_text(encoding="utf-8")).group(1)
        assert abs(natural - float(width_pt) * 4 / 3) < 1, (natural, width_pt)
        page.evaluate("""p => app.setView({content: 'html',
            contentPath: results[p].data_uri, resultPath: p})""", trace)
        page.wait_for_selector("iframe").content_frame().wait_for_selector("table")
        shot = workdir / "results" / "report" / "screenshot.png"
        page.screenshot(path=str(shot))
        # a table page's caption (workflow/report/table.rst): inline literals show as code,
        # not as raw backticks, and docutils left no system message in it (issue 20)
        page.evaluate("p => app.showResultInfo(p)", trace)
        caption = page.wait_for_selector("li.prose")
        literals = caption.eval_on_selector_all("tt.literal", "es => es.map(e => e.textContent)")
        assert "results/tables/" in literals and "mwzrepro report-table" in literals, literals
        assert "`" not in caption.inner_text() and "System Message" not in caption.inner_text()
        browser.close()
    assert not errors, errors
    assert shot.stat().st_size > 10_000
    print(f"report: {len(items)} items, built in {seconds:.1f} s")
