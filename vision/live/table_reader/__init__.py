"""Reading a calibrated table: one frame → ``vision.live.reading.TableReading`` (see ``reader``)."""

from vision.live.table_reader.reader import TableReader

__all__ = ["TableReader"]
