"""The classifier's training recipe (needs the ``train`` extra: torch). Runtime code never imports it."""
