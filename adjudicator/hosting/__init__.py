"""Hands-off hosting: `adjudicator run ROOT` does in one pass what a moderator would (collect,
adjudicate when due, send, remind), and `--watch` keeps doing it as mail arrives."""
