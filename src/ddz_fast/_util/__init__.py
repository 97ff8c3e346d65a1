"""Utilities with no game knowledge: argument checks, the random generator and seeding,
threads, progress bars, plots and Ray."""
