"""A play-by-email and play-by-forum adjudicator for Mare Nostrum and its family."""

__version__ = "0.1.0"
