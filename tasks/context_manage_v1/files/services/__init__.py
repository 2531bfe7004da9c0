"""Service modules of the shop backend."""
