"""Request bodies: one model per action type and one for the create body.

Each model is the single description of its body: it validates the JSON (``domain.commands.parse``
turns what it refuses into ``GameError``\\ s with stable codes), builds the domain command
(``to_command``), and gives the JSON schema the API publishes in ``/openapi.json``.

- ``fields``: field types shared by the bodies, each carrying its check, code and schema;
- ``flow``: advance, resolve, order_triggers, concede, counter, note;
- ``effects``: the direct effects a judge or scorekeeper reports (counters, life, damage, ...);
- ``played``: cast, play_land, activate, attack;
- ``opening``: choose_first_player, mulligan, keep_hand (before the first turn, CR 103);
- ``create``: the body of ``POST /v1/games``.
"""
