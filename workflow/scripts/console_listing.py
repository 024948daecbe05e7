"""Snakemake's console at normal verbosity without the package source files.

Every job's inputs include the package source files its command loads (about 100 per job;
workflow/scripts/code_deps.py), so that a code edit reruns exactly the jobs that load it.
Snakemake prints a job's inputs, and the inputs newer than its outputs in its reason, file by
file: some 480 KB of console output for one `make tables`. :func:`collapse_source_files`
makes Snakemake's job listing (its ``input:`` line and the ``reason:`` of a job) show them as
one entry, ``<N package source files>``; the other files, the shell command
(``printshellcmds``), error reports and ``snakemake --verbose`` are unchanged. It wraps
``snakemake.jobs.format_files``, the one function that renders those lists, and does nothing
when a Snakemake version lacks it.
"""

from __future__ import annotations

PREFIX = "src/mwzrepro/"


def collapsed(files: list[str]) -> list[str]:
    """``files`` (rendered paths) with the package's ``.py`` files replaced by one entry
    after the others.

    >>> collapsed(["data/a.parquet", "src/mwzrepro/x.py", "src/mwzrepro/core/y.py"])
    ['data/a.parquet', '<2 package source files>']
    >>> collapsed(["src/mwzrepro/resources/sources.yaml"])
    ['src/mwzrepro/resources/sources.yaml']
    """
    code = [f for f in files if str(f).startswith(PREFIX) and str(f).endswith(".py")]
    if not code:
        return list(files)
    skipped = set(code)
    rest = [f for f in files if f not in skipped]
    return rest + [f"<{len(code)} package source file{'s' if len(code) > 1 else ''}>"]


def collapse_source_files() -> bool:
    """Make Snakemake's job listing collapse the package source files (module docstring);
    returns whether it could (idempotent)."""
    try:
        import snakemake.jobs as jobs
    except ImportError:
        return False
    original = getattr(jobs, "format_files", None)
    if original is None or getattr(original, "collapses_sources", False):
        return original is not None

    def format_files(*args, **kwargs):
        return collapsed(original(*args, **kwargs))

    format_files.collapses_sources = True
    jobs.format_files = format_files
    return True
