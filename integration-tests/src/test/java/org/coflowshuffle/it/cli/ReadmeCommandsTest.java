/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.coflowshuffle.config.ConfigDocs;
import org.coflowshuffle.coordinator.cli.CoflowCli;
import org.coflowshuffle.coordinator.cli.Command;
import org.junit.jupiter.api.Test;

/**
 * The README's command list is what the commands declare: every command of every module (this
 * module's class path has them all), every option. Run with {@code -Dcoflow.docs.update=true} to
 * rewrite it after changing an option.
 */
class ReadmeCommandsTest {

  @Test
  void theReadmeListsEveryCommandWithTheOptionsItDeclares() throws Exception {
    Map<String, Command> commands = CoflowCli.defaultCommands();
    assertTrue(commands.keySet().containsAll(java.util.List.of("solve", "simulate", "terasort")));
    String block = "```bash\n" + new CoflowCli(commands).commandList() + "```\n";
    assertEquals(
        block,
        ConfigDocs.current(Path.of("..", "README.md"), "commands", block),
        "README.md's command list differs from the commands' options");
  }
}
