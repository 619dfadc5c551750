"""Read models: folds of the event log into the views that queries read.

- ``game_summaries``: one summary row per game (the game list): what each event changes in it;
- ``game_summary_tables``: that read model's tables on SQLite and PostgreSQL;
- ``game_list``: that read model as a process runs it (its runner and view);
- ``matches``: the games of one table in one round, and the match result (MTR 2.1, 2.4);
- ``timeline`` and ``sentences``: a game's events as readable lines.

Read models sit above the store (``store``: they follow its notification log and keep their
tables there) and below the application (``ledger``). docs/architecture.md draws the layers.
"""
