"""The browsable report (issue 14, item 4): ``snakemake --report`` builds one HTML file that
holds every table (as a page), every SVG plot and the provenance page; opened in headless
Chromium it shows them without a console error, and a screenshot is written to
``results/report/screenshot.png``.

The report needs the workflow's outputs. The test uses the checkout when ``snakemake`` has
been run there (``results/report/pages/`` present), or the built workspace named by
``MWZREPRO_REPORT_WORKDIR``; otherwise it skips, saying so. A fresh clone (``make test``, CI)
holds only the committed metrics and plots, not the tables, and building them takes minutes,
so the report test runs where the pipeline has run (``make tables`` then ``make test``).

Chromium: the Debian ``chromium`` package (installed with apt-get when missing and the test
runs as root), driven by Playwright (``executable_path``, no downloaded browser). The test
skips only when no browser can be found or installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO


def _workdir() -> Path:
    env = os.environ.get("MWZREPRO_REPORT_WORKDIR")
    for candidate in ([Path(env)] if env else []) + [REPO]:
        if (candidate / "results" / "report" / "pages").is_dir() and any(
                (candidate / "results" / "tables").glob("*.md")):
            return candidate
    pytest.skip("no built workflow outputs (results/tables, results/report/pages): run "
                "`snakemake -j8` in the checkout, or set MWZREPRO_REPORT_WORKDIR to a built "
                "workspace; a fresh clone holds only the committed metrics and plots")


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"],
                       capture_output=True, check=False,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        found = shutil.which("chromium")
        if found:
            return found
    pytest.skip("no Chromium: install the Debian package `chromium` (apt-get install chromium)")


@pytest.fixture(scope="module")
def built_report(tmp_path_factory):
    """(workdir, report path, seconds to build) — ``snakemake --report`` on the outputs."""
    workdir = _workdir()
    out = tmp_path_factory.mktemp("report") / "report.html"
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    start = time.perf_counter()
    done = subprocess.run([str(bindir / "snakemake"), "--report", str(out)], cwd=workdir,
                          env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-3000:]
    return workdir, out, seconds


def _expected_items(workdir: Path) -> set[str]:
    """Every item the report must hold: a page per table (and plot-data CSV), every SVG plot
    of the workflow, the provenance page."""
    pages = {p.relative_to(workdir).as_posix()
             for p in (workdir / "results" / "report" / "pages").glob("*.html")}
    svgs = {p.relative_to(workdir).as_posix() for p in (workdir / "results" / "plots").glob(
        "*.svg")}
    return pages | svgs


def test_report_in_headless_chromium(built_report):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (PyPI) missing")
    workdir, report, seconds = built_report
    chromium = _chromium()
    expected = _expected_items(workdir)
    tables = {p.stem for p in (workdir / "results" / "tables").glob("*.md")}
    # every table of results/tables has a page, and the provenance page exists
    assert {f"results/report/pages/{t}.html" for t in tables} <= expected
    assert "results/report/pages/provenance.html" in expected
    assert "results/report/pages/inform_success_trace.html" in expected

    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1800, "height": 950})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(report.as_uri())
        page.wait_for_function("typeof app !== 'undefined'")
        items = set(page.evaluate("Object.keys(results)"))
        assert expected <= items, sorted(expected - items)
        cats = page.evaluate("Object.keys(categories)")
        assert {"Nekvinda & Dušek 2021", "Dey et al. 2022 (FGA)", "Qian et al. 2021",
                "Provenance"} <= set(cats)
        # open Table 7 in the viewer, its category in the menu
        trace = "results/report/pages/inform_success_trace.html"
        page.evaluate("""p => app.setView({navbarMode: 'subcategory',
            category: 'Nekvinda & Dušek 2021', subcategory: 'Inform/Success trace (Table 7)',
            content: 'html', contentPath: results[p].data_uri, resultPath: p})""", trace)
        frame = page.wait_for_selector("iframe").content_frame()
        frame.wait_for_selector("table")
        assert "19212 19185 19219" in frame.inner_text("table")
        # an SVG plot renders as an image
        svg = "results/plots/dst_fga_lambda.svg"
        if svg in items:
            page.evaluate("p => app.setView({content: 'img', contentPath: results[p].data_uri,"
                          " resultPath: p})", svg)
            img = page.wait_for_selector("img[src^='data:image/svg+xml']")
            assert img.evaluate("i => i.naturalWidth") > 0
            page.evaluate("""p => app.setView({content: 'html',
                contentPath: results[p].data_uri, resultPath: p})""", trace)
            page.wait_for_selector("iframe").content_frame().wait_for_selector("table")
        shot = workdir / "results" / "report" / "screenshot.png"
        page.screenshot(path=str(shot))
        browser.close()
    assert not errors, errors
    assert shot.stat().st_size > 10_000
    print(f"report: {len(items)} items, built in {seconds:.1f} s")
