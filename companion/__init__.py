"""Tableside companion."""
