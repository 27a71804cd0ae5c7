"""The live web view (``kiebitz web``): every table live for spectators, corrections
for operators, the match records with their exports.

* :mod:`~controller.web.hub`: :class:`TableHub`, each table's view kept from the bus;
* :mod:`~controller.web.app`: the ASGI app (Starlette), pages, JSON, server-sent events;
* :mod:`~controller.web.auth`: operators, Argon2 password hashes;
* :mod:`~controller.web.server`: :class:`WebServer`, uvicorn in a thread.
"""
