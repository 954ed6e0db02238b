from adjudicator.cli import app

app()
