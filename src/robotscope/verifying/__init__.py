"""Checks of a crawler's claim that need the network: forward-confirmed reverse DNS (`fcrdns`).

An edge: the registry of methods (`syntax.verification`) says which
reverse-DNS suffixes an operator uses; this package asks DNS.
"""
