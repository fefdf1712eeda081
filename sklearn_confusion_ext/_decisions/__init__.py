"""Decisions from scores: thresholds, abstention and the cost of a decision."""
