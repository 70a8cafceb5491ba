"""Reading a calibrated table: one frame → ``vision.reading.TableReading`` (see ``reader``)."""

from vision.table_reader.reader import TableReader

__all__ = ["TableReader"]
