"""Checks of a crawler's claim that need the network: reverse DNS (`fcrdns`) and Web Bot Auth key directories.

An edge: the registry of methods (`syntax.verification`) says which
reverse-DNS suffixes and signing origins an operator uses; this package asks
DNS (`fcrdns`, `resolvers`), fetches the key directories signed requests
name (`keydirectory`, `signatures`) and judges one claim with all of it
(`claims`).
"""
