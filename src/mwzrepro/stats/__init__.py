"""Uncertainty and stability of MultiWOZ scores: seeded paired bootstrap
confidence intervals over test dialogues, pairwise significance with Holm's correction,
ranking stability across versions, settings, corrected annotations and reference
delexicalization styles (Kendall's τ-b)."""
