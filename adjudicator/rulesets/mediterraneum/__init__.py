"""Mare Mediterraneum (Jean du Poël, 1989): docs/rules-mediterraneum.md M1-M12.

Issue 17, in progress: the board, the engine, the order language and validation are here and
tested; the `Ruleset` class, reports, forms, map and demo come next, and until then the registry
does not offer this game.
"""
