"""One game on disk: its folder and files (storage), settings, players and their passwords, the
schedule and absences, the stored orders (submissions), and the loaded `Game` (game.py)."""
