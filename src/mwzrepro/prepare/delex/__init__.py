"""Delexicalization of reference responses: one module per style."""
