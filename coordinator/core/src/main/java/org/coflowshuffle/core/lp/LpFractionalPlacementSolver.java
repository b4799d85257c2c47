/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.coflowshuffle.core.placement.FractionalPlacement;
import org.coflowshuffle.core.placement.FractionalPlacementSolver;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.coflowshuffle.core.placement.PlacementException;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * Solves the relaxation (6) of the placement problem (5) with ojalgo's simplex, the input that
 * Algorithm 2 ({@code PseudoForestRounding}) rounds.
 *
 * <p>Why a search: (6) is an LP only once {@code alpha} is fixed, because {@code alpha} also
 * decides which pairs may carry a fraction ({@code time[n][j] <= alpha}, the sets E_j and H_n).
 * That set changes only at the distinct finite values {@code tau_1 < ... < tau_K} of {@code time}.
 * For each {@code tau_k} one LP gives {@code A_k}, the least {@code alpha} satisfying (6a) and (6b)
 * with the pairs {@code time <= tau_k}; {@code alpha} itself is the LP's objective, a slack that is
 * free to grow, so that LP is always feasible. The optimum of (6) is {@code min_k max(tau_k, A_k)}.
 * As {@code tau_k} increases with k and {@code A_k} decreases (more pairs), the minimum sits where
 * the two cross, which a binary search over k finds in about {@code log2(K)} LPs; it returns {@code
 * alpha} to the LP's precision rather than to a tolerance on {@code alpha}. A greedy integral
 * assignment (an upper bound) and the averaging bound prune the search without solving.
 *
 * <p>The returned {@code x} is the LP's own solution, cleaned of values below 1e-12 with rows
 * renormalised to sum 1. ojalgo's simplex returns a basic solution, which Lemma 2 needs; the
 * rounding does not rely on it. Every LP gets what is left of one overall time limit; a state other
 * than optimal or infeasible, or running out of time, throws {@link PlacementException}.
 */
public final class LpFractionalPlacementSolver implements FractionalPlacementSolver {

  /** Total time one {@link #solve} may spend in ojalgo. */
  public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(10);

  /** Fractions below this are solver noise and are set to 0. */
  static final double NOISE = 1e-12;

  private final Duration timeLimit;

  public LpFractionalPlacementSolver() {
    this(DEFAULT_TIME_LIMIT);
  }

  /**
   * @param timeLimit wall-clock budget for all LPs of one {@link #solve} call
   */
  public LpFractionalPlacementSolver(Duration timeLimit) {
    if (timeLimit.isNegative()) {
      throw new IllegalArgumentException("time limit " + timeLimit);
    }
    this.timeLimit = timeLimit;
  }

  @Override
  public FractionalPlacement solve(MakespanProblem problem) {
    double[] initial = problem.initialLoad();
    for (int j = 0; j < initial.length; j++) {
      if (!(initial[j] >= 0) || Double.isInfinite(initial[j])) {
        throw new PlacementException("host " + j + ": initial load " + initial[j]);
      }
    }
    if (problem.reducers() == 0) {
      return new FractionalPlacement(Arrays.stream(initial).max().orElse(0), new double[0][]);
    }
    return new Search(problem, System.nanoTime() + timeLimit.toNanos()).run();
  }

  /** The relaxation at one threshold: {@code load} is the largest host load of {@code x}. */
  private record Relaxed(double tau, double load, double[][] x) {
    double alpha() {
      return Math.max(tau, load);
    }
  }

  /** One call's search state: the thresholds and the LPs solved so far. */
  private final class Search {
    private final MakespanProblem problem;
    private final long deadline;
    private final double[] tau;
    private final Relaxed[] solved;
    private final boolean[] tried;

    Search(MakespanProblem problem, long deadline) {
      this.problem = problem;
      this.deadline = deadline;
      this.tau =
          Arrays.stream(problem.time())
              .flatMapToDouble(Arrays::stream)
              .filter(t -> t < Double.POSITIVE_INFINITY)
              .sorted()
              .distinct()
              .toArray();
      this.solved = new Relaxed[tau.length];
      this.tried = new boolean[tau.length];
    }

    FractionalPlacement run() {
      // Below max_n min_j time some reducer has no pair at all.
      int first = Arrays.binarySearch(tau, Bounds.largestLeastTime(problem));
      double lower = Bounds.averageLoad(problem);
      double upper = Bounds.greedyMakespan(problem);
      int lo = first;
      int hi = tau.length; // an infinite threshold always covers its relaxation
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (covers(mid, lower, upper)) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      Relaxed best = lo > first ? relax(lo - 1) : null;
      if (lo < tau.length && (best == null || best.alpha() > tau[lo])) {
        Relaxed at = relax(lo);
        if (at != null && (best == null || at.alpha() < best.alpha())) {
          best = at;
        }
      }
      if (best == null) {
        throw new PlacementException(describe() + ": no threshold gave a feasible LP");
      }
      return new FractionalPlacement(best.alpha(), best.x());
    }

    /** Whether {@code tau_k >= A_k}; true from the crossing point on. */
    private boolean covers(int k, double lower, double upper) {
      if (tau[k] < lower) {
        return false; // A_k >= lower > tau_k
      }
      if (tau[k] >= upper) {
        return true; // the greedy assignment uses only pairs <= upper, so A_k <= upper <= tau_k
      }
      Relaxed r = relax(k);
      return r != null && r.load() <= tau[k];
    }

    /** The LP at threshold k, solved once; null when ojalgo finds it infeasible. */
    private Relaxed relax(int k) {
      if (!tried[k]) {
        tried[k] = true;
        solved[k] = solveAt(tau[k]);
      }
      return solved[k];
    }

    private Relaxed solveAt(double threshold) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new PlacementException(describe() + ": time limit " + timeLimit + " spent");
      }
      RelaxationModel lp = new RelaxationModel(problem, threshold);
      lp.model.options.time_abort = Math.max(1, Duration.ofNanos(remaining).toMillis());
      lp.model.options.time_suffice = lp.model.options.time_abort;
      Optimisation.Result result = lp.model.minimise();
      Optimisation.State state = result.getState();
      boolean late = System.nanoTime() >= deadline;
      String where = describe() + " at threshold " + threshold + ": solver state " + state;
      if (state.isOptimal()) { // OPTIMAL or DISTINCT
        double[][] x = lp.fractions(result);
        return new Relaxed(threshold, Bounds.fractionalMakespan(problem, x), x);
      }
      if (state == Optimisation.State.INFEASIBLE && !late) {
        return null; // impossible in exact arithmetic, as alpha is free: search upward
      }
      // UNBOUNDED, FAILED, INVALID, or what time_abort leaves (UNEXPLORED, FEASIBLE, APPROXIMATE).
      throw new PlacementException(
          late ? where + " when the time limit " + timeLimit + " ran out" : where);
    }

    private String describe() {
      return "LP (6) for " + problem.reducers() + " reducers x " + problem.hosts() + " hosts";
    }
  }

  /** The ojalgo model of (6) for one threshold: variables and both constraint families. */
  private static final class RelaxationModel {
    final ExpressionsBasedModel model = new ExpressionsBasedModel();
    private final MakespanProblem problem;
    private final Variable alpha;
    private final Variable[][] x;

    RelaxationModel(MakespanProblem problem, double threshold) {
      this.problem = problem;
      this.alpha = model.addVariable("alpha").lower(0).weight(1);
      double[][] time = problem.time();
      this.x = new Variable[time.length][];
      for (int n = 0; n < time.length; n++) {
        x[n] = new Variable[time[n].length];
        for (int j = 0; j < time[n].length; j++) {
          if (time[n][j] <= threshold) { // n in E_j(alpha), j in H_n(alpha); (6c) x >= 0
            x[n][j] = model.addVariable("x_" + n + "_" + j).lower(0);
          }
        }
      }
      addHostLoads();
      addAssignments();
    }

    /** (6a): sum over n in E_j of e_nj x_nj <= alpha - initialLoad_j, for every host j. */
    private void addHostLoads() {
      double[][] time = problem.time();
      for (int j = 0; j < problem.hosts(); j++) {
        Expression load = model.addExpression("load_" + j).upper(-problem.initialLoad()[j]);
        load.set(alpha, -1);
        for (int n = 0; n < time.length; n++) {
          if (x[n][j] != null) {
            load.set(x[n][j], time[n][j]);
          }
        }
      }
    }

    /** (6b): sum over j in H_n of x_nj = 1, for every reducer n. */
    private void addAssignments() {
      for (int n = 0; n < x.length; n++) {
        Expression placed = model.addExpression("placed_" + n).level(1);
        for (Variable v : x[n]) {
          if (v != null) {
            placed.set(v, 1);
          }
        }
      }
    }

    /** x from an optimal result, noise below {@link #NOISE} removed and rows summing to 1. */
    double[][] fractions(Optimisation.Result result) {
      double[][] out = new double[x.length][];
      for (int n = 0; n < x.length; n++) {
        out[n] = new double[x[n].length];
        double sum = 0;
        for (int j = 0; j < x[n].length; j++) {
          double v = x[n][j] == null ? 0 : result.doubleValue(model.indexOf(x[n][j]));
          out[n][j] = v < NOISE ? 0 : v;
          sum += out[n][j];
        }
        if (!(sum > 0.5)) {
          throw new PlacementException(
              "LP (6) for " + x.length + " reducers: reducer " + n + " placed " + sum + " times");
        }
        for (int j = 0; j < out[n].length; j++) {
          out[n][j] /= sum;
        }
      }
      return out;
    }
  }

  /** Bounds on the optimum of (6) that let the search skip LPs. */
  static final class Bounds {
    private Bounds() {}

    /** max_n min_j time[n][j]: the least threshold at which every reducer has a pair. */
    static double largestLeastTime(MakespanProblem problem) {
      return Arrays.stream(problem.time())
          .mapToDouble(row -> Arrays.stream(row).min().orElseThrow())
          .max()
          .orElse(0);
    }

    /**
     * max(max_j initialLoad_j, (sum_n min_j time + sum_j initialLoad_j) / M): summing (6a) over the
     * hosts, every A_k is at least this.
     */
    static double averageLoad(MakespanProblem problem) {
      double total = Arrays.stream(problem.initialLoad()).sum();
      for (double[] row : problem.time()) {
        total += Arrays.stream(row).min().orElseThrow();
      }
      double most = Arrays.stream(problem.initialLoad()).max().orElse(0);
      return Math.max(most, total / problem.hosts());
    }

    /** Makespan of largest-first greedy placement on the least-loaded allowed host. */
    static double greedyMakespan(MakespanProblem problem) {
      double[][] time = problem.time();
      double[] leastTime =
          Arrays.stream(time).mapToDouble(r -> Arrays.stream(r).min().orElseThrow()).toArray();
      int[] order =
          IntStream.range(0, time.length)
              .boxed()
              .sorted(
                  Comparator.comparingDouble((Integer n) -> -leastTime[n]).thenComparing(n -> n))
              .mapToInt(Integer::intValue)
              .toArray();
      double[] load = problem.initialLoad().clone();
      int[] hostOf = new int[time.length];
      for (int n : order) {
        int best = -1;
        for (int j = 0; j < load.length; j++) {
          if (time[n][j] < Double.POSITIVE_INFINITY
              && (best < 0 || load[j] + time[n][j] < load[best] + time[n][best])) {
            best = j;
          }
        }
        hostOf[n] = best;
        load[best] += time[n][best];
      }
      return problem.makespan(hostOf);
    }

    /** Largest host load of a fractional placement, including initial loads. */
    static double fractionalMakespan(MakespanProblem problem, double[][] x) {
      double[] load = problem.initialLoad().clone();
      for (int n = 0; n < x.length; n++) {
        for (int j = 0; j < x[n].length; j++) {
          if (x[n][j] > 0) {
            load[j] += problem.time()[n][j] * x[n][j];
          }
        }
      }
      return Arrays.stream(load).max().orElse(0);
    }
  }
}
