/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.coflowshuffle.config.ConfigDocs;
import org.junit.jupiter.api.Test;

/**
 * The README's command list is what the commands declare: every command, every option. Run with
 * {@code -Dcoflow.docs.update=true} to rewrite it after changing an option.
 */
class ReadmeCommandsTest {

  @Test
  void theReadmeListsEveryCommandWithTheOptionsItDeclares() throws Exception {
    List<Command> commands = CoflowCli.defaultCommands();
    assertTrue(commands.size() >= 12, "every command: " + commands.size());
    String block = "```bash\n" + new CoflowCli(commands).commandList() + "```\n";
    assertEquals(
        block,
        ConfigDocs.current(Path.of("..", "README.md"), "commands", block),
        "README.md's command list differs from the commands' options");
  }
}
