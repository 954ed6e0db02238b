"""Core values every layer uses: errors, events, names, fields, messages (i18n), dice, limits,
passwords and the crash log. Imports nothing else of the adjudicator (tests/test_layers.py)."""
