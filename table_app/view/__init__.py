"""What the table display, the broadcast overlay and the console show: pure values, no I/O.

:func:`table_app.view.build.build_view` turns a :class:`~table_app.rules.state.GameState` plus
what the runtime adds (the last announcement, link and camera status, tray readings) into a
frozen :class:`~table_app.view.model.TableView`; ``TableView.to_json()`` is the JSON edge.
"""
