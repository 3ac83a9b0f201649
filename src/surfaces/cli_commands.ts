/**
 * Registers every built-in `graver` command: import this module once, then
 * call `runCli`. A command module registers itself at load (`registerCliCommand`),
 * so a new command is one new module imported here.
 *
 * @module
 */
import "./cli_call.ts";
import "./cli_apply.ts";
import "./cli_checkpoints.ts";
import "./cli_grep.ts";
import "./cli_read.ts";
import "./cli_sg.ts";
import "./cli_stats.ts";
import "./cli_tools.ts";
