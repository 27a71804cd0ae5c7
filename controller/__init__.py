"""The services and the command line: table service, referee, recorder, web view, CLI."""
