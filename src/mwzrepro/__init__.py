"""mwzrepro: a data-versioned reproducibility workflow for the MultiWOZ benchmark."""

__version__ = "0.1.0"
