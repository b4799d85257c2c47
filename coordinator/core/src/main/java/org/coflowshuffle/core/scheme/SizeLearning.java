/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SizeKnowledge;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * A scheme on a cluster where some coflows arrive without their sizes. Such a coflow is sampled as
 * Philae does (003, section 4): its pilot flows ({@link PilotSampling}) go first, with the whole
 * bandwidth of their ports, until they end; their mean size is then the estimate of each of its
 * flows, and from then on the scheme schedules it like any other, with what each flow has received
 * taken off the estimate. While it samples, its other flows get what the pilots and the scheme
 * leave, in arrival order (Philae's work conservation). A coflow some of whose flows have known
 * sizes needs no pilots: their mean is its estimate. Pilots that have not all ended {@link
 * #PILOT_TIMEOUT_SECONDS} after they were chosen count with what they received by then: a client
 * that never ends a flow (one with nothing to fetch, say) must not hold its coflow back for good.
 *
 * <p>So the coordinator keeps one scheme, and a coflow it cannot size is ordered among the others
 * by what sampling learned of it, rather than left unscheduled. A view with no such coflow, and
 * every view of a scheme that learns sizes on its own ({@code aalo}, {@code philae}), is decided by
 * the scheme alone, exactly as without this class.
 *
 * <p>One instance serves one cluster and is called from one thread, like the scheme it runs: it
 * remembers each coflow's pilots and estimate across decisions.
 */
public final class SizeLearning {

  /** Seconds the pilots of a coflow have to end before their sample is taken as it stands. */
  public static final double PILOT_TIMEOUT_SECONDS = 30;

  /**
   * One coflow's pilots (null until chosen) and when they were chosen, and, once known, the
   * estimated bytes per flow.
   */
  private static final class Sample {
    int[] pilots;
    double since;
    double perFlow = Double.NaN;

    boolean sampling() {
      return Double.isNaN(perFlow);
    }
  }

  private final SchedulingPolicy scheme;

  /** The scheme learns sizes its own way ({@link Schemes#learnsSizes}): no sampling in front. */
  private final boolean passThrough;

  private final Map<Integer, Sample> samples = new HashMap<>();
  private WeightedFilling filling;

  /**
   * @param scheme the scheme that decides once sizes are known or estimated
   */
  public SizeLearning(SchedulingPolicy scheme) {
    this.scheme = scheme;
    this.passThrough = Schemes.learnsSizes(scheme.name());
  }

  /**
   * The estimated bytes of each flow of unknown size of a coflow, or NaN while it samples (or is
   * not known here).
   */
  public double estimate(int index) {
    Sample s = samples.get(index);
    return s == null ? Double.NaN : s.perFlow;
  }

  /**
   * Decides rates and placement for every coflow of the view.
   *
   * @param partial by coflow index, what is known of each active coflow whose sizes are partly
   *     unknown, including those not in this view (their samples are kept); a coflow not named here
   *     has every size known
   */
  public Decision decide(ClusterView view, Map<Integer, SizeKnowledge> partial) {
    samples.keySet().retainAll(partial.keySet());
    List<ActiveCoflow> active = view.coflows();
    int n = active.size();
    SizeKnowledge[] know = new SizeKnowledge[n];
    boolean any = false;
    for (int i = 0; i < n; i++) {
      know[i] = partial.get(active.get(i).index());
      any |= know[i] != null;
    }
    if (!any || passThrough) {
      return scheme.decide(view);
    }
    Sample[] sample = sample(active, know, view.hosts().size(), view.now());

    double[] outLeft = Bandwidth.outgoing(view);
    double[] inLeft = Bandwidth.incoming(view);
    double[][] rates = new double[n][];
    double wakeUp = Double.POSITIVE_INFINITY; // when pilots still running time out
    for (int i = 0; i < n; i++) { // pilots first, whole ports, first come first
      ActiveCoflow a = active.get(i);
      rates[i] = new double[a.remaining().length];
      if (sample[i] != null && sample[i].sampling() && sample[i].pilots != null) {
        PilotSampling.run(a, a.hostOf(), sample[i].pilots, rates[i], outLeft, inLeft);
        wakeUp = Math.min(wakeUp, sample[i].since + PILOT_TIMEOUT_SECONDS);
      }
    }

    // The scheme, on what the pilots leave, over the coflows whose sizes are known or estimated.
    List<ActiveCoflow> known = new ArrayList<>(n);
    int[] knownIndex = new int[n];
    for (int i = 0; i < n; i++) {
      knownIndex[i] = -1;
      if (know[i] == null || !sample[i].sampling()) {
        knownIndex[i] = known.size();
        known.add(
            know[i] == null ? active.get(i) : estimated(active.get(i), know[i], sample[i].perFlow));
      }
    }
    Decision d =
        known.isEmpty()
            ? new Decision(List.of(), Double.POSITIVE_INFINITY)
            : scheme.decide(
                new ClusterView(
                    view.now(),
                    left(view.hosts(), inLeft, outLeft),
                    known,
                    view.slotsInUse(),
                    view.fabric(),
                    view.slotsFreeing()));
    int[][] hostOf = new int[n][];
    for (int i = 0; i < n; i++) {
      ActiveCoflow a = active.get(i);
      hostOf[i] = a.hostOf();
      if (knownIndex[i] >= 0) {
        CoflowAssignment as = d.assignments().get(knownIndex[i]);
        hostOf[i] = as.hostOf();
        for (int k = 0; k < rates[i].length; k++) {
          rates[i][k] += as.rates()[k];
          if (as.rates()[k] > 0 && a.crossesNetwork(k, hostOf[i])) {
            int src = a.flowSource()[k];
            int dst = hostOf[i][a.flowReducer()[k]];
            outLeft[src] = Math.max(0, outLeft[src] - as.rates()[k]);
            inLeft[dst] = Math.max(0, inLeft[dst] - as.rates()[k]);
          }
        }
      }
    }

    // What is left goes to the held-back flows of coflows still sampling, in arrival order.
    filling = WeightedFilling.forHosts(filling, view);
    for (int i = 0; i < n; i++) {
      if (knownIndex[i] < 0) {
        int[] pilots = sample[i].pilots == null ? new int[0] : sample[i].pilots;
        SizeKnowledge s = know[i];
        double[] r =
            filling.fill(
                active.get(i),
                hostOf[i],
                k -> s.unknown()[k] && !PilotSampling.contains(pilots, k),
                Weight.FLOWS,
                outLeft,
                inLeft);
        for (int k = 0; k < r.length; k++) {
          rates[i][k] += r[k];
        }
      }
    }
    return Decision.of(hostOf, rates, Math.min(wakeUp, d.wakeUpAt()));
  }

  /**
   * Brings each partly unknown coflow's sample up to date: an estimate from its flows of known size
   * if it has any; otherwise pilots chosen once some of its flows can move (where the fewest pilots
   * of other coflows run), and the estimate, their mean, once they all ended or timed out. Null for
   * coflows of known sizes.
   */
  private Sample[] sample(List<ActiveCoflow> active, SizeKnowledge[] know, int hosts, double now) {
    int n = active.size();
    Sample[] sample = new Sample[n];
    int[] pilotsOut = new int[hosts];
    int[] pilotsIn = new int[hosts];
    for (int i = 0; i < n; i++) {
      if (know[i] != null) {
        ActiveCoflow a = active.get(i);
        sample[i] = samples.computeIfAbsent(a.index(), x -> new Sample());
        if (sample[i].sampling()) {
          sample[i].perFlow = knownMean(a, know[i]);
        }
        if (sample[i].sampling() && sample[i].pilots != null) {
          PilotSampling.count(a, a.hostOf(), sample[i].pilots, pilotsOut, pilotsIn);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (sample[i] == null || !sample[i].sampling()) {
        continue;
      }
      ActiveCoflow a = active.get(i);
      SizeKnowledge s = know[i];
      if (sample[i].pilots == null) {
        sample[i].pilots =
            PilotSampling.choose(a, a.hostOf(), k -> s.unknown()[k], pilotsOut, pilotsIn);
        sample[i].since = now;
      } else if (allEnded(sample[i].pilots, s) || now >= sample[i].since + PILOT_TIMEOUT_SECONDS) {
        double sum = 0;
        for (int k : sample[i].pilots) {
          sum += s.received()[k];
        }
        sample[i].perFlow = sum / sample[i].pilots.length;
      }
    }
    return sample;
  }

  /** The mean size of the coflow's flows of known size; NaN if it has none. */
  private static double knownMean(ActiveCoflow a, SizeKnowledge s) {
    double sum = 0;
    int count = 0;
    for (int k = 0; k < s.unknown().length; k++) {
      if (!s.unknown()[k]) {
        sum += a.coflow().flows().get(k).bytes();
        count++;
      }
    }
    return count == 0 ? Double.NaN : sum / count;
  }

  private static boolean allEnded(int[] flows, SizeKnowledge s) {
    for (int k : flows) {
      if (!s.ended()[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The coflow as the scheme sees it with an estimate: each flow of unknown size that has not ended
   * is {@code perFlow} bytes, less what it received ({@link SizeKnowledge#left}).
   */
  private static ActiveCoflow estimated(ActiveCoflow a, SizeKnowledge s, double perFlow) {
    Coflow c = a.coflow();
    double[] remaining = a.remaining().clone();
    List<Flow> flows = new ArrayList<>(remaining.length);
    for (int k = 0; k < remaining.length; k++) {
      Flow f = c.flows().get(k);
      if (s.unknown()[k]) {
        double left = s.ended()[k] ? 0 : SizeKnowledge.left(perFlow, s.received()[k]);
        remaining[k] = remaining[k] > 0 ? left : 0;
        f = new Flow(f.src(), f.reducer(), s.received()[k] + left);
      }
      flows.add(f);
    }
    return new ActiveCoflow(
        a.index(),
        new Coflow(c.id(), c.arrival(), c.reducers(), flows, c.weight()),
        remaining,
        a.sentBytes(),
        a.hostOf(),
        a.pinned(),
        a.waitingSince(),
        a.version(),
        a.flowSource(),
        a.flowReducer(),
        null);
  }

  /** The hosts with the bandwidth left on each link. */
  private static List<Host> left(List<Host> hosts, double[] in, double[] out) {
    List<Host> left = new ArrayList<>(hosts.size());
    for (int j = 0; j < hosts.size(); j++) {
      Host h = hosts.get(j);
      left.add(
          new Host(
              h.id(),
              Math.max(0, in[j]),
              Math.max(0, out[j]),
              h.reducerSlots(),
              h.canHostReducers()));
    }
    return left;
  }
}
