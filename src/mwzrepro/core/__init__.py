"""Core machinery shared by every area: deterministic IO, table schemas, errors, signatures, table and plot rendering, pinned sources, normalization and fuzzy matching."""
