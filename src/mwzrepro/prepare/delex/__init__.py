"""Delexicalization of reference responses (one module per style) and of lexicalized system responses (rule lex:1, delexicalize_responses; its inverse relexicalize for round trips)."""
