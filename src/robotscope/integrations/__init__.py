"""Adapters for the tools crawler authors already use (each imports its tool only inside its module)."""
