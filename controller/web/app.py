"""The live web view (``kiebitz web``): an ASGI app (Starlette) over a :class:`TableHub`.

Pages (HTML; each draws itself from the JSON below with ``static/kiebitz.js``):

* ``/`` the club: every table with its game, phase, scores and alerts, live;
* ``/tables/<table>`` one table, live: the peg board as its LEDs show it, the cards
  of the deal on the table, whose turn, the count, the scores or the Skat pad, the
  last events in words, alerts highlighted; an operator's corrections;
* ``/matches`` and ``/matches/<id>``: the records (when a records database is
  given), each match with its exports (``/matches/<id>/export/<format>``);
* ``/login``, ``/logout``.

A table the view has not heard of and a match not in the records are 404, with a
page that says so (the table page draws a table the view knows; it waits for none).

JSON: ``/api/tables``, ``/api/tables/<table>``, ``/api/me`` (the operator's name
and the CSRF token), and ``/api/stream[?table=<table>]``: server-sent events, the
table's view JSON at once and at every change (``data: {…}``; a comment every 15 s
keeps proxies from closing it).

Spectators read without logging in. Corrections (``POST
/api/tables/<table>/command``) need an operator's session (a signed cookie,
``HttpOnly``, ``SameSite=Strict``) and the session's CSRF token in the
``X-CSRF-Token`` header; the body is one command as the bus carries it
(docs/mqtt.md, checked against its schema) and is published on
``kiebitz/v1/<table>/table/command``, stamped ``<table>/web``. That is all an
operator can do: the referee decides what the command changes.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.web.auth import Throttle, Users, new_token
from controller.web.hub import TableHub
from rules.errors import RulesError

__all__ = ["COMMANDS", "make_app"]

log = logging.getLogger("kiebitz.web")

#: The commands an operator may send (docs/mqtt.md: command).
#: The largest match number a page looks up: SQLite's integers end at 2**63 - 1, and
#: a larger one asked for (`/matches/99999999999999999999`) was a server error (500)
MAX_MATCH_ID = 2**63 - 1

COMMANDS = frozenset(
    {"undo", "replace", "confirm", "dismiss", "next_deal", "new_game", "contract", "supply",
     "set_dealer", "go", "penalty"}
)  # fmt: skip
KEEPALIVE_S = 15.0

_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'"


def _page(
    title: str, body: str, *, data: dict[str, Any] | None = None, status: int = 200
) -> HTMLResponse:
    attrs = (
        ""
        if data is None
        else " ".join(f'data-{k}="{html.escape(str(v), quote=True)}"' for k, v in data.items())
    )
    text = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Kiebitz</title>
<link rel="stylesheet" href="/static/kiebitz.css">
<script src="/static/kiebitz.js" defer></script>
</head><body {attrs}>
<header><a class="home" href="/">Kiebitz</a> <span id="who"></span></header>
<main>{body}</main>
</body></html>"""
    return HTMLResponse(text, status_code=status, headers=_HEADERS)


def _no_match() -> HTMLResponse:
    return _page(
        "No such match",
        '<h1>No such match</h1><p><a href="/matches">The match records</a> list every match.</p>',
        status=404,
    )


_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def make_app(
    hub: TableHub,
    *,
    send: Callable[[str, dict[str, Any]], str] | None = None,
    users: Users | None = None,
    records: Any = None,
    secret: str | None = None,
    https_only: bool = False,
) -> Starlette:
    """The app. ``send(table, command_body) -> message id`` publishes an operator's
    command (None: read only); ``users``: the operators (None: nobody may correct);
    ``records``: a :class:`~controller.recorder.store.RecordStore` for the match
    pages; ``secret``: the key the session cookies are signed with (default: a new
    one each start, which logs every operator out)."""
    users = users or Users({})
    throttle = Throttle()
    hashing = asyncio.Semaphore(2)

    def operator(request: Request) -> str | None:
        name = request.session.get("user")
        return name if isinstance(name, str) and users.known(name) else None

    def csrf(request: Request) -> str:
        token = request.session.get("csrf")
        if not isinstance(token, str):
            token = request.session["csrf"] = new_token()
        return token

    def csrf_ok(request: Request, given: str | None) -> bool:
        token = request.session.get("csrf")
        return (
            isinstance(token, str)
            and isinstance(given, str)
            and secrets.compare_digest(token, given)
        )

    # pages --------------------------------------------------------------------------

    async def club(request: Request) -> Response:
        return _page(
            "Club",
            '<h1>Tables</h1><table id="club" class="club"><thead><tr><th>table</th>'
            "<th>game</th><th>phase</th><th>scores</th><th>alerts</th><th>referee</th>"
            '</tr></thead><tbody></tbody></table><p><a href="/matches">Match records</a></p>',
            data={"page": "club"},
        )

    async def table_page(request: Request) -> Response:
        table = request.path_params["table"]
        if hub.view(table) is None:  # the page would follow nothing: it never fills in
            return _page(
                "No such table",
                f"<h1>No table {html.escape(table)}</h1><p>No table of that name has been "
                'heard of. <a href="/">The club</a> lists every table, live.</p>',
                status=404,
            )
        body = f"""
<h1>Table <span id="table-name">{html.escape(table)}</span> <span id="game"></span>
 <span id="referee" class="status"></span></h1>
<section id="alerts" class="alerts" aria-live="assertive"></section>
<section class="row">
 <div id="board" class="board" aria-label="peg board"></div>
 <div class="scores"><div id="scores"></div><div id="turn"></div><div id="count"></div></div>
</section>
<section><h2>On the table</h2><div id="plays" class="plays"></div></section>
<section><h2>Last events</h2><ol id="last" class="last"></ol></section>
<section id="operator" class="operator" hidden><h2>Corrections</h2>
 <div class="buttons">
  <button data-command="undo">Undo the last card read</button>
  <button data-command="next_deal">Next deal</button>
  <button data-command="new_game">New game</button>
 </div>
 <form id="replace"><label>event <input name="event" inputmode="numeric" size="4"></label>
  <label>read as <input name="old" size="3"></label>
  <label>really <input name="new" size="3"></label><button>Replace</button></form>
 <form id="contract"><label>declarer <input name="declarer" inputmode="numeric" size="2"></label>
  <label>contract <input name="contract" size="8"></label>
  <label><input type="checkbox" name="hand"> hand</label><button>Set the contract</button></form>
 <p id="said" role="status"></p>
</section>"""
        return _page(f"Table {table}", body, data={"page": "table", "table": table})

    async def login_page(request: Request) -> Response:
        error = request.query_params.get("error")
        note = '<p class="error">Name or password wrong.</p>' if error else ""
        body = f"""<h1>Operator login</h1>{note}
<form method="post" action="/login" class="login">
<input type="hidden" name="csrf" value="{html.escape(csrf(request))}">
<input type="hidden" name="next" value="{html.escape(request.query_params.get("next", "/"))}">
<label>Name <input name="name" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password"
 required></label><button>Log in</button></form>"""
        return _page("Login", body)

    async def login(request: Request) -> Response:
        form = await request.form()
        nxt = str(form.get("next") or "/")
        if not nxt.startswith("/") or nxt.startswith("//"):
            nxt = "/"
        if not csrf_ok(request, str(form.get("csrf") or "")):
            return PlainTextResponse("the form has expired: load the login page again", 403)
        name, password = str(form.get("name") or ""), str(form.get("password") or "")
        who = request.client.host if request.client else "?"
        if not throttle.allowed(who):
            return PlainTextResponse("too many failed logins: wait a few minutes", 429)
        async with hashing:  # each check is an Argon2 hash: off the event loop, two at once
            ok = await asyncio.to_thread(users.verify, name, password)
        if not ok:
            throttle.failed(who)
            return RedirectResponse("/login?error=1", status_code=303)
        request.session.clear()
        request.session.update(user=name, csrf=new_token())  # a new session at login
        return RedirectResponse(nxt, status_code=303)

    async def logout(request: Request) -> Response:
        form = await request.form()
        if csrf_ok(request, str(form.get("csrf") or "")):
            request.session.clear()
        return RedirectResponse("/", status_code=303)

    # JSON ---------------------------------------------------------------------------

    async def api_tables(request: Request) -> Response:
        return JSONResponse(hub.club())

    async def api_table(request: Request) -> Response:
        view = hub.view(request.path_params["table"])
        if view is None:
            return JSONResponse({"error": "no such table"}, 404)
        return JSONResponse(view)

    async def api_me(request: Request) -> Response:
        return JSONResponse(
            {"operator": operator(request), "csrf": csrf(request), "can_send": send is not None}
        )

    async def api_stream(request: Request) -> Response:
        table = request.query_params.get("table")

        async def events() -> AsyncIterator[bytes]:
            # followed here, where the finally below unfollows it: a page gone before
            # its body began (Starlette then cancels the body unstarted) leaves none
            queue = hub.follow(table)
            stopping = False
            try:
                first = (
                    [hub.payload(table)]
                    if table
                    else [p for t in sorted(hub.tables) if (p := hub.payload(t)) is not None]
                )
                for payload in first:
                    if payload is not None:
                        yield b"data: " + payload + b"\n\n"
                        await asyncio.sleep(0)  # a turn of the loop after each write: below
                while True:
                    try:
                        payload = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                    except TimeoutError:
                        yield b": keepalive\n\n"
                        continue
                    if not payload:  # the server is stopping
                        stopping = True
                        return
                    yield b"data: " + payload + b"\n\n"
                    # The loop runs once between two writes, so a page that went (its
                    # connection closed) is noticed before the next write and Starlette
                    # ends this stream. Without it a burst (the club's every table at
                    # once; views queued while the page was slow) went on writing to the
                    # closed socket: asyncio's "socket.send() raised exception." each time.
                    await asyncio.sleep(0)
            finally:
                if not stopping:
                    log.debug("a stream of %s ended: the page went", table or "every table")
                hub.unfollow(queue)

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def api_command(request: Request) -> Response:
        table = request.path_params["table"]
        name = operator(request)
        if name is None:
            return JSONResponse({"error": "log in as an operator to correct a table"}, 403)
        if not csrf_ok(request, request.headers.get("x-csrf-token")):
            return JSONResponse({"error": "missing or wrong CSRF token"}, 403)
        if send is None:
            return JSONResponse({"error": "this web view is read only"}, 403)
        if hub.view(table) is None:
            return JSONResponse({"error": f"no table {table}"}, 404)
        try:
            body = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError, RecursionError):  # nested 100,000 deep: a 500
            return JSONResponse({"error": "the body is not JSON"}, 400)
        if not isinstance(body, dict) or body.get("command") not in COMMANDS:
            return JSONResponse(
                {"error": f"a command is one of {', '.join(sorted(COMMANDS))}"}, 400
            )
        try:
            sent = send(table, body)
        except ValueError as exc:  # the command's schema (PayloadError)
            return JSONResponse({"error": str(exc)[:300]}, 400)
        return JSONResponse({"sent": sent, "by": name})

    # records ------------------------------------------------------------------------

    async def matches(request: Request) -> Response:
        if records is None:
            return _page("Records", "<h1>Match records</h1><p>No records database.</p>")
        rows = await asyncio.to_thread(records.matches, limit=200)
        items = "".join(
            f'<tr><td><a href="/matches/{r.id}">{r.id}</a></td><td>{html.escape(r.table_id)}'
            f"</td><td>{html.escape(r.game)}</td><td>{_when(r.started_at)}</td>"
            f"<td>{r.events}</td><td>{_scores(r.state)}</td>"
            f"<td>{'playing' if r.open else 'ended'}</td></tr>"
            for r in rows
        )
        return _page(
            "Records",
            '<h1>Match records</h1><table class="club"><thead><tr><th>match</th>'
            "<th>table</th><th>game</th><th>begun</th><th>events</th><th>scores</th>"
            f"<th></th></tr></thead><tbody>{items}</tbody></table>",
        )

    async def match_page(request: Request) -> Response:
        from controller.recorder.exports import FORMATS
        from controller.recorder.replay import ReplayError, check
        from controller.recorder.store import DamagedRecord, RecordsError

        if records is None:
            return _page("Records", "<p>No records database.</p>", status=404)
        number = int(request.path_params["id"])
        if not 1 <= number <= MAX_MATCH_ID:  # SQLite's integers end at 2**63 - 1: a 500
            return _no_match()
        try:
            record = await asyncio.to_thread(records.match, number)
        except RecordsError:
            return _no_match()
        except DamagedRecord as exc:  # a row mangled on disc: said, not a server error
            return _page(
                "A damaged match",
                f"<h1>This match cannot be read</h1><p>{html.escape(str(exc))}</p>",
            )
        try:
            differences = await asyncio.to_thread(check, record)
            verdict = "agrees with the referee" if not differences else "; ".join(differences)
        except (ReplayError, RulesError, KeyError, TypeError, ValueError) as exc:
            verdict = f"cannot be replayed: {exc}"
        r = record.row
        links = " ".join(
            f'<a class="export" href="/matches/{r.id}/export/{f}">{f}</a>' for f in FORMATS
        )
        deals = "".join(
            f"<li>deal {d['number'] + 1}: dealer {'?' if d['dealer'] is None else d['dealer']} "
            f"{_deal_words(d)}</li>"
            for d in record.deals
        )
        body = f"""<h1>Match {r.id}: {html.escape(r.game)} at table {html.escape(r.table_id)}</h1>
<p>{_when(r.started_at)} to {_when(r.ended_at) if r.ended_at else "now (playing)"};
 {r.events} events, {len(record.deals)} deals, {len(record.plays)} cards played;
 scores {_scores(r.state)}.</p>
<p>Replayed through the rules: {html.escape(verdict)}</p>
<p>Exports: {links}</p><ol class="deals">{deals}</ol>"""
        return _page(f"Match {r.id}", body)

    async def match_export(request: Request) -> Response:
        from controller.recorder.exports import FORMATS, export
        from controller.recorder.store import RecordsError

        fmt = request.path_params["fmt"]
        if records is None or fmt not in FORMATS:
            return PlainTextResponse("no such export", 404)
        number = int(request.path_params["id"])
        if not 1 <= number <= MAX_MATCH_ID:
            return PlainTextResponse("no such match", 404)
        try:
            record = await asyncio.to_thread(records.match, number)
            text = await asyncio.to_thread(export, record, fmt)
        except RecordsError:
            return PlainTextResponse("no such match", 404)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            return PlainTextResponse(f"cannot be exported: {exc}", 409)
        suffix = {"json": "json", "csv": "csv", "iss": "sgf"}.get(fmt, "txt")
        media = {"json": "application/json", "csv": "text/csv"}.get(fmt, "text/plain")
        return Response(
            text,
            media_type=f"{media}; charset=utf-8",
            headers={
                "Content-Disposition": f'inline; filename="match-{record.row.id}-{fmt}.{suffix}"'
            },
        )

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    static = resources.files("controller.web") / "static"
    routes = [
        Route("/", club),
        Route("/favicon.ico", favicon),
        Route("/tables/{table}", table_page),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/matches", matches),
        Route("/matches/{id:int}", match_page),
        Route("/matches/{id:int}/export/{fmt}", match_export),
        Route("/api/tables", api_tables),
        Route("/api/tables/{table}", api_table),
        Route("/api/tables/{table}/command", api_command, methods=["POST"]),
        Route("/api/me", api_me),
        Route("/api/stream", api_stream),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    middleware = [
        Middleware(
            SessionMiddleware,
            secret_key=secret or secrets.token_hex(32),
            session_cookie="kiebitz_session",
            same_site="strict",
            https_only=https_only,
            max_age=12 * 3600,
        )
    ]
    return Starlette(routes=routes, middleware=middleware)


def _deal_words(d: dict[str, Any]) -> str:
    res = d.get("result") or {}
    words = str(res.get("name") or "")
    if res.get("value") is not None:
        words += f" {'won' if res.get('won') else 'lost'} {res['value']}"
    for side, p in sorted((d.get("pegged") or {}).items()):
        words += f" {side}: +{p['points']} to {p['score']}"
    return html.escape(words.strip())


def _when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _scores(state: dict[str, Any] | None) -> str:
    scores = (state or {}).get("scores")
    return html.escape(" : ".join(map(str, scores))) if isinstance(scores, list) else "-"
