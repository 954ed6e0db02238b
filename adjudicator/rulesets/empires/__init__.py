"""Mare Nostrum: Empires (2016), docs/rules-empires.md E1-E11 (issue 16, in progress).

Not in the registry yet: a game can be created with it only once every phase plays.
What stands: the board and components (`board.py`, data in boards/empires-2016.toml).
"""
