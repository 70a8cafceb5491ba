"""Synthetic table renderer: a game-like layout drawn through a perspective camera, with ground truth."""
