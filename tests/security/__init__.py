"""Regression tests for the security review (issue 30): each probe that once got through."""
