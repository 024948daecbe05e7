"""Uncertainty and stability of MultiWOZ scores (issue 14): seeded paired bootstrap
confidence intervals over test dialogues, pairwise significance with Holm's correction,
ranking stability across versions, settings, corrected annotations and reference
delexicalization styles (Kendall's τ-b)."""
