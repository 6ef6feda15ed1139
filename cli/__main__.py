from memstrata.cli.main import cli

cli(prog_name="memstrata")
