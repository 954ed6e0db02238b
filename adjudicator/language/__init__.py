"""The order language, common to every game: a player's text cut into lines and pieces, read by
the ruleset's Lark grammar into order lines with their problems, and the written forms of each
order. Knows no game: the grammar and the order types come from the ruleset."""
