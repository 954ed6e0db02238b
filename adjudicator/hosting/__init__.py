"""Moving a game along: adjudicating a phase (adjudication.py), and hands-off hosting, where
`adjudicator run ROOT` does in one pass what a moderator would (collect, adjudicate when due,
send, remind), `--watch` keeps doing it as mail arrives, and `pause`/`resume` stop and start it."""
