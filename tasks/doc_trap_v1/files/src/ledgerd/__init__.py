"""Ledger reconciliation daemon."""
