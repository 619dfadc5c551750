"""The event store: the only code that knows the ``eventsourcing`` library and the databases.

- ``records``: the records the library stores, under pinned topics;
- ``application``: the library application holding every stream;
- ``aggregate``: a game as an immutable aggregate, and its fast projector;
- ``repository``: reading games back (the cached head, a fresh load, a past version);
- ``hash_chain`` and ``canonical_json``: the audit hash chain, ``seal`` (docs/audit.md);
- ``database_url``: one database URL to the library's settings (SQLite or PostgreSQL);
- ``sqlite_polling`` and ``postgres_recorder``: the recorders each database needs;
- ``group_commit``: the saves of several callers in one transaction;
- ``head_watch``: cached heads kept current when several processes write one database;
- ``runner_election``, ``read_model_group``, ``batching_runner``, ``elected_projection``,
  ``documents``: running the read models (``projections``) once per deployment;
- ``results``: the plain values read back from the store.

docs/architecture.md draws the layers.
"""
