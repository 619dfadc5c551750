"""HTTP API, settings and command line of MTG Ledger.

The web layer only: it parses requests into commands, hands them to the application service and
renders the results. Rules live in ``domain``; folds of the event log live in ``projections``.
"""
