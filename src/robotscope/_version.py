"""The version of robotscope: its one home, read by the package, the build (pyproject.toml) and the tests."""

__version__ = "0.2.0.dev0"
