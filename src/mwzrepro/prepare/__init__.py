"""Preparing data: raw files to canonical tables (ingest), re-delexicalized references (delex), validated prediction tables (predictions)."""
