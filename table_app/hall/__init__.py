"""The hall: every table's game in one place, over MQTT (docs/hall.md).

Tables publish their journal rows (public events only) and a retained current state under
``jantaku/<hall>/<table>/...`` (:mod:`table_app.hall.protocol`); ``jantaku hall`` subscribes,
keeps the hall's own journal (:mod:`table_app.hall.store`), follows each table's game
(:mod:`table_app.hall.book`) and serves the hall page, standings, an overlay and a console
(:mod:`table_app.hall.web`). The table's side is :mod:`table_app.runtime.hall_publisher`.
"""
