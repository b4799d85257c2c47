/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/**
 * The options of one command, declared once: {@link #parse} reads a command line with them (through
 * picocli: {@code --name value}, {@code --name=value}, bare switches, {@code --} before operands),
 * {@link #printHelp} lists them for {@code coflow help NAME}, and the README's command list is
 * rendered from {@link #synopsis} and checked against it by a test.
 *
 * <p>Values are kept as text: each command reads them through {@link Flags}' typed getters, whose
 * errors name the option and the value. Every parse error is one line, an {@link
 * IllegalArgumentException}, which the commands print with exit status 2.
 */
public final class CommandOptions {

  /** One option or operand as declared, in order. */
  private record Declared(String name, String label, String description, boolean repeatable) {
    Declared(String name, String label, String description) {
      this(name, label, description, false);
    }

    boolean operand() {
      return !name.startsWith("-");
    }

    String usage() {
      if (operand()) {
        return label;
      }
      return "[" + name + (label == null ? "" : " " + label) + "]" + (repeatable ? "..." : "");
    }
  }

  private final String command;
  private final String summary;
  private final List<Declared> declared = new ArrayList<>();
  private String required;

  private CommandOptions(String command, String summary) {
    this.command = command;
    this.summary = summary;
  }

  /**
   * Options for {@code coflow COMMAND}.
   *
   * @param command the name it is run by, e.g. {@code bench decision}
   * @param summary one line for {@code coflow help}
   */
  public static CommandOptions of(String command, String summary) {
    return new CommandOptions(command, summary);
  }

  /**
   * An option that takes a value.
   *
   * @param label how the value is shown, e.g. {@code N} or the default, {@code 1g}
   */
  public CommandOptions value(String name, String label, String description) {
    return add(new Declared(name, label, description));
  }

  /** An option that takes a value and may be given again and again; {@link Flags#all} reads it. */
  public CommandOptions repeatableValue(String name, String label, String description) {
    return add(new Declared(name, label, description, true));
  }

  /** An option that takes a value and must be given (shown without brackets). */
  public CommandOptions requiredValue(String name, String label, String description) {
    required = name;
    return value(name, label, description);
  }

  /** A switch: present or not. */
  public CommandOptions flag(String name, String description) {
    return add(new Declared(name, null, description));
  }

  /** One operand after the options, e.g. {@code FILE}; it may be missing, the command decides. */
  public CommandOptions operand(String label, String description) {
    return add(new Declared(label, label, description));
  }

  private CommandOptions add(Declared d) {
    if (declared.stream().anyMatch(x -> x.name().equals(d.name()))) {
      throw new IllegalArgumentException(command + ": " + d.name() + " is declared twice");
    }
    declared.add(d);
    return this;
  }

  public String command() {
    return command;
  }

  public String summary() {
    return summary;
  }

  /** The option names, in declaration order. */
  public List<String> names() {
    return declared.stream().filter(d -> !d.operand()).map(Declared::name).toList();
  }

  /** The command line in short, e.g. {@code [--scheme NAME] [--seed N] FILE}. */
  public String synopsis() {
    return String.join(" ", synopsisParts());
  }

  /** The synopsis an option or operand at a time, the pieces a wrapped line may break between. */
  public List<String> synopsisParts() {
    List<String> parts = new ArrayList<>();
    for (Declared d : declared) {
      parts.add(d.name().equals(required) ? d.name() + " " + d.label() : d.usage());
    }
    return parts;
  }

  /** What {@code coflow help COMMAND} prints. */
  public void printHelp(PrintStream out) {
    out.println("usage: coflow " + command + (declared.isEmpty() ? "" : " " + synopsis()));
    out.println();
    out.println(summary);
    if (declared.isEmpty()) {
      return;
    }
    out.println();
    List<String> left = new ArrayList<>();
    for (Declared d : declared) {
      left.add(d.operand() || d.label() == null ? d.name() : d.name() + " " + d.label());
    }
    int width = left.stream().mapToInt(String::length).max().orElse(0);
    for (int i = 0; i < declared.size(); i++) {
      out.printf("  %-" + width + "s  %s%n", left.get(i), declared.get(i).description());
    }
  }

  /**
   * Reads {@code args}.
   *
   * @throws IllegalArgumentException one line: an unknown option, a missing value, a stray operand
   */
  public Flags parse(String[] args) {
    CommandSpec spec = CommandSpec.create().name("coflow " + command);
    for (Declared d : declared) {
      if (d.operand()) {
        spec.addPositional(
            PositionalParamSpec.builder().paramLabel(d.label()).arity("0..1").build());
      } else {
        OptionSpec.Builder option =
            OptionSpec.builder(d.name())
                .arity(d.label() == null ? "0" : "1")
                .type(d.label() == null ? boolean.class : String.class);
        if (d.repeatable()) {
          option.type(List.class).auxiliaryTypes(String.class);
        }
        spec.addOption(option.build());
      }
    }
    CommandLine line = new CommandLine(spec);
    line.setOverwrittenOptionsAllowed(true); // the last of a repeated option counts
    ParseResult result;
    try {
      result = line.parseArgs(args);
    } catch (CommandLine.UnmatchedArgumentException e) {
      String first = e.getUnmatched().get(0);
      throw new IllegalArgumentException(
          (first.startsWith("-") && first.length() > 1 ? "unknown option" : "unexpected argument")
              + " \""
              + first
              + "\" (coflow help "
              + command
              + " lists the options)");
    } catch (CommandLine.MissingParameterException e) {
      String name = e.getMissing().isEmpty() ? "an option" : e.getMissing().get(0).paramLabel();
      if (!e.getMissing().isEmpty() && e.getMissing().get(0) instanceof OptionSpec o) {
        name = o.longestName();
      }
      throw new IllegalArgumentException("option " + name + " needs a value");
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, List<String>> repeated = new LinkedHashMap<>();
    for (OptionSpec o : result.matchedOptions()) {
      if (o.type() == List.class) {
        repeated.put(o.longestName(), List.copyOf(o.<List<String>>getValue()));
      } else {
        values.put(o.longestName(), String.valueOf((Object) o.getValue()));
      }
    }
    List<String> operands = new ArrayList<>();
    for (PositionalParamSpec p : result.matchedPositionals()) {
      operands.add(p.getValue());
    }
    return new Flags(values, repeated, operands);
  }
}
