"""Persistence tests: the event store on SQLite and PostgreSQL."""
