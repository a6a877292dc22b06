"""The status page: live scoreboards and PIN-protected referee controls.

Entry points: ``server.start_server(session, settings)`` serves it in this process (``companion demo``);
``app.create_app`` builds the Flask app alone (tests); ``commands.register`` adds ``companion hash-pin``.
This module imports nothing, so reading the ``[web]`` settings does not load Flask.
"""
