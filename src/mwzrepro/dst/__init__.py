"""Dialogue state tracking metrics (Dey et al., 2022; spec-dst-metrics): readers, alignment, JGA, slot accuracy, AGA, FGA(λ), relative slot accuracy, granular change accuracy and tables."""
