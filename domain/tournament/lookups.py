"""Lookups every tournament decision starts with: the event, a player, a round, a table, and
the checks of plain values; each refuses with its stable code (``domain.errors.Code``)."""

from __future__ import annotations

from domain.errors import Code as TC
from domain.tournament.errors import refuse
from domain.tournament.state import PlayerEntry, Round, Settings, Table, TournamentState


def settings_of(state: TournamentState) -> Settings:
    if state.settings is None:
        raise refuse("the tournament has not been created", TC.TOURNAMENT_NOT_CREATED)
    return state.settings


def player_of(state: TournamentState, key: str) -> PlayerEntry:
    settings_of(state)
    entry = state.players.get(key)
    if entry is None:
        raise refuse(f"unknown player {key!r}", TC.UNKNOWN_PLAYER)
    return entry


def round_of(state: TournamentState, number: int) -> Round:
    settings_of(state)
    rnd = state.round(number) if is_int(number) else None
    if rnd is None:
        raise refuse(f"unknown round {number!r} (rounds paired: {len(state.rounds)})", TC.UNKNOWN_ROUND)
    return rnd


def table_of(rnd: Round, number: int) -> Table:
    table = rnd.table(number) if is_int(number) else None
    if table is None:
        raise refuse(f"unknown table {number!r} in round {rnd.number} ({len(rnd.tables)} tables)", TC.UNKNOWN_TABLE)
    return table


def is_int(value: object) -> bool:
    # bool is an int to Python, never to a scorekeeper.
    return isinstance(value, int) and not isinstance(value, bool)


def text_of(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise refuse(f"{what} must be a non-empty string, got {value!r}", TC.INVALID_COMMAND)
    return value.strip()
