"""``kiebitz run``: everything one table needs on one machine (a private broker, the
referee, the table service, an emulated peg board), and the game told in words."""
