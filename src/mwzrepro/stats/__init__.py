"""Uncertainty and stability of MultiWOZ scores (issue 14): seeded paired bootstrap
confidence intervals over test dialogues, pairwise significance with Holm's correction,
ranking stability across versions, settings and corrected annotations (Kendall's τ-b)."""
