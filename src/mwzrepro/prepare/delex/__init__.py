"""Delexicalization of reference responses (one module per style) and of lexicalized system responses (rule lex:1, with its inverse for round trips)."""
