/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The flows of a coflow as three parallel arrays, 16 bytes a flow where a list of {@link Flow}
 * objects takes about 36: the paper's widest setting has 250,000 flows per coflow and a thousand
 * coflows. Immutable; {@link #get} builds the record on demand, and loops over many flows read the
 * arrays ({@link #sources()}, {@link #reducers()}, {@link #sizes()}), which callers must not
 * modify.
 */
public final class FlowTable extends AbstractList<Flow> implements RandomAccess {

  private final int[] src;
  private final int[] reducer;
  private final double[] bytes;

  private FlowTable(int[] src, int[] reducer, double[] bytes) {
    this.src = src;
    this.reducer = reducer;
    this.bytes = bytes;
  }

  /** {@code flows} itself if it is a table, else a table of the same flows. */
  public static FlowTable copyOf(List<Flow> flows) {
    if (flows instanceof FlowTable t) {
      return t;
    }
    Builder b = new Builder(flows.size());
    for (Flow f : flows) {
      b.add(f.src(), f.reducer(), f.bytes());
    }
    return b.build();
  }

  @Override
  public Flow get(int k) {
    return new Flow(src[k], reducer[k], bytes[k]);
  }

  @Override
  public int size() {
    return src.length;
  }

  /** Per flow, its sending host: read-only. */
  public int[] sources() {
    return src;
  }

  /** Per flow, its reducer's index: read-only. */
  public int[] reducers() {
    return reducer;
  }

  /** Per flow, its bytes: read-only. */
  public double[] sizes() {
    return bytes;
  }

  /** Collects flows one by one, each checked as {@link Flow} checks it. */
  public static final class Builder {
    private int[] src;
    private int[] reducer;
    private double[] bytes;
    private int size;

    /**
     * @param expected how many flows are coming (the arrays grow past it if need be)
     */
    public Builder(int expected) {
      src = new int[expected];
      reducer = new int[expected];
      bytes = new double[expected];
    }

    /**
     * @throws IllegalArgumentException as {@link Flow}'s constructor
     */
    public Builder add(int from, int toReducer, double size) {
      Flow.check(from, toReducer, size);
      if (this.size == src.length) {
        int grown = Math.max(16, 2 * this.size);
        src = Arrays.copyOf(src, grown);
        reducer = Arrays.copyOf(reducer, grown);
        bytes = Arrays.copyOf(bytes, grown);
      }
      src[this.size] = from;
      reducer[this.size] = toReducer;
      bytes[this.size++] = size;
      return this;
    }

    /** The table; the builder must not be used after. */
    public FlowTable build() {
      if (size < src.length) {
        src = Arrays.copyOf(src, size);
        reducer = Arrays.copyOf(reducer, size);
        bytes = Arrays.copyOf(bytes, size);
      }
      return new FlowTable(src, reducer, bytes);
    }
  }
}
