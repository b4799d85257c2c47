/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;

/**
 * RPC's rates: every host that receives for the coflow takes all the incoming bandwidth it has
 * left, and its flows end together (MADD within a host) — unless a sender it receives from needs
 * longer for its bytes, in which case the host's flows all stretch to that sender's time. Unlike
 * Algorithm 3 (lines 5-8), hosts that are not the coflow's bottleneck can finish early rather than
 * at the coflow's end, which frees them sooner for the next coflow without delaying this one; and
 * since a host's flows still end together, a coflow ends in at most one event per receiving host.
 * Flows from a sender with no bandwidth free now wait for the next decision.
 *
 * <p>Not thread-safe: it keeps working arrays from one commit to the next (one rule per policy).
 *
 * <p>It is one class, longer than most, because every step of a commit (fresh, continuing, a full
 * shuffle's fast path, the senders' stretch) reads and writes the same per-host working arrays:
 * split, they would be passed between classes on the decision's hottest path.
 */
public final class ReceiverDrivenRates implements RateRule {

  /**
   * Doubles per 64-byte memory line: from one changed reducer per line of a full shuffle's row,
   * {@link #rewriteColumnsByRow} reads about as many lines as going reducer by reducer does, and
   * reads them in order.
   */
  private static final int DOUBLES_PER_LINE = 8;

  /** Share of a link's speed below which what is free of it now counts as none ({@link #take}). */
  private static final double FULL = 0.1;

  /** How far a reducer's end may move before its flows get new rates, relative to its span. */
  private static final double SAME_END = 1e-10;

  // The working arrays, by number.
  private static final int SPAN = 0;
  private static final int FREE_OUT = 1;
  private static final int ACTUAL_IN = 2;
  private static final int SENDER_SPAN = 3;

  /**
   * Per-host working arrays of a commit, zeroed and reused by the next one instead of allocated
   * afresh, so that a commit allocates nothing: a decision may commit several coflows, each commit
   * over every host.
   */
  private final double[][] working = new double[4][];

  /** Working array {@code i}, of {@code length} zeros. */
  private double[] zeroed(int i, int length) {
    double[] a = working[i];
    if (a == null || a.length != length) {
      return working[i] = new double[length];
    }
    Arrays.fill(a, 0);
    return a;
  }

  @Override
  public double[] commit(CoflowPlan plan, NetworkProfile net) {
    return commit(plan, net, new CommittedRates(), true);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Starting from {@code last}, only the reducers whose flows end at another time than at the
   * last commit get new rates (see {@link CommittedRates}); the rates returned are {@code last}'s
   * array, rewritten by the next commit.
   */
  @Override
  public double[] commit(
      CoflowPlan plan, NetworkProfile net, CommittedRates last, boolean readAfter) {
    CoflowDemand d = plan.demand();
    CoflowShape shape = d.shape();
    double[] remaining = d.active().remaining();
    double[] received = plan.received();
    int m = net.hostCount();
    int[] hostOf = plan.hostOf();
    int[] touched = plan.touched(); // a decision commits every coflow: not a loop over all hosts
    // Seconds each receiving host needs on its own link, then stretched to its senders' time.
    double[] span = zeroed(SPAN, m);
    for (int h : touched) {
      if (received[h] > 0) {
        double free = net.in(h).rateNow();
        span[h] = free > 0 ? received[h] / free : 0;
      }
    }
    // Per reducer, the host it receives on now, or -1 when none of its flows move now.
    int[] to = new int[hostOf.length];
    boolean allMove = !d.hasLocality(); // with locality a flow may stay on its host
    double shortestSpan = Double.POSITIVE_INFINITY;
    for (int n = 0; n < to.length; n++) {
      int h = hostOf[n];
      to[n] = h >= 0 && span[h] > 0 ? h : -1;
      if (to[n] >= 0) {
        shortestSpan = Math.min(shortestSpan, span[h]);
      } else if (d.work(n) > 0) {
        allMove = false;
      }
    }
    // A sender's flows move only while it has bandwidth free now (else they wait, see the class).
    boolean[] gate = new boolean[m];
    double[] freeOut = zeroed(FREE_OUT, m);
    for (int u : shape.senders) {
      freeOut[u] = net.out(u).rateNow();
      gate[u] = freeOut[u] > 0;
    }
    double now = net.now();
    last.onPlan = last.movedAsCommitted(d, now);
    boolean again = last.onPlan && last.continues(d, gate, m);
    double[] actualIn = zeroed(ACTUAL_IN, m);
    CoflowShape.Grid grid = shape.grid();
    if (!again && !allMove && grid != null && !mayStretch(d, net, shortestSpan)) {
      // One pass gives the senders' bytes and the rates: no stretch can follow from those bytes.
      last.start(d, gate, m);
      double[] senderBytes = new double[m];
      rewriteAllGrid(last, grid, remaining, to, span, actualIn, senderBytes);
      ended(last, to, span, now);
      finish(plan, net, last, senderBytes, actualIn, readAfter);
      return last.rates;
    }
    double[] senderBytes =
        again && !allMove ? trackedSenderBytes(d, to, last, now) : senderBytes(d, to, allMove, m);
    double[] senderSpan = zeroed(SENDER_SPAN, m);
    double longestSenderSpan = 0;
    for (int u : shape.senders) {
      double free = freeOut[u];
      if (senderBytes[u] > 0 && free > 0) {
        senderSpan[u] = senderBytes[u] / free;
        longestSenderSpan = Math.max(longestSenderSpan, senderSpan[u]);
      }
    }
    if (longestSenderSpan > shortestSpan) { // some receiver waits for a sender
      stretch(shape, remaining, to, span, senderSpan);
    }
    if (!again) {
      last.start(d, gate, m);
      rewriteAll(last, shape, remaining, to, span, now, actualIn);
    } else {
      rewriteChanged(last, d, to, span, now, actualIn);
    }
    finish(plan, net, last, senderBytes, actualIn, readAfter);
    return last.rates;
  }

  /**
   * Whether a sender could be slower than the fastest receiving host, from each sender's bytes
   * left, moving now or not, with room for rounding: if not, the bytes of the flows that move now
   * cannot stretch any host either, and a fresh commit needs no pass over the flows of its own to
   * sum them: the senders are far fewer than the flows.
   */
  private static boolean mayStretch(CoflowDemand d, NetworkProfile net, double shortestSpan) {
    int[] senders = d.senders();
    for (int i = 0; i < senders.length; i++) {
      double free = net.out(senders[i]).rateNow();
      if (d.senderBytes()[i] > 0
          && free > 0
          && d.senderBytes()[i] / free * (1 + 1e-6) >= shortestSpan) {
        return true;
      }
    }
    return false;
  }

  /**
   * Records the commit in {@code last} and, when B is read after it, takes from B what the coflow
   * uses.
   */
  private static void finish(
      CoflowPlan plan,
      NetworkProfile net,
      CommittedRates last,
      double[] senderBytes,
      double[] actualIn,
      boolean readAfter) {
    double now = net.now();
    double[] received = plan.received();
    double[] sent = plan.sent();
    last.committedAt(plan.demand(), senderBytes, now);
    if (!readAfter) {
      return;
    }
    for (int j : plan.touched()) {
      if (received[j] > 0) {
        take(net.in(j), net.inWhole(j), received[j], actualIn[j], now, true);
      }
      if (sent[j] > 0) { // a sender whose link is full now waits for it, as a receiver does
        double actualOut = last.outFlows[j] > 0 ? last.outRate[j] : 0;
        take(net.out(j), net.outWhole(j), sent[j], actualOut, now, false);
      }
    }
    RateRule.takeSlots(plan, net);
  }

  /** Per host, the bytes of its flows that cross the network now, summed over the flows. */
  private static double[] senderBytes(CoflowDemand d, int[] to, boolean allMove, int hosts) {
    double[] senderBytes = new double[hosts];
    int[] senders = d.senders();
    if (allMove) { // every remaining byte moves now: the senders' totals as they are
      for (int i = 0; i < senders.length; i++) {
        senderBytes[senders[i]] = d.senderBytes()[i];
      }
      return senderBytes;
    }
    CoflowShape shape = d.shape();
    double[] remaining = d.active().remaining();
    CoflowShape.Grid grid = shape.grid();
    if (grid != null && grid.byReducer()) { // a full shuffle, reducer by reducer
      int[] senderOfRow = grid.senderOfRow();
      for (int n = 0, k = 0; n < to.length; n++) {
        int h = to[n];
        for (int row = 0; row < senderOfRow.length; row++, k++) {
          int u = senderOfRow[row];
          if (remaining[k] > 0 && h >= 0 && h != u) {
            senderBytes[u] += remaining[k];
          }
        }
      }
      return senderBytes;
    }
    if (grid != null) { // a full shuffle, row by row, each row one sender's
      int[] senderOfRow = grid.senderOfRow();
      for (int row = 0, k = 0; row < senderOfRow.length; row++) {
        int u = senderOfRow[row];
        double sum = senderBytes[u];
        for (int n = 0; n < to.length; n++, k++) {
          int h = to[n];
          if (remaining[k] > 0 && h >= 0 && h != u) {
            sum += remaining[k];
          }
        }
        senderBytes[u] = sum;
      }
      return senderBytes;
    }
    SenderRun run = new SenderRun(senderBytes);
    for (int k = 0; k < remaining.length; k++) { // flow order: sequential in memory
      if (sends(remaining, shape, to, k)) {
        run.add(shape.sourceOfFlow[k], remaining[k]);
      }
    }
    run.close();
    return senderBytes;
  }

  /**
   * {@link #senderBytes} from the last commit's: what each sender's moving flows delivered since at
   * their rates is gone, and only the flows of reducers that start or stop receiving are visited.
   */
  private static double[] trackedSenderBytes(
      CoflowDemand d, int[] to, CommittedRates last, double now) {
    CoflowShape shape = d.shape();
    double[] remaining = d.active().remaining();
    double[] senderBytes = new double[last.outRate.length];
    double dt = now - last.at;
    for (int u : shape.senders) {
      double moved = last.outFlows[u] > 0 ? last.outRate[u] * dt : 0;
      senderBytes[u] = Math.max(0, last.sendBytes[u] - moved);
    }
    for (int n = 0; n < to.length; n++) {
      if (to[n] != last.to[n] && d.work(n) > 0) { // with no bytes left, none of its flows counts
        moveSenderBytes(shape, remaining, n, last.to[n], to[n], senderBytes);
      }
    }
    return senderBytes;
  }

  /**
   * Takes reducer n's flows' bytes from their senders' while it received on host {@code from}, and
   * adds them while it receives on host {@code into} (-1: not receiving). In a full shuffle ({@link
   * CoflowShape#grid}) the loop steps by a constant, as in {@link #stopColumn}.
   */
  private static void moveSenderBytes(
      CoflowShape shape, double[] remaining, int n, int from, int into, double[] senderBytes) {
    CoflowShape.Grid grid = shape.grid();
    if (grid != null) {
      int[] senderOfRow = grid.senderOfRow();
      int step = grid.rowStep();
      for (int row = 0, k = grid.flow(0, n); row < senderOfRow.length; row++, k += step) {
        moveSenderBytes(senderOfRow[row], remaining[k], from, into, senderBytes);
      }
    } else {
      FlowGroups flows = shape.byReducer();
      for (int i = flows.start(n); i < flows.end(n); i += flows.step()) {
        int k = flows.flow(i);
        moveSenderBytes(shape.sourceOfFlow[k], remaining[k], from, into, senderBytes);
      }
    }
  }

  private static void moveSenderBytes(
      int u, double bytes, int from, int into, double[] senderBytes) {
    if (bytes > 0) {
      if (from >= 0 && from != u) {
        senderBytes[u] = Math.max(0, senderBytes[u] - bytes);
      }
      if (into >= 0 && into != u) {
        senderBytes[u] += bytes;
      }
    }
  }

  /**
   * Stretches each receiving host's span to that of the slowest sender it receives from. The
   * senders are visited slowest first, each over its own flows, and a host is done when the first
   * of them reaches it; the visits stop once every receiving host is done or is no faster than the
   * slowest sender left. In a full shuffle (every sender to every host) that is one sender's flows.
   */
  private static void stretch(
      CoflowShape shape, double[] remaining, int[] to, double[] span, double[] senderSpan) {
    CoflowShape.Grid grid = shape.grid();
    FlowGroups bySender = grid == null ? shape.bySender(span.length) : null;
    double[] stretched = span.clone(); // the spans before any stretch stay readable
    boolean[] reached = new boolean[span.length];
    boolean[] visited = new boolean[span.length];
    while (true) {
      int slowest = -1;
      for (int u : shape.senders) {
        if (!visited[u]
            && senderSpan[u] > 0
            && (slowest < 0 || senderSpan[u] > senderSpan[slowest])) {
          slowest = u;
        }
      }
      if (slowest < 0 || !anyFasterLeft(to, span, reached, senderSpan[slowest])) {
        break;
      }
      visited[slowest] = true;
      if (grid != null) { // the sender's rows, each reducer's flow at its place in them
        for (int row = 0; row < grid.rows(); row++) {
          if (grid.senderOfRow()[row] == slowest) {
            reachRow(remaining, grid, row, slowest, to, reached, stretched, senderSpan);
          }
        }
        continue;
      }
      for (int i = bySender.start(slowest); i < bySender.end(slowest); i += bySender.step()) {
        int k = bySender.flow(i);
        if (sends(remaining, shape, to, k)) {
          reach(to[shape.reducerOfFlow[k]], slowest, reached, stretched, senderSpan);
        }
      }
    }
    System.arraycopy(stretched, 0, span, 0, span.length);
  }

  /** {@link #stretch}'s visit of one row of a full shuffle, sent by {@code u}. */
  private static void reachRow(
      double[] remaining,
      CoflowShape.Grid grid,
      int row,
      int u,
      int[] to,
      boolean[] reached,
      double[] stretched,
      double[] senderSpan) {
    int step = grid.columnStep();
    for (int n = 0, k = grid.flow(row, 0); n < to.length; n++, k += step) {
      int h = to[n];
      if (remaining[k] > 0 && h >= 0 && h != u) {
        reach(h, u, reached, stretched, senderSpan);
      }
    }
  }

  /** Host h, receiving from sender u, is done: stretched to u's span unless it is longer. */
  private static void reach(
      int h, int u, boolean[] reached, double[] stretched, double[] senderSpan) {
    if (!reached[h]) {
      reached[h] = true;
      stretched[h] = Math.max(stretched[h], senderSpan[u]);
    }
  }

  /** Whether some host receiving now, not yet reached, is faster than {@code senderSpan}. */
  private static boolean anyFasterLeft(
      int[] to, double[] span, boolean[] reached, double senderSpan) {
    for (int h : to) {
      if (h >= 0 && !reached[h] && span[h] < senderSpan) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every flow's rate, in flow order, into {@code last} as {@linkplain CommittedRates#restart
   * restarted} (0 for the flows that do not move, whatever the array held), and into {@code
   * actualIn} what each host receives (summed flow by flow, in flow order: a commit that starts
   * afresh books the same bits whatever was committed before, so work-conserving runs, which always
   * start afresh, are reproducible to the last bit).
   */
  private static void rewriteAll(
      CommittedRates last,
      CoflowShape shape,
      double[] remaining,
      int[] to,
      double[] span,
      double now,
      double[] actualIn) {
    CoflowShape.Grid grid = shape.grid();
    if (grid != null) {
      rewriteAllGrid(last, grid, remaining, to, span, actualIn, null);
    } else {
      rewriteAllFlows(last, shape, remaining, to, span, actualIn);
    }
    ended(last, to, span, now);
  }

  /** Records per reducer the host it receives on and when its flows end. */
  private static void ended(CommittedRates last, int[] to, double[] span, double now) {
    for (int n = 0; n < to.length; n++) {
      last.to[n] = to[n];
      last.end[n] = to[n] >= 0 ? now + span[to[n]] : Double.NaN;
    }
  }

  /** {@link #rewriteAll}'s rates in flow order, whatever the order. */
  private static void rewriteAllFlows(
      CommittedRates last,
      CoflowShape shape,
      double[] remaining,
      int[] to,
      double[] span,
      double[] actualIn) {
    double[] rates = last.rates;
    SenderRun out = new SenderRun(last.outRate);
    for (int k = 0; k < remaining.length; k++) {
      int u = shape.sourceOfFlow[k];
      if (last.gate[u] && sends(remaining, shape, to, k)) {
        int n = shape.reducerOfFlow[k];
        double rate = remaining[k] / span[to[n]];
        rates[k] = rate;
        last.inRate[n] += rate;
        actualIn[to[n]] += rate;
        last.outFlows[u]++;
        out.add(u, rate);
      } else {
        rates[k] = 0;
      }
    }
    out.close();
  }

  /**
   * {@link #rewriteAll}'s rates in a full shuffle ({@link CoflowShape#grid}), in memory order: the
   * same operations in the same order as flow by flow, with each row's (or column's) sender, host
   * and sums held once. With {@code senderBytes}, also {@link #senderBytes}'s sums into it, in its
   * order.
   */
  private static void rewriteAllGrid(
      CommittedRates last,
      CoflowShape.Grid grid,
      double[] remaining,
      int[] to,
      double[] span,
      double[] actualIn,
      double[] senderBytes) {
    if (grid.byReducer()) {
      rewriteAllColumns(last, grid.senderOfRow(), remaining, to, span, actualIn, senderBytes);
    } else {
      rewriteAllRows(last, grid.senderOfRow(), remaining, to, span, actualIn, senderBytes);
    }
  }

  /** {@link #rewriteAllGrid} where the flows are listed sender by sender: row by row. */
  private static void rewriteAllRows(
      CommittedRates last,
      int[] senderOfRow,
      double[] remaining,
      int[] to,
      double[] span,
      double[] actualIn,
      double[] senderBytes) {
    double[] rates = last.rates;
    double[] inRate = last.inRate;
    for (int row = 0, k = 0; row < senderOfRow.length; row++, k += to.length) {
      int u = senderOfRow[row];
      boolean moves = last.gate[u];
      double out = last.outRate[u];
      double bytes = senderBytes != null ? senderBytes[u] : 0;
      int flows = 0;
      for (int n = 0; n < to.length; n++) {
        int h = to[n];
        double left = remaining[k + n];
        if (left > 0 && h >= 0 && h != u) {
          bytes += left;
          if (moves) {
            double rate = left / span[h];
            rates[k + n] = rate;
            inRate[n] += rate;
            actualIn[h] += rate;
            out += rate;
            flows++;
            continue;
          }
        }
        rates[k + n] = 0;
      }
      last.outRate[u] = out;
      last.outFlows[u] += flows;
      if (senderBytes != null) {
        senderBytes[u] = bytes;
      }
    }
  }

  /** {@link #rewriteAllGrid} where the flows are listed reducer by reducer: column by column. */
  private static void rewriteAllColumns(
      CommittedRates last,
      int[] senderOfRow,
      double[] remaining,
      int[] to,
      double[] span,
      double[] actualIn,
      double[] senderBytes) {
    double[] rates = last.rates;
    double[] outRate = last.outRate;
    int[] outFlows = last.outFlows;
    boolean[] gate = last.gate;
    int rows = senderOfRow.length;
    for (int n = 0, k = 0; n < to.length; n++, k += rows) {
      int h = to[n];
      if (h < 0) {
        Arrays.fill(rates, k, k + rows, 0);
        continue;
      }
      double hostSpan = span[h];
      double in = last.inRate[n];
      double got = actualIn[h];
      for (int row = 0; row < rows; row++) {
        int u = senderOfRow[row];
        double left = remaining[k + row];
        if (left > 0 && h != u) {
          if (senderBytes != null) {
            senderBytes[u] += left;
          }
          if (gate[u]) {
            double rate = left / hostSpan;
            rates[k + row] = rate;
            in += rate;
            got += rate;
            outRate[u] += rate;
            outFlows[u]++;
            continue;
          }
        }
        rates[k + row] = 0;
      }
      last.inRate[n] = in;
      actualIn[h] = got;
    }
  }

  /**
   * The rates of the reducers whose flows now end at another time, or on another host, than at the
   * last commit; the others keep theirs (equal, up to rounding, to what they would be computed
   * afresh). Starts over in flow order when that is most of the flows, unless each reducer's flows
   * lie side by side ({@link CoflowShape.Grid#byReducer}): then the changed ones are rewritten in
   * memory order all the same. Adds into {@code actualIn} what each host receives.
   */
  private static void rewriteChanged(
      CommittedRates last, CoflowDemand d, int[] to, double[] span, double now, double[] actualIn) {
    CoflowShape shape = d.shape();
    double[] remaining = d.active().remaining();
    FlowGroups flows = shape.byReducer();
    int[] changed = new int[to.length]; // the reducers whose rates change, ascending
    int count = 0;
    int changedFlows = 0;
    for (int n = 0; n < to.length; n++) {
      int h = to[n];
      // the same host and none (both ends NaN), or the same host and the same end
      if (h != last.to[n] || h >= 0 && !sameEnd(now + span[h], last.end[n], span[h])) {
        changed[count++] = n;
        changedFlows += flows.size(n);
      }
    }
    CoflowShape.Grid grid = shape.grid();
    if (changedFlows > remaining.length / 2 && (grid == null || !grid.byReducer())) {
      last.restart();
      rewriteAll(last, shape, remaining, to, span, now, actualIn);
      return;
    }
    double[] rates = last.rates;
    double[] byRow = // the sums of those reducers' rates, when rewritten row by row
        grid != null
                && !grid.byReducer()
                && count >= to.length / DOUBLES_PER_LINE
                && grid.rows() == shape.senders.length
            ? rewriteColumnsByRow(last, d, grid.senderOfRow(), changed, count, to, span)
            : null;
    for (int c = 0; c < count; c++) {
      int n = changed[c];
      int h = d.work(n) > 0 ? to[n] : -1; // with no bytes left, every rate is 0
      double in = 0;
      if (byRow != null) {
        in = byRow[c];
      } else if (grid != null && h < 0) {
        stopColumn(last, grid, n);
      } else if (grid != null) {
        in = rewriteColumn(last, grid, remaining, n, h, span[h]);
      } else {
        for (int i = flows.start(n); i < flows.end(n); i += flows.step()) {
          int k = flows.flow(i);
          int u = shape.sourceOfFlow[k];
          double rate =
              h >= 0 && h != u && last.gate[u] && remaining[k] > 0 ? remaining[k] / span[h] : 0;
          double old = rates[k];
          if (rate != old) {
            rates[k] = rate;
            last.outRate[u] += rate - old;
            last.outFlows[u] += (rate > 0 ? 1 : 0) - (old > 0 ? 1 : 0);
          }
          in += rate;
        }
      }
      last.inRate[n] = in;
      last.to[n] = to[n];
      last.end[n] = to[n] >= 0 ? now + span[to[n]] : Double.NaN;
    }
    for (int n = 0; n < to.length; n++) {
      if (to[n] >= 0) {
        actualIn[to[n]] += last.inRate[n];
      }
    }
  }

  /**
   * {@link #rewriteChanged}'s rates of the {@code count} reducers listed in {@code changed}, in a
   * full shuffle listed sender by sender ({@link CoflowShape#grid}) whose rows have senders of
   * their own; returns each one's sum of rates, in that order. Row by row, where {@link
   * #rewriteColumn} goes reducer by reducer: once most memory lines of a row hold a flow that
   * changes, the rows are read in order instead of one line per row and reducer. Each sender's and
   * each reducer's sum takes the same additions in the same order as column by column (a sender
   * owns one row), so the same bits.
   */
  private static double[] rewriteColumnsByRow(
      CommittedRates last,
      CoflowDemand d,
      int[] senderOfRow,
      int[] changed,
      int count,
      int[] to,
      double[] span) {
    int[] host = new int[count]; // per reducer listed, its host, -1 for one that stops
    double[] spanOf = new double[count];
    double[] in = new double[count];
    for (int c = 0; c < count; c++) {
      int n = changed[c];
      host[c] = d.work(n) > 0 ? to[n] : -1; // with no bytes left, every rate is 0
      spanOf[c] = host[c] >= 0 ? span[host[c]] : 0;
    }
    double[] remaining = d.active().remaining();
    double[] rates = last.rates;
    int step = to.length;
    for (int row = 0, first = 0; row < senderOfRow.length; row++, first += step) {
      int u = senderOfRow[row];
      boolean moves = last.gate[u];
      double out = last.outRate[u];
      int flows = last.outFlows[u];
      for (int c = 0; c < count; c++) {
        int k = first + changed[c];
        int h = host[c];
        double rate = 0;
        if (h >= 0) {
          double left = remaining[k];
          rate = h != u && moves && left > 0 ? left / spanOf[c] : 0;
          in[c] += rate;
        }
        double old = rates[k];
        if (rate != old) {
          rates[k] = rate;
          out += rate - old;
          flows += (rate > 0 ? 1 : 0) - (old > 0 ? 1 : 0);
        }
      }
      last.outRate[u] = out;
      last.outFlows[u] = flows;
    }
    return in;
  }

  /**
   * Zeroes the rates of reducer n's flows in a full shuffle ({@link CoflowShape#grid}), for a
   * reducer that stops receiving. The loops for one reducer in that shape step through the arrays
   * by a constant instead of through {@link FlowGroups}, and take each row's sender from the small
   * {@code senderOfRow} instead of the per-flow sources.
   */
  private static void stopColumn(CommittedRates last, CoflowShape.Grid grid, int n) {
    double[] rates = last.rates;
    double[] outRate = last.outRate;
    int[] outFlows = last.outFlows;
    int[] senderOfRow = grid.senderOfRow();
    int step = grid.rowStep();
    for (int row = 0, k = grid.flow(0, n); row < senderOfRow.length; row++, k += step) {
      double old = rates[k];
      if (old != 0) {
        int u = senderOfRow[row];
        rates[k] = 0;
        outRate[u] += -old;
        outFlows[u]--;
      }
    }
  }

  /**
   * Rewrites the rates of reducer n's flows in a full shuffle to their bytes over {@code span}, for
   * a reducer receiving on host h (see {@link #stopColumn}); returns their sum.
   */
  private static double rewriteColumn(
      CommittedRates last, CoflowShape.Grid grid, double[] remaining, int n, int h, double span) {
    double[] rates = last.rates;
    double[] outRate = last.outRate;
    int[] outFlows = last.outFlows;
    boolean[] gate = last.gate;
    int[] senderOfRow = grid.senderOfRow();
    int step = grid.rowStep();
    double in = 0;
    for (int row = 0, k = grid.flow(0, n); row < senderOfRow.length; row++, k += step) {
      int u = senderOfRow[row];
      double left = remaining[k];
      double rate = h != u && gate[u] && left > 0 ? left / span : 0;
      double old = rates[k];
      if (rate != old) {
        rates[k] = rate;
        outRate[u] += rate - old;
        outFlows[u] += (rate > 0 ? 1 : 0) - (old > 0 ? 1 : 0);
      }
      in += rate;
    }
    return in;
  }

  /**
   * Whether two end times of a reducer with {@code span} seconds left are the same (neither NaN);
   * the ulp is worked out only for a difference beyond the relative bound.
   */
  private static boolean sameEnd(double a, double b, double span) {
    double apart = Math.abs(a - b);
    return apart <= SAME_END * span || apart <= SAME_END * span + 4 * Math.ulp(a);
  }

  /**
   * Sums per sender with the running sum in a register while consecutive flows share their sender
   * (flows are usually ordered by sender): the same additions in the same order as adding into the
   * array flow by flow, so the same bits, without each addition waiting for the store of the one
   * before.
   */
  private static final class SenderRun {
    private final double[] sums;
    private int sender = -1;
    private double sum;

    SenderRun(double[] sums) {
      this.sums = sums;
    }

    void add(int u, double value) {
      if (u != sender) {
        close();
        sender = u;
        sum = sums[u];
      }
      sum += value;
    }

    /** Writes the current sender's sum back; call after the last {@link #add}. */
    void close() {
      if (sender >= 0) {
        sums[sender] = sum;
      }
    }
  }

  /** Whether flow k crosses the network now: it has bytes and its reducer receives elsewhere. */
  private static boolean sends(double[] remaining, CoflowShape shape, int[] to, int k) {
    int h = to[shape.reducerOfFlow[k]];
    return remaining[k] > 0 && h >= 0 && h != shape.sourceOfFlow[k];
  }

  /**
   * Takes from B what the coflow uses of one link: all of it while the link is the limit, or is
   * full now (and, for a link the coflow must wait for, the bandwidth it waits for), else only the
   * rate it runs at now, for as long as its bytes need at that rate. Booking what waits matters for
   * the coflows planned after this one: a sender's bytes held back by its full uplink cross it
   * later all the same, and a later coflow that took that uplink for free would be placed as if it
   * were. A link is full with less than {@link #FULL} of its speed free: the coflows served first
   * leave such slivers where their flows all end with their coflow, and the few bytes a waiting
   * coflow gets of one now would book its bytes over hours instead of after those coflows.
   *
   * @param receiver whether this is a link the coflow receives on: with no rate it waits for it,
   *     where a sender with no rate may wait for its receivers instead
   */
  private static void take(
      LinkProfile link, double whole, double bytes, double rate, double now, boolean receiver) {
    if (bytes <= 0) {
      return;
    }
    boolean full = link.rateNow() <= FULL * whole;
    if (rate > 0 && (rate >= link.rateNow() * (1 - 1e-9) || full)
        || rate <= 0 && (receiver || full)) {
      link.consume(bytes);
    } else if (rate > 0) {
      link.reserve(now, now + bytes / rate, rate);
    }
  }
}
