using System.Globalization;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>How the report says what its verdicts are and what the run could have found (docs/report.md, "Verdicts").</summary>
internal static class VerdictText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The rule, one paragraph, naming the family's size and method.</summary>
    public static string Family(VerdictFamilySize family)
    {
        ArgumentNullException.ThrowIfNull(family);
        var band = FigureText.Percent(family.Tolerance);
        return family.Members == 0
            ? "No comparison carried a verdict: no mode or stack was repeated, so nothing measured the noise. Repeat the run (--repeat 2 or more, or --repeat auto) to judge it."
            : $"Verdicts: mean, p99 and req/s of each mode against its baseline and of gRPC ÷ SOAP, {family.Members.ToString("#,0", Invariant)} comparisons judged as one family "
                + $"({VerdictFamily.Method}, family-wise error {FigureText.Percent(family.Alpha)}): \"better\" or \"worse\" when the interval, at the level Holm judged it at, lies wholly beyond ±{band}; "
                + $"\"no difference beyond ±{band}\" when it lies wholly within; otherwise \"inconclusive\", with the changes it could not exclude. "
                + "Other figures show their 95 % interval and no verdict.";
    }

    /// <summary>
    /// What size of change a group's comparisons could have found 4 times in 5, and how often they find a 20 %
    /// change: <c>could have found ±38 % on the mean, ±120 % on the p99, ±35 % on req/s; a 20 % change of the mean 1 time in 4</c>.
    /// Null when no comparison of the group has a test.
    /// </summary>
    public static string? Detectable(ModeComparisonGroup group, VerdictFamilySize family)
    {
        ArgumentNullException.ThrowIfNull(group);
        ArgumentNullException.ThrowIfNull(family);
        var detectable = ReportVerdicts.Detectable(group, family).Where(d => d.Value is not null).ToList();
        if (detectable.Count == 0)
        {
            return null;
        }

        var sizes = string.Join(", ", detectable.Select(d => $"{Size(d.Value!.Value)} on {(d.Key == ModeFigure.RequestsPerSecond ? "req/s" : "the " + ModeFigures.Name(d.Key))}"));
        var power = ReportVerdicts.PowerAt(group, ModeFigure.Mean, 0.2, family);
        var twenty = power is { } p ? $"; a 20 % change of the mean is found {Chance(p)}" : string.Empty;
        var repetitions = group.Modes.Max(m => m.Rows.Count);
        return $"At this run's noise and {repetitions.ToString(Invariant)} repetition{(repetitions == 1 ? string.Empty : "s")}, this group could have found (4 times in 5) a change of {sizes}{twenty}.";
    }

    /// <summary>
    /// What the run's design means for its intervals, or null when nothing needs saying: an odd number of rounds does
    /// not balance the order (its last round has no mirror), and services the runner did not
    /// start (<c>--target</c>: compose, Kubernetes, a team's own) are long-lived, not a fresh process per round.
    /// </summary>
    public static string? Design(RunAnalysis analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        var notes = new List<string>();
        var rounds = analysis.Summaries.Count == 0 ? 0 : analysis.Summaries.Max(s => s.Series.Round);
        if (rounds > 1 && rounds % 2 == 1)
        {
            notes.Add($"This run has {rounds.ToString(Invariant)} rounds, an odd number: the balanced order (pairs of a round and its mirror: A B | B A) is only balanced over an even number, "
                + "so its last round has no mirror, the modes' places in the run do not average alike, and a drift over the run (a warming machine) is not fully balanced out; prefer an even --repeat.");
        }

        if (analysis.Manifest.CommandLine.Contains("--target", StringComparison.Ordinal) && rounds > 1)
        {
            notes.Add("The targets were services the runner did not start (--target): every round met the same long-lived processes, not fresh ones. "
                + "The intervals measure how much the figures move between rounds of one process (its warm-up done, its caches and thread pool as the previous round left them), "
                + "which is smaller than how much two processes differ; a difference between modes here is a difference between these running services.");
        }

        return notes.Count == 0 ? null : string.Join(" ", notes);
    }

    /// <summary>A detectable change: <c>±38 %</c>, <c>more than 100×</c>.</summary>
    public static string Size(double change) =>
        double.IsInfinity(change) ? "more than 100×" : $"±{Math.Round(change * 100).ToString("#,0", Invariant)} %";

    /// <summary>A probability as "n times in m" or a percentage: <c>1 time in 4</c>, <c>9 times in 10</c>, <c>almost never</c>.</summary>
    public static string Chance(double p) =>
        p < 0.005 ? "almost never"
        : p > 0.995 ? "almost always"
        : p < 0.5 ? $"1 time in {Math.Round(1 / p).ToString("#,0", Invariant)}"
        : $"{Math.Round(p * 10).ToString(Invariant)} times in 10";
}
